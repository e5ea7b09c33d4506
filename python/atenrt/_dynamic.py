"""Dynamic shapes for the torch 1.13 exporter: atenrt.Dim, and what turns a symbolic make_fx trace
into the sizes torch.export writes (pt2_format.md §4).

1.13's symbolic tracing makes every dim of every input symbolic (weights too) and unifies dims
whose example sizes are equal. Dims the user marked dynamic become the size symbols s0, s1, ...
(one per Dim); every other symbol is specialized to its example value, and size computations that
become constants are folded away, so that the graph has sym_size / _operator nodes only for
dynamic sizes, as torch.export's has.
"""
import operator

import sympy
import torch

from .errors import ExportError

__all__ = ["Dim"]


class Dim:
    """A dynamic dimension for atenrt.save(..., dynamic_shapes=...): a name and an inclusive range
    (the same object as torch.export.Dim where torch has it).

        batch = atenrt.Dim("batch", min=1, max=64)
        atenrt.save(model, (x,), "m.pt2", dynamic_shapes={"x": {0: batch}})
    """

    def __init__(self, name, min=None, max=None):
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"atenrt.Dim name must be an identifier, got {name!r}")
        self.name = name
        self.min = 0 if min is None else int(min)
        self.max = None if max is None else int(max)
        if self.min < 0 or (self.max is not None and self.max < self.min):
            raise ValueError(f"atenrt.Dim {name!r}: range [{self.min}, {self.max}] is empty or negative")

    def __repr__(self):
        return f"atenrt.Dim({self.name!r}, min={self.min}, max={self.max})"


def sym_expr(value):
    """The sympy expression of a 1.13 SymInt (SymIntNode or PySymInt); None for a plain int."""
    if isinstance(value, int):
        return None
    if hasattr(value, "get_pyobj"):
        return value.get_pyobj().expr
    if hasattr(value, "expr"):
        return value.expr
    return None


def _shape_env(value):
    if hasattr(value, "get_pyobj"):
        return value.get_pyobj().shape_env
    return getattr(value, "shape_env", None)


def normalize_spec(dynamic_shapes, leaf_names, leaves):
    """{leaf index: {dim: Dim}} from `dynamic_shapes` given by input name or position (a dict keyed
    by forward() argument names, or a list/tuple in argument order, of {dim: Dim} or None)."""
    if dynamic_shapes is None:
        return {}
    if isinstance(dynamic_shapes, (list, tuple)):
        items = list(enumerate(dynamic_shapes))
    elif isinstance(dynamic_shapes, dict):
        items = list(dynamic_shapes.items())
    else:
        raise ExportError(f"dynamic_shapes takes a dict by input name or a list by position, got "
                          f"{type(dynamic_shapes).__name__}")
    out = {}
    for key, dims in items:
        if isinstance(key, int):
            if key >= len(leaves):
                raise ExportError(f"dynamic_shapes: position {key}, but there are {len(leaves)} tensor inputs")
            index = key
        elif key in leaf_names:
            index = leaf_names.index(key)
        else:
            raise ExportError(f"dynamic_shapes names input {key!r}; the inputs are {', '.join(leaf_names)}")
        if dims is None:
            continue
        if not isinstance(dims, dict) or not all(isinstance(d, int) and isinstance(v, Dim) for d, v in dims.items()):
            raise ExportError(f"dynamic_shapes[{key!r}] must be {{dim: atenrt.Dim}}, got {dims!r}")
        rank = leaves[index].dim()
        checked = {}
        for d, dim in dims.items():
            if not -rank <= d < rank:
                raise ExportError(f"dynamic_shapes[{key!r}]: dim {d} is out of range for rank {rank}")
            size = leaves[index].shape[d]
            if size < max(dim.min, 2) or (dim.max is not None and size > dim.max):
                raise ExportError(f"input {leaf_names[index]!r} dim {d % rank} is {size} in the example, outside "
                                  f"{dim!r} or below 2 (torch 1.13 specializes sizes 0 and 1: give an example "
                                  f"of at least 2 inside the range)")
            checked[d % rank] = dim
        out[index] = checked
    return out


class Symbolic:
    """Maps a symbolic trace's sizes onto export sizes: dynamic symbols -> s<k>, others -> values."""

    def __init__(self, gm, user_placeholders, spec, leaf_names, state_placeholders):
        self.dims = {}        # sympy symbol of a dynamic input dim -> Dim
        self.names = {}       # Dim -> export symbol (s0, ...)
        self.subs = {}
        env = None
        for index, dims in spec.items():
            val = user_placeholders[index].meta.get("val")
            for d, dim in dims.items():
                expr = sym_expr(val.shape[d])
                if not isinstance(expr, sympy.Symbol):
                    raise ExportError(f"input {leaf_names[index]!r} dim {d}: torch 1.13 traced it as {expr}, not a "
                                      f"free size")
                env = env or _shape_env(val.shape[d])
                if expr in self.dims and self.dims[expr] is not dim:
                    raise ExportError(f"input {leaf_names[index]!r} dim {d} and another dynamic dim have the same "
                                      f"example size and torch 1.13 made them one size; give them different "
                                      f"example sizes, or the same Dim")
                self.dims[expr] = dim
        for dim in self.dims.values():
            if dim not in self.names:
                self.names[dim] = f"s{len(self.names)}"
        # Every other symbol is specialized; a dynamic one met in a weight or a static input dim
        # was unified with it by equal example sizes.
        for node in state_placeholders + [p for i, p in enumerate(user_placeholders) if i not in spec]:
            for size in node.meta["val"].shape:
                expr = sym_expr(size)
                if expr is not None and expr.free_symbols & set(self.dims):
                    raise ExportError(f"a dynamic dim's example size ({int(size)}) equals a size of "
                                      f"'{node.name}', and torch 1.13 made them one size; give the dynamic "
                                      f"dim an example size no other dim has")
        for index, dims in spec.items():
            val = user_placeholders[index].meta.get("val")
            for d, size in enumerate(val.shape):
                expr = sym_expr(size)
                if d not in dims and expr is not None and expr.free_symbols & set(self.dims):
                    raise ExportError(f"input {leaf_names[index]!r} dim {d} has the example size of a dynamic "
                                      f"dim; give the dynamic dim an example size no other dim has")
        self.hints = {}
        if env is not None:
            self.hints = {k: int(v) for k, v in env.var_to_val.items()}
        self.subs = {sym: sympy.Symbol(self.names[dim], integer=True, positive=True) for sym, dim in self.dims.items()}

    def refuse_specialized(self, sizes):
        """The sizes a split or unbind took as constants (their count of pieces) must not be dynamic."""
        for size in sizes:
            expr = sym_expr(size)
            if expr is not None and expr.free_symbols & set(self.dims):
                raise ExportError(f"a split, chunk or unbind along a dynamic size ({self.export_expr(expr)}) makes a "
                                  f"number of pieces that depends on it; torch 1.13 cannot trace that (a graph "
                                  f"has a fixed number of outputs)")

    def export_expr(self, expr):
        """`expr` over export symbols (dynamic ones renamed, the rest replaced by example values)."""
        free = expr.free_symbols
        mapping = {}
        for sym in free:
            if sym in self.subs:
                mapping[sym] = self.subs[sym]
            elif sym in self.hints:
                mapping[sym] = sympy.Integer(self.hints[sym])
            else:
                raise ExportError(f"size {expr} depends on {sym}, which has no example value")
        return sympy.simplify(expr.xreplace(mapping)) if mapping else expr

    def hint(self, expr):
        value = expr.xreplace({s: sympy.Integer(self.hints[s]) for s in expr.free_symbols if s in self.hints})
        return int(value) if value.is_number else None

    def size(self, value):
        """The serialized SymInt of one size."""
        expr = sym_expr(value)
        if expr is None:
            return {"as_int": int(value)}
        out = self.export_expr(expr)
        if out.is_number:
            return {"as_int": int(out)}
        return {"as_expr": {"expr_str": str(out), "hint": {"as_int": self.hint(expr)}}}

    def constant(self, value):
        """The int a size computation is once specialized, or None when it stays symbolic."""
        expr = sym_expr(value)
        if expr is None:
            return int(value) if isinstance(value, int) else None
        out = self.export_expr(expr)
        return int(out) if out.is_number else None

    def range_constraints(self):
        return {self.names[dim]: {"min_val": dim.min, "max_val": dim.max} for dim in self.names}


def fold_static_sizes(gm, symbolic):
    """Replace size computations that are constants once specialized (sym_size of a static dim,
    arithmetic on them) by their values, so that only dynamic sizes stay nodes."""
    for node in list(gm.graph.nodes):
        if node.op != "call_function" or node.users == {}:
            continue
        val = node.meta.get("val")
        if sym_expr(val) is None:
            continue
        value = symbolic.constant(val)
        if value is None:
            continue
        for user in list(node.users):
            user.args = torch.fx.node.map_arg(user.args, lambda n: value if n is node else n)
            user.kwargs = torch.fx.node.map_arg(user.kwargs, lambda n: value if n is node else n)
    for node in reversed(list(gm.graph.nodes)):
        if node.op == "call_function" and not node.users and sym_expr(node.meta.get("val")) is not None:
            gm.graph.erase_node(node)
    gm.recompile()


SYM_OPERATORS = {operator.add: "_operator.add", operator.sub: "_operator.sub", operator.mul: "_operator.mul",
                 operator.floordiv: "_operator.floordiv", operator.mod: "_operator.mod",
                 operator.neg: "_operator.neg"}
