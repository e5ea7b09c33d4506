"""The structure of a module's inputs and outputs (tensors in tuples, lists and dicts), kept in the
engine file's metadata section so that an engine loaded from its file takes and returns what the
compiled one did. Needs neither torch nor numpy.

A structure is JSON: "tensor" for a leaf, or {"tuple": [...]}, {"list": [...]},
{"dict": [[key, item], ...]} (keys str or int, in the order the exporter flattened them).
"""
import json

__all__ = ["of_value", "leaves", "unflatten", "flatten", "encode", "decode", "MetadataError"]

_MAX_DEPTH = 64
_FORMAT = 1  # the "atenrt_python" key of the metadata


class MetadataError(ValueError):
    """An engine file's metadata does not hold together."""


def of_value(value, is_tensor):
    """The structure of `value` (a tensor, or tuples, lists and dicts of them; a namedtuple counts as
    a tuple), or None when it holds anything else."""
    def walk(v, depth):
        if depth > _MAX_DEPTH:
            return None
        if is_tensor(v):
            return "tensor"
        if isinstance(v, (tuple, list)):
            items = [walk(x, depth + 1) for x in v]
            if any(x is None for x in items):
                return None
            return {"tuple" if isinstance(v, tuple) else "list": items}
        if isinstance(v, dict):
            if not all(type(k) in (str, int) for k in v):
                return None
            items = [[k, walk(x, depth + 1)] for k, x in v.items()]
            if any(x[1] is None for x in items):
                return None
            return {"dict": items}
        return None
    return walk(value, 0)


def leaves(structure):
    """How many tensors the structure holds."""
    if structure == "tensor":
        return 1
    (kind, items), = structure.items()
    return sum(leaves(x[1] if kind == "dict" else x) for x in items)


def unflatten(values, structure):
    """`values` (a flat list) rebuilt into `structure`."""
    it = iter(values)

    def build(s):
        if s == "tensor":
            return next(it)
        (kind, items), = s.items()
        if kind == "dict":
            return {k: build(x) for k, x in items}
        built = [build(x) for x in items]
        return tuple(built) if kind == "tuple" else built
    return build(structure)


def flatten(value, structure, where, is_leaf):
    """The leaves of `value`, which must have `structure` (keys of dicts matched by name, in any
    order); TypeError naming `where` and the first difference otherwise."""
    out = []

    def walk(v, s, at):
        if s == "tensor":
            if not is_leaf(v):
                raise TypeError(f"{at} is a {type(v).__name__}; the engine takes a tensor there")
            out.append(v)
            return
        (kind, items), = s.items()
        if kind == "dict":
            if not isinstance(v, dict):
                raise TypeError(f"{at} is a {type(v).__name__}; the engine takes a dict with keys "
                                f"{[k for k, _ in items]}")
            keys = [k for k, _ in items]
            if set(v) != set(keys):
                raise TypeError(f"{at} has keys {list(v)}; the engine takes {keys}")
            for k, x in items:
                walk(v[k], x, f"{at}[{k!r}]")
            return
        if not isinstance(v, (tuple, list)) or len(v) != len(items):
            raise TypeError(f"{at} is a {type(v).__name__}"
                            f"{f' of {len(v)}' if isinstance(v, (tuple, list)) else ''}; the engine takes a "
                            f"{kind} of {len(items)}")
        for i, (x, item) in enumerate(zip(v, items)):
            walk(x, item, f"{at}[{i}]")
    walk(value, structure, where)
    return out


def encode(outputs=None, args=None, kwargs=None):
    """The metadata text: the output structure, and the structure of the positional and keyword
    arguments (a list, and a dict by name, of structures)."""
    meta = {"atenrt_python": _FORMAT}
    if outputs is not None:
        meta["outputs"] = outputs
    if args is not None:
        meta["args"] = args
    if kwargs is not None:
        meta["kwargs"] = [[k, v] for k, v in kwargs.items()]
    return json.dumps(meta, separators=(",", ":"))


def decode(text, num_inputs, num_outputs):
    """(outputs, args, kwargs) from metadata text (bytes), each None when absent; MetadataError when
    the text is not what encode() writes or does not match the engine's input and output counts."""
    if not text:
        return None, None, None
    try:
        meta = json.loads(text.decode("utf-8") if isinstance(text, bytes) else text)
    except (ValueError, RecursionError) as e:
        raise MetadataError(f"metadata is not JSON ({type(e).__name__})") from None
    if not isinstance(meta, dict) or "atenrt_python" not in meta:
        return None, None, None  # someone else's metadata: the engine's flat outputs
    if meta["atenrt_python"] != _FORMAT:
        raise MetadataError(f"metadata format {meta['atenrt_python']!r} is not {_FORMAT} (a newer atenrt?)")
    outputs = meta.get("outputs")
    if outputs is not None:
        _check(outputs, "outputs", 0)
        if leaves(outputs) != num_outputs:
            raise MetadataError(f"metadata's output structure holds {leaves(outputs)} tensors, the engine has "
                                f"{num_outputs} outputs")
    args, kwargs = meta.get("args"), meta.get("kwargs")
    if args is not None or kwargs is not None:
        if not isinstance(args, list) or not isinstance(kwargs, list):
            raise MetadataError("metadata's input structure needs both args and kwargs lists")
        for i, a in enumerate(args):
            _check(a, f"args[{i}]", 0)
        for i, item in enumerate(kwargs):
            if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
                raise MetadataError(f"metadata's kwargs[{i}] is not a [name, structure] pair")
            _check(item[1], f"kwargs {item[0]!r}", 0)
        kwargs = dict(kwargs)
        total = sum(leaves(a) for a in args) + sum(leaves(k) for k in kwargs.values())
        if total != num_inputs:
            raise MetadataError(f"metadata's input structure holds {total} tensors, the engine has {num_inputs} "
                                f"inputs")
    return outputs, args, kwargs


def _check(s, where, depth):
    if depth > _MAX_DEPTH:
        raise MetadataError(f"metadata's {where} is nested deeper than {_MAX_DEPTH}")
    if s == "tensor":
        return
    if not isinstance(s, dict) or len(s) != 1:
        raise MetadataError(f"metadata's {where} is not a structure")
    (kind, items), = s.items()
    if kind not in ("tuple", "list", "dict") or not isinstance(items, list):
        raise MetadataError(f"metadata's {where} has an unknown kind {kind!r}")
    if kind == "dict":
        keys = [item[0] for item in items if isinstance(item, list) and item]
        if len(set(map(repr, keys))) != len(keys):
            raise MetadataError(f"metadata's {where} has a key twice")
    for i, item in enumerate(items):
        if kind == "dict":
            if not (isinstance(item, list) and len(item) == 2 and type(item[0]) in (str, int)):
                raise MetadataError(f"metadata's {where}[{i}] is not a [key, structure] pair")
            _check(item[1], f"{where}[{item[0]!r}]", depth + 1)
        else:
            _check(item, f"{where}[{i}]", depth + 1)
