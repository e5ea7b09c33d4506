"""atenrt.Input: what an engine input takes, for atenrt.compile (shaped like torch_tensorrt.Input).
Needs neither torch nor numpy; torch dtypes are accepted when torch is there."""

__all__ = ["Input"]

_DTYPES = ("float32", "float16", "bfloat16", "float64", "int64", "int32", "int16", "int8", "uint8", "bool")
_ALIASES = {"float": "float32", "half": "float16", "double": "float64", "long": "int64", "int": "int32",
            "short": "int16", "fp32": "float32", "fp16": "float16", "bf16": "bfloat16"}


def dtype_name(dtype):
    """'float32', 'int64', ... for a string, a torch dtype or a numpy dtype; ValueError otherwise."""
    text = str(dtype)
    for prefix in ("torch.", "<class 'numpy.", "numpy."):
        if text.startswith(prefix):
            text = text[len(prefix):]
    text = text.rstrip("'>")
    text = _ALIASES.get(text, text)
    if text not in _DTYPES:
        raise ValueError(f"unknown dtype {dtype!r}; atenrt takes {', '.join(_DTYPES)}")
    return text


class Input:
    """An engine input: a static shape (shape=...) or a range (min_shape/opt_shape/max_shape), and the
    dtype the engine takes (checked when the engine is made: atenrt never casts silently).

        atenrt.Input(shape=(1, 3, 224, 224), dtype=torch.float32)
        atenrt.Input(min_shape=(1, 3, 224, 224), opt_shape=(8, 3, 224, 224), max_shape=(32, 3, 224, 224))
    """

    def __init__(self, shape=None, dtype="float32", *, min_shape=None, opt_shape=None, max_shape=None, name=None):
        ranged = (min_shape, opt_shape, max_shape)
        if shape is not None and any(s is not None for s in ranged):
            raise ValueError("atenrt.Input takes shape= or min_shape/opt_shape/max_shape, not both")
        if shape is None and not all(s is not None for s in ranged):
            raise ValueError("atenrt.Input needs shape= (static) or all of min_shape, opt_shape, max_shape")
        self.shape = None if shape is None else _dims(shape, "shape")
        self.min_shape = None if min_shape is None else _dims(min_shape, "min_shape")
        self.opt_shape = None if opt_shape is None else _dims(opt_shape, "opt_shape")
        self.max_shape = None if max_shape is None else _dims(max_shape, "max_shape")
        if self.shape is None:
            if not (len(self.min_shape) == len(self.opt_shape) == len(self.max_shape)):
                raise ValueError("min_shape, opt_shape and max_shape must have the same rank")
            if not all(a <= b <= c for a, b, c in zip(self.min_shape, self.opt_shape, self.max_shape)):
                raise ValueError("atenrt.Input needs min_shape <= opt_shape <= max_shape in every dimension")
        self.dtype = dtype_name(dtype)
        self.name = name

    @property
    def is_static(self):
        return self.shape is not None

    def example(self, torch):
        """A tensor of this shape and dtype (zeros) for tracing."""
        if not self.is_static:
            raise ValueError("a range atenrt.Input has no single example; atenrt.compile(module, ...) picks one "
                             "inside the range for its symbolic export")
        return torch.zeros(self.shape, dtype=getattr(torch, self.dtype))

    def __repr__(self):
        if self.is_static:
            return f"atenrt.Input(shape={self.shape}, dtype={self.dtype})"
        return (f"atenrt.Input(min_shape={self.min_shape}, opt_shape={self.opt_shape}, "
                f"max_shape={self.max_shape}, dtype={self.dtype})")


def _dims(shape, what):
    try:
        dims = tuple(int(d) for d in shape)
    except TypeError:
        raise TypeError(f"atenrt.Input {what} must be a sequence of ints, got {type(shape).__name__}") from None
    if any(d < 0 for d in dims):
        raise ValueError(f"atenrt.Input {what} has a negative dimension: {dims}")
    return dims
