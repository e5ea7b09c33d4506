"""Fills the gaps of torch 1.13's symbolic tracing that transformer and segmentation models meet.

1.13's FakeTensor has no symbolic meta function for select, split, unbind or the upsample ops, and
the C++ paths of Python indexing (x[0], x[:, :n]), narrow and chunk read concrete sizes, so
make_fx(tracing_mode="symbolic") fails on them ("Cannot call sizes() on tensor with symbolic
sizes/strides"). While a symbolic trace runs, `symbolic_tracing_gaps()` registers the missing meta
functions (the graph still records the ATen op itself, as torch.export does) and routes basic
indexing, narrow and chunk through aten.select / aten.slice, which do trace.

A split into pieces needs their count, a concrete int: it is taken from the size's example value,
and the sizes read that way are returned so that the exporter can refuse a dynamic one.
"""
import contextlib

import torch

from . import _dynamic

aten = torch.ops.aten
_END = 9223372036854775807  # what Python's x[a:] passes as slice's end


def _hint(size, specialized):
    """The example value of a size (an int, or a 1.13 SymInt whose symbols have example values)."""
    expr = _dynamic.sym_expr(size)
    if expr is None:
        return int(size)
    env = _dynamic._shape_env(size)
    value = expr.xreplace({s: v for s, v in env.var_to_val.items()})
    specialized.append(size)
    return int(value)


def _dim(x, dim):
    return dim + x.dim() if dim < 0 else dim


def _select(x, dim, index):
    dim = _dim(x, dim)
    if isinstance(index, int) and index < 0:
        index = index + x.shape[dim]
    return aten.squeeze.dim(aten.slice.Tensor(x, dim, index, index + 1), dim)


def _split_with_sizes(x, sizes, dim=0):
    dim = _dim(x, dim)
    out, start = [], 0
    for size in sizes:
        out.append(aten.slice.Tensor(x, dim, start, start + size))
        start = start + size
    return out


def _upsample(x, output_size, *rest):
    return x.new_empty(tuple(x.shape[:2]) + tuple(output_size))


def _metas(specialized):
    def split(x, split_size, dim=0):
        dim = _dim(x, dim)
        total, step = _hint(x.shape[dim], specialized), _hint(split_size, specialized)
        return [aten.slice.Tensor(x, dim, i, min(i + step, total)) for i in range(0, total, step)]

    def unbind(x, dim=0):
        dim = _dim(x, dim)
        return [_select(x, dim, i) for i in range(_hint(x.shape[dim], specialized))]

    return {aten.select.int: _select, aten.split.Tensor: split, aten.split_with_sizes.default: _split_with_sizes,
            aten.unbind.int: unbind, aten.upsample_bilinear2d.vec: _upsample,
            aten.upsample_bilinear2d.default: _upsample, aten.upsample_nearest2d.vec: _upsample,
            aten.upsample_nearest2d.default: _upsample}


def _basic_index(x, index, original):
    """x[index] for ints, slices, None and Ellipsis through aten.select/slice/unsqueeze; anything
    else (tensors, lists) goes to torch's own indexing."""
    items = index if isinstance(index, tuple) else (index,)
    if not all(i is None or i is Ellipsis or isinstance(i, (int, slice, torch.SymIntNode)) and not isinstance(i, bool)
               for i in items):
        return original(x, index)
    if sum(i is Ellipsis for i in items) > 1:
        return original(x, index)
    used = sum(1 for i in items if i is not None and i is not Ellipsis)
    if Ellipsis in items:
        at = items.index(Ellipsis)
        items = items[:at] + (slice(None),) * (x.dim() - used) + items[at + 1:]
    out, dim = x, 0
    for item in items:
        if item is None:
            out = aten.unsqueeze.default(out, dim)
            dim += 1
        elif isinstance(item, slice):
            if not (item.start is None and item.stop is None and item.step is None):
                start = 0 if item.start is None else item.start
                end = _END if item.stop is None else item.stop
                out = aten.slice.Tensor(out, dim, start, end, 1 if item.step is None else item.step)
            dim += 1
        else:
            out = aten.select.int(out, dim, item)
    return out


@contextlib.contextmanager
def symbolic_tracing_gaps():
    """Yields the list of sizes whose example value a split or unbind used as a constant."""
    from torch._meta_registrations import meta_table

    specialized = []
    added = {op: fn for op, fn in _metas(specialized).items() if op not in meta_table}
    meta_table.update(added)
    getitem, narrow, chunk = torch.Tensor.__getitem__, torch.Tensor.narrow, torch.Tensor.chunk

    def narrow_(x, dim, start, length):
        return aten.slice.Tensor(x, _dim(x, dim), start, start + length)

    def chunk_(x, chunks, dim=0):
        total = _hint(x.shape[_dim(x, dim)], specialized)
        return aten.split.Tensor(x, -(-total // chunks), dim)

    torch.Tensor.__getitem__ = lambda x, index: _basic_index(x, index, getitem)
    torch.Tensor.narrow, torch.Tensor.chunk = narrow_, chunk_
    try:
        yield specialized
    finally:
        torch.Tensor.__getitem__, torch.Tensor.narrow, torch.Tensor.chunk = getitem, narrow, chunk
        for op in added:
            del meta_table[op]
