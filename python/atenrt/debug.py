"""Layer-by-layer accuracy debugging against PyTorch (Polygraphy's "mark all"):

    report = atenrt.debug.compare_layers(model, [x], rtol=1e-4, atol=1e-5, precision="bf16")
    print(report.to_text())            # every compared value, the first divergence marked
    report.first_divergence            # the first LayerDifference beyond tolerance, or None

The module is exported, and the archive compiled with mark_all_outputs=True: every node's tensor
value is also an engine output, named after the graph value. PyTorch evaluates the exporter's
traced graph node by node (torch.fx.Interpreter), and each value both sides have is compared in
graph order. Lowering may replace a node by a decomposition: then its value has no counterpart
in the engine and is not compared, but the values around it are. Needs torch; a `.pt2` path needs
torch.export.load (torch >= 2.1) for its graph; without PyTorch, `atenrt run --compare-layers`
compares with atenrt's reference executor instead.
"""
import os
import tempfile
from typing import NamedTuple, Optional, Tuple

__all__ = ["compare_layers", "LayerDifference", "LayerReport"]


class LayerDifference(NamedTuple):
    """One compared value: the graph value's name, its op, shape and dtype, the largest absolute
    and relative errors, how many elements break |engine - torch| <= atol + rtol * max|torch| (the
    value's largest finite magnitude; NaN matches NaN), and a problem when they cannot be compared
    (shape or dtype differ)."""
    name: str
    op: str
    shape: Tuple[int, ...]
    dtype: str
    max_abs: float
    max_rel: float
    mismatched: int
    total: int
    problem: str = ""

    @property
    def ok(self):
        return not self.problem and self.mismatched == 0


class LayerReport:
    """The values compared, in graph order, and the first beyond tolerance."""

    def __init__(self, layers, rtol, atol, precision):
        self.layers = tuple(layers)
        self.rtol, self.atol, self.precision = rtol, atol, precision
        self.first_divergence: Optional[LayerDifference] = next((d for d in self.layers if not d.ok), None)

    def __repr__(self):
        first = f"first divergence '{self.first_divergence.name}'" if self.first_divergence else "all within tolerance"
        return f"<atenrt.debug.LayerReport {len(self.layers)} values compared ({self.precision}), {first}>"

    def to_text(self, all_rows=False):
        """The error table: up to the first divergence (every row with all_rows=True)."""
        lines = [f"compared {len(self.layers)} values with PyTorch (rtol {self.rtol:g}, atol {self.atol:g}, "
                 f"engine {self.precision})",
                 f"  {'value':32} {'op':28} {'result':6} {'max abs err':>12} {'max rel err':>12} mismatched"]
        for d in self.layers:
            if d.problem:
                lines.append(f"  {d.name:32} {d.op:28} {'FAIL':6} {d.problem}")
            else:
                lines.append(f"  {d.name:32} {d.op:28} {'ok' if d.ok else 'FAIL':6} {d.max_abs:12.3g} "
                             f"{d.max_rel:12.3g} {d.mismatched} of {d.total}")
            if d is self.first_divergence and not all_rows:
                break
        if self.first_divergence:
            lines.append(f"first divergence: '{self.first_divergence.name}' ({self.first_divergence.op})")
        return "\n".join(lines)

    __str__ = to_text


def _difference(name, op, got, want, rtol, atol):
    import torch
    shape, dtype = tuple(want.shape), str(want.dtype).replace("torch.", "")
    if tuple(got.shape) != shape:
        return LayerDifference(name, op, shape, dtype, 0.0, 0.0, 0, want.numel(),
                               f"shape {list(got.shape)} in the engine, {list(shape)} in PyTorch")
    if want.dtype.is_complex:
        return LayerDifference(name, op, shape, dtype, 0.0, 0.0, 0, want.numel(), "complex values")
    g, w = got.to(torch.float64), want.detach().to(torch.float64)
    diff = (g - w).abs()
    both_nan = g.isnan() & w.isnan()
    same_inf = (g == w) & w.isinf()
    diff = torch.where(both_nan | same_inf, torch.zeros_like(diff), diff)
    # The project's bar, per value: relative to the value's largest magnitude, not to each element
    # (an element near zero would fail on fp32 summation noise alone).
    finite_w = w[w.isfinite()]
    scale = float(finite_w.abs().max()) if finite_w.numel() else 0.0
    bad = (diff > atol + rtol * scale) | (diff.isnan())
    rel = diff / w.abs()
    rel = torch.where(w == 0, torch.zeros_like(rel), rel)
    finite = diff[~diff.isnan()]
    return LayerDifference(name, op, shape, dtype, float(finite.max()) if finite.numel() else 0.0,
                           float(rel[~rel.isnan()].max()) if rel.numel() else 0.0, int(bad.sum()), want.numel())


def compare_layers(model, inputs, rtol=1e-4, atol=1e-5, kwarg_inputs=None, **settings):
    """Compile `model` (an nn.Module exported on `inputs`, or a `.pt2` path) marking every node
    value as an output, run it and PyTorch on `inputs` (tensors, nested as forward() takes them),
    and compare each intermediate value both have, in graph order. Takes compile()'s settings
    (precision="bf16" shows where bf16 departs). Returns a LayerReport."""
    import torch
    from torch.utils import _pytree as pytree

    from . import torch_api
    from .runtime import compile as compile_engine

    if "mark_all_outputs" in settings:
        raise TypeError("compare_layers sets mark_all_outputs itself")
    args = [inputs] if isinstance(inputs, torch.Tensor) else list(inputs)
    kwargs = dict(kwarg_inputs or {})
    leaves = pytree.tree_flatten([args, kwargs])[0]
    if not all(isinstance(x, torch.Tensor) for x in leaves):
        raise TypeError("compare_layers takes tensors as inputs (alone or in lists, tuples and dicts)")
    with tempfile.TemporaryDirectory(prefix="atenrt_layers_") as folder:
        if isinstance(model, torch.nn.Module):
            from .export import export
            exported = export(model, args, example_kwargs=kwargs)
            if not hasattr(exported, "traced"):
                raise NotImplementedError("compare_layers evaluates atenrt's torch 1.13 exporter's graph; with "
                                          "torch.export, save the program and use `atenrt run --compare-layers`")
            path = os.path.join(folder, "model.pt2")
            exported.write(path)
            graph_module, feed = exported.graph_module, _placeholder_values(exported.traced.slots, leaves)
        elif isinstance(model, (str, bytes, os.PathLike)):
            load = getattr(getattr(torch, "export", None), "load", None)
            if load is None:
                raise NotImplementedError(
                    f"a .pt2 needs torch.export.load (torch >= 2.1) to evaluate in PyTorch, and this is torch "
                    f"{torch.__version__}: pass the nn.Module, or use `atenrt run --compare-layers` (atenrt's "
                    f"reference executor)")
            path = os.fspath(model)
            graph_module = load(path).module()
            feed = leaves
        else:
            raise TypeError(f"compare_layers takes an nn.Module or a .pt2 path, got {type(model).__name__}")
        engine = compile_engine(path, mark_all_outputs=True, **settings)
        arrays = [torch_api.to_array(x, spec) for x, spec in zip(leaves, engine.inputs)]
        got = dict(zip((s.name for s in engine.outputs), torch_api.to_torch(engine.run(*arrays), engine)))

    values = {}

    class Recorder(torch.fx.Interpreter):
        def run_node(self, node):
            result = super().run_node(node)
            if node.op == "call_function" and isinstance(result, torch.Tensor):
                values[node.name] = (str(node.target), result)
            return result

    with torch.no_grad():
        Recorder(graph_module).run(*feed)
    layers = [_difference(name, op, got[name], want, rtol, atol)
              for name, (op, want) in values.items() if name in got]
    return LayerReport(layers, rtol, atol, engine.precision)


def _placeholder_values(slots, user_leaves):
    """The exported graph's placeholders: lifted state first, then the user inputs, as traced."""
    users = iter(user_leaves)
    return [next(users) if slot.kind == "user_input" else slot.tensor for slot in slots]
