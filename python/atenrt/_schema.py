"""ATen schema helpers and the encoding of Python values as torch.export JSON `Argument`s.

Enum numbering follows torch/_export/serde/schema.py (not c10): see pt2_format.md §3.6.
"""
import math
import re

import torch

from .errors import ExportError

# torch dtype -> serde ScalarType
SCALAR_TYPE = {
    torch.uint8: 1, torch.int8: 2, torch.int16: 3, torch.int32: 4, torch.int64: 5,
    torch.float16: 6, torch.float32: 7, torch.float64: 8, torch.complex32: 9,
    torch.complex64: 10, torch.complex128: 11, torch.bool: 12, torch.bfloat16: 13,
}
# c10 ScalarType numbering (how schema defaults are printed) -> torch dtype
_C10_DTYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16,
               torch.float32, torch.float64, torch.complex32, torch.complex64, torch.complex128,
               torch.bool, None, None, None, torch.bfloat16]
LAYOUT = {torch.strided: 7, torch.sparse_coo: 1, torch.sparse_csr: 2, torch.sparse_csc: 3,
          torch.sparse_bsr: 4, torch.sparse_bsc: 5, torch._mkldnn: 6}
_C10_LAYOUT_TO_SERDE = [7, 1, 2, 6, 3, 4, 5]     # c10: Strided, Sparse, SparseCsr, Mkldnn, SparseCsc, Bsr, Bsc
MEMORY_FORMAT = {torch.contiguous_format: 1, torch.channels_last: 2, torch.channels_last_3d: 3,
                 torch.preserve_format: 4}
_C10_MEMORY_FORMAT_TO_SERDE = [1, 4, 2, 3]      # c10: Contiguous, Preserve, ChannelsLast, ChannelsLast3d


class ArgType:
    """Declared type of one schema argument, e.g. `int[2]`, `Tensor?[]`, `ScalarType?`."""

    _LIST = re.compile(r"^(\w+)(\?)?\[(\d*)\]$")

    def __init__(self, text):
        self.text = text
        t = re.sub(r"\([^)]*\)", "", text)        # drop alias annotations: Tensor(a!) -> Tensor
        self.optional = t.endswith("?")
        if self.optional:
            t = t[:-1]
        m = self._LIST.match(t)
        self.is_list = m is not None
        self.base = m.group(1) if m else t
        self.elem_optional = bool(m and m.group(2))
        self.size = int(m.group(3)) if m and m.group(3) else None


def _split_top_level(text):
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


_TYPES_CACHE = {}


def declared_types(op):
    """ArgType per schema argument, parsed from the schema text (the Python type objects lose
    ScalarType/Layout/MemoryFormat, which all read as `int`)."""
    types = _TYPES_CACHE.get(op)
    if types is not None:
        return types
    text = str(op._schema)
    start = text.index("(") + 1
    depth, end = 0, start
    for end in range(start, len(text)):
        ch = text[end]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            if depth == 0:
                break
            depth -= 1
    types = []
    for part in _split_top_level(text[start:end]):
        part = part.strip()
        if not part or part == "*":
            continue
        decl = part.split("=", 1)[0].strip()
        types.append(ArgType(decl.rsplit(" ", 1)[0]))
    if len(types) != len(op._schema.arguments):
        raise ExportError(f"cannot parse the schema of {op}: {text}")
    _TYPES_CACHE[op] = types
    return types


def _tensor_ref(value, where):
    if not isinstance(value, torch.fx.Node):
        raise ExportError(f"{where}: expected a tensor value, got {type(value).__name__}")
    return {"name": value.name}


def _scalar_enum(value, t, where):
    """An int standing for an enum (schema defaults print them as c10 integers)."""
    if t.base == "ScalarType":
        dtype = _C10_DTYPES[value] if 0 <= value < len(_C10_DTYPES) else None
        if dtype is None:
            raise ExportError(f"{where}: unsupported ScalarType {value}")
        return {"as_scalar_type": SCALAR_TYPE[dtype]}
    if t.base == "Layout":
        return {"as_layout": _C10_LAYOUT_TO_SERDE[value]}
    if t.base == "MemoryFormat":
        return {"as_memory_format": _C10_MEMORY_FORMAT_TO_SERDE[value]}
    return None


def encode(value, t, where):
    """Encode a Python value (FX arg) as an Argument union member. `t` is the ArgType or None."""
    if value is None:
        return {"as_none": True}
    if _is_sym_node(value):
        return {"as_sym_int": {"as_name": value.name}}
    if isinstance(value, torch.fx.Node):
        return {"as_tensor": _tensor_ref(value, where)}
    if isinstance(value, (list, tuple)):
        return _encode_list(list(value), t, where)
    if t is not None and t.is_list and isinstance(value, (int, float, bool)):
        return _encode_list([value] * (t.size or 1), t, where)   # `int[2] padding=0` means [0, 0]
    if isinstance(value, bool):
        return {"as_bool": value}
    if isinstance(value, torch.dtype):
        if value not in SCALAR_TYPE:
            raise ExportError(f"{where}: dtype {value} has no serde ScalarType")
        return {"as_scalar_type": SCALAR_TYPE[value]}
    if isinstance(value, torch.layout):
        return {"as_layout": LAYOUT[value]}
    if isinstance(value, torch.memory_format):
        return {"as_memory_format": MEMORY_FORMAT[value]}
    if isinstance(value, torch.device):
        return {"as_device": {"type": value.type, "index": value.index}}
    if isinstance(value, int):
        if t is not None:
            enum = _scalar_enum(value, t, where)
            if enum is not None:
                return enum
            if t.base == "float":
                return {"as_float": float(value)}
        return {"as_int": value}
    if isinstance(value, float):
        return {"as_float": value}
    if isinstance(value, str):
        return {"as_string": value}
    raise ExportError(f"{where}: cannot serialize a value of type {type(value).__name__} ({value!r})")


def _encode_list(values, t, where):
    base = t.base if t is not None else None
    has_node = any(isinstance(v, torch.fx.Node) for v in values)
    if has_node and all(_is_sym_node(v) or (isinstance(v, int) and not isinstance(v, bool)) for v in values):
        return {"as_sym_ints": [{"as_name": v.name} if isinstance(v, torch.fx.Node) else {"as_int": v}
                                for v in values]}
    if base == "Tensor" or (base is None and has_node):
        if (t is not None and t.elem_optional) or any(v is None for v in values):
            return {"as_optional_tensors": [{"as_none": True} if v is None else {"as_tensor": _tensor_ref(v, where)}
                                            for v in values]}
        return {"as_tensors": [_tensor_ref(v, where) for v in values]}
    if has_node:
        raise ExportError(f"{where}: a list mixing tensors and numbers is a symbolic-int list, "
                          "which static-shape export does not produce")
    if base is None:
        if not values:
            raise ExportError(f"{where}: cannot type an empty list without a schema")
        kinds = {type(v) for v in values}
        base = {frozenset([bool]): "bool", frozenset([int]): "int", frozenset([float]): "float",
                frozenset([int, float]): "float", frozenset([str]): "str"}.get(frozenset(kinds))
    if base in ("int", "SymInt"):
        if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
            raise ExportError(f"{where}: expected ints, got {values!r}")
        return {"as_ints": [int(v) for v in values]}
    if base == "float":
        return {"as_floats": [float(v) for v in values]}
    if base == "bool":
        return {"as_bools": [bool(v) for v in values]}
    if base == "str":
        return {"as_strings": [str(v) for v in values]}
    raise ExportError(f"{where}: cannot serialize a list of {base or 'mixed values'}: {values!r}")


# While a symbolic (dynamic-shape) trace is serialized: its _dynamic.Symbolic, which writes
# symbolic sizes as torch.export does ({"as_expr": ...}); None for static traces.
SYMBOLIC = None


def _size(value):
    if SYMBOLIC is not None and not isinstance(value, int):
        return SYMBOLIC.size(value)
    return {"as_int": int(value)}


def _is_sym_node(value):
    """An FX node whose value is a symbolic int (sym_size, arithmetic on sizes)."""
    return (isinstance(value, torch.fx.Node) and value.meta.get("val") is not None
            and not isinstance(value.meta["val"], (torch.Tensor, int, float, bool, list, tuple))
            and (hasattr(value.meta["val"], "get_pyobj") or hasattr(value.meta["val"], "expr")))


def tensor_meta(value, where):
    """TensorMeta of a real or fake tensor."""
    if not isinstance(value, torch.Tensor):
        raise ExportError(f"{where}: expected a tensor value, got {type(value).__name__}")
    if value.layout != torch.strided:
        raise ExportError(f"{where}: layout {value.layout} is not supported (strided only)")
    if value.dtype not in SCALAR_TYPE:
        raise ExportError(f"{where}: dtype {value.dtype} has no serde ScalarType")
    return {
        "dtype": SCALAR_TYPE[value.dtype],
        "sizes": [_size(s) for s in value.shape],
        "requires_grad": bool(value.requires_grad),
        "device": {"type": value.device.type, "index": value.device.index},
        "strides": [_size(s) for s in value.stride()],
        "storage_offset": _size(value.storage_offset()),
        "layout": LAYOUT[value.layout],
    }


def json_safe(obj):
    """torch's writer spells non-finite floats as strings (json.dumps(allow_nan=False))."""
    if isinstance(obj, float):
        if math.isnan(obj):
            return "NaN"
        if math.isinf(obj):
            return "Infinity" if obj > 0 else "-Infinity"
        return obj
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    return obj
