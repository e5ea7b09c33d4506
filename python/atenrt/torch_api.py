"""The torch face of atenrt: compile an nn.Module (or a torch.export ExportedProgram) and call the
engine with torch tensors, getting torch tensors back in the module's output structure.

Imported only when a torch object meets atenrt, so the numpy runtime keeps working without torch.
"""
import os
import tempfile

import torch

from . import _structure
from ._progress import progress
from .inputs import Input, dtype_name
from .runtime import InputError

__all__ = ["compile_torch", "to_array", "to_torch", "flatten"]

try:
    from torch.utils import _pytree as pytree
except ImportError:  # pragma: no cover - every torch atenrt supports has it
    pytree = None


def _is_exported_program(obj):
    export = getattr(torch, "export", None)
    cls = getattr(export, "ExportedProgram", None) if export is not None else None
    return cls is not None and isinstance(obj, cls)


def _example(x):
    if isinstance(x, Input):
        return x.example(torch)
    if isinstance(x, torch.Tensor):
        return x.detach()
    raise TypeError(f"an input is a {type(x).__name__}; give tensors or atenrt.Input(...), "
                    f"alone or in lists, tuples and dicts")


def _examples(inputs, kwarg_inputs, what):
    if inputs is None and not kwarg_inputs:
        raise TypeError(f"atenrt.compile({what}) needs inputs=[...]: example tensors or atenrt.Input(...)")
    if isinstance(inputs, (torch.Tensor, Input)):
        inputs = [inputs]
    if kwarg_inputs is not None and not isinstance(kwarg_inputs, dict):
        raise TypeError(f"kwarg_inputs must be a dict by argument name, got {type(kwarg_inputs).__name__}")
    args = [pytree.tree_map(_example, x) for x in (inputs or [])]
    kwargs = {k: pytree.tree_map(_example, v) for k, v in (kwarg_inputs or {}).items()}
    return args, kwargs


def _ranged_examples(module, inputs, kwarg_inputs):
    """Range atenrt.Inputs as example tensors for a symbolic export: (inputs and kwarg_inputs with
    each range Input replaced by a tensor, dynamic_shapes by leaf position, [(leaf position, Input)]).

    torch 1.13's symbolic tracing unifies every dim whose example size is equal (weights' dims too)
    and specializes sizes 0 and 1, so each dynamic dim's example is its opt size when that is at
    least 2 and no other dim has it, else the nearest such size inside its range."""
    from ._dynamic import Dim
    args = list(inputs or []) if not isinstance(inputs, (torch.Tensor, Input)) else [inputs]
    kwargs = dict(kwarg_inputs or {})
    leaves = pytree.tree_flatten([args, kwargs])[0]
    ranged = [(i, x) for i, x in enumerate(leaves) if isinstance(x, Input) and not x.is_static]
    if not ranged:
        return inputs, kwarg_inputs, None, []
    taken = {int(d) for t in list(module.parameters()) + list(module.buffers()) for d in t.shape}
    for x in leaves:
        if isinstance(x, torch.Tensor):
            taken.update(int(d) for d in x.shape)
        elif isinstance(x, Input):
            taken.update(lo for lo, hi in zip(x.min_shape or x.shape, x.max_shape or x.shape) if lo == hi)
    examples, spec = {}, {}
    for index, x in ranged:
        shape, dims = [], {}
        for d, (lo, opt, hi) in enumerate(zip(x.min_shape, x.opt_shape, x.max_shape)):
            if lo == hi:
                shape.append(lo)
                continue
            candidates = [opt] + sorted(range(max(lo, 2), min(hi, lo + 4096) + 1), key=lambda s: abs(s - opt))
            size = next((s for s in candidates if s >= 2 and s not in taken), None)
            if size is None:
                raise ValueError(f"{x!r}: dim {d} has no example size in [{lo}, {hi}] that torch 1.13's symbolic "
                                 f"tracing can keep symbolic (at least 2, and no other dim or weight has it)")
            taken.add(size)
            shape.append(size)
            dims[d] = Dim(f"input{index}_dim{d}", min=lo, max=hi)
        examples[id(x)] = torch.zeros(shape, dtype=getattr(torch, x.dtype))
        if dims:
            spec[index] = dims

    def swap(x):
        return examples.get(id(x), x)
    args = [pytree.tree_map(swap, a) for a in args]
    kwargs = {k: pytree.tree_map(swap, v) for k, v in kwargs.items()}
    return args, kwargs, spec, ranged


def _range_settings(path, ranged, settings):
    """min_shapes/opt_shapes/max_shapes for the range Inputs, by the exported graph's input names."""
    from .runtime import SettingsError, _archive_user_inputs
    clash = [k for k in ("min_shapes", "opt_shapes", "max_shapes", "shapes") if k in settings]
    if clash:
        raise SettingsError(f"give input ranges either as atenrt.Input(min_shape=...) or as {clash[0]}=, not both")
    names = _archive_user_inputs(path)
    parts = {"min_shapes": {}, "opt_shapes": {}, "max_shapes": {}}
    for index, x in ranged:
        parts["min_shapes"][names[index]] = x.min_shape
        parts["opt_shapes"][names[index]] = x.opt_shape
        parts["max_shapes"][names[index]] = x.max_shape
    return {**settings, **parts}


def _is_tensor(x):
    return isinstance(x, torch.Tensor)


def flatten(args):
    """The tensors of `args` (tensors, or lists, tuples and dicts of them) in the order the exporter
    binds them to engine inputs."""
    return pytree.tree_flatten(list(args))[0]


def _spec_structure(spec):
    """A torch.export out_spec (a pytree TreeSpec) as a structure (_structure.py), or None."""
    if spec is None:
        return None
    children = list(getattr(spec, "children_specs", ()))
    kind = getattr(spec, "type", None)
    if kind is None and not children:
        return "tensor"
    items = [_spec_structure(c) for c in children]
    if any(x is None for x in items):
        return None
    if kind is dict:
        return {"dict": [[k, x] for k, x in zip(spec.context, items)]}
    if kind is list:
        return {"list": items}
    if kind is tuple or (isinstance(kind, type) and issubclass(kind, tuple)):
        return {"tuple": items}
    return None


def compile_torch(obj, inputs, kwarg_inputs, compile_path, settings):
    """atenrt.compile for an nn.Module or an ExportedProgram: export to a temporary .pt2, compile it
    with `compile_path(path, settings)`, and keep the input and output structure in the engine (and
    its file: the metadata section)."""
    from .export import save
    name = type(obj).__name__
    with tempfile.TemporaryDirectory(prefix="atenrt_") as folder:
        path = os.path.join(folder, "model.pt2")
        if isinstance(obj, torch.nn.Module):
            given, given_kwargs, dynamic_shapes, ranged = _ranged_examples(obj, inputs, kwarg_inputs)
            args, kwargs = _examples(given, given_kwargs, name)
            save(obj, args, path, example_kwargs=kwargs, dynamic_shapes=dynamic_shapes)  # shows its own progress
            if ranged:
                settings = _range_settings(path, ranged, settings)
            with torch.no_grad():
                outputs = _structure.of_value(obj(*args, **kwargs), _is_tensor)
            arg_structures = [_structure.of_value(a, _is_tensor) for a in args]
            kwarg_structures = {k: _structure.of_value(v, _is_tensor) for k, v in kwargs.items()}
        elif _is_exported_program(obj):
            if kwarg_inputs:
                raise TypeError("kwarg_inputs are for an nn.Module (an ExportedProgram was traced with its own)")
            torch.export.save(obj, path)
            outputs = _spec_structure(getattr(getattr(obj, "call_spec", None), "out_spec", None))
            arg_structures = kwarg_structures = None
        else:
            raise TypeError(f"atenrt.compile takes an nn.Module, a torch.export.ExportedProgram or a .pt2 path, "
                            f"got {type(obj).__name__}")
        with progress(f"compiling {name}", f"compiled {name}"):
            engine = compile_path(path, settings)
    engine._set_structure(outputs, arg_structures, kwarg_structures)
    check_inputs(engine, list(inputs or []) + list((kwarg_inputs or {}).values()))
    return engine


def check_inputs(engine, inputs):
    """Inputs given to compile() (tensors or atenrt.Input) must match what the engine takes."""
    if inputs is None:
        return
    if isinstance(inputs, (torch.Tensor, Input)):
        inputs = [inputs]
    inputs = flatten(inputs)
    if len(inputs) != len(engine.inputs):
        raise InputError(f"{len(inputs)} inputs given, the engine takes {len(engine.inputs)}: "
                         f"{', '.join(map(str, engine.inputs))}")
    for x, spec in zip(inputs, engine.inputs):
        if isinstance(x, Input):
            shape, dtype = x.shape, x.dtype
        else:
            shape, dtype = tuple(x.shape), dtype_name(x.dtype)
        if shape is not None and tuple(shape) != tuple(spec.shape):
            raise InputError(f"input '{spec.name}': given shape {list(shape)}, the engine takes {spec}")
        if dtype != spec.dtype:
            raise InputError(f"input '{spec.name}': given dtype {dtype}, the engine takes {spec} "
                             f"(atenrt never casts silently)")


def to_array(x, spec):
    """A torch tensor as the numpy array the runtime takes for `spec` (zero-copy when contiguous)."""
    if x.device.type != "cpu":
        raise InputError(f"input '{spec.name}' is on {x.device}; atenrt runs on the CPU (use .cpu())")
    x = x.detach()
    if x.dtype == torch.bfloat16:
        if spec.dtype != "bfloat16":
            raise InputError(f"input '{spec.name}': expected {spec.dtype}{list(spec.shape)}, got "
                             f"bfloat16{list(x.shape)} (atenrt never casts silently)")
        x = x.float()  # numpy has no bfloat16: the runtime takes float32 for a bfloat16 input
    if not x.is_contiguous():
        x = x.contiguous()
    return x.numpy()


def to_torch(arrays, engine):
    """Runtime outputs (numpy) as torch tensors, bfloat16 where the engine says so."""
    out = []
    for arr, spec in zip(arrays, engine.outputs):
        t = torch.from_numpy(arr)
        if spec.dtype == "bfloat16":
            t = t.to(torch.bfloat16)
        out.append(t)
    return out
