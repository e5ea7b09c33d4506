"""The torch face of atenrt: compile an nn.Module (or a torch.export ExportedProgram) and call the
engine with torch tensors, getting torch tensors back in the module's output structure.

Imported only when a torch object meets atenrt, so the numpy runtime keeps working without torch.
"""
import os
import tempfile

import torch

from .inputs import Input, dtype_name
from .runtime import InputError

__all__ = ["compile_torch", "to_arrays", "to_torch", "output_structure"]

try:
    from torch.utils import _pytree as pytree
except ImportError:  # pragma: no cover - every torch atenrt supports has it
    pytree = None


def _is_exported_program(obj):
    export = getattr(torch, "export", None)
    cls = getattr(export, "ExportedProgram", None) if export is not None else None
    return cls is not None and isinstance(obj, cls)


def _examples(inputs, what):
    if inputs is None:
        raise TypeError(f"atenrt.compile({what}) needs inputs=[...]: example tensors or atenrt.Input(...)")
    if isinstance(inputs, (torch.Tensor, Input)):
        inputs = [inputs]

    def example(x):
        if isinstance(x, Input):
            return x.example(torch)
        if isinstance(x, torch.Tensor):
            return x.detach()
        raise TypeError(f"an input is a {type(x).__name__}; give tensors or atenrt.Input(...), "
                        f"alone or in lists, tuples and dicts")

    return [pytree.tree_map(example, x) for x in inputs]


def flatten(args):
    """The tensors of `args` (tensors, or lists, tuples and dicts of them) in the order the exporter
    binds them to engine inputs."""
    return pytree.tree_flatten(list(args))[0]


def output_structure(module, examples):
    """The pytree spec of what `module` returns (a tuple, dict, list, one tensor...), or None."""
    if pytree is None:
        return None
    with torch.no_grad():
        out = module(*examples)
    leaves, spec = pytree.tree_flatten(out)
    if not all(isinstance(x, torch.Tensor) for x in leaves):
        return None  # non-tensor leaves: the engine returns its tensors flat
    return spec


def compile_torch(obj, inputs, compile_path, settings):
    """atenrt.compile for an nn.Module or an ExportedProgram: export to a temporary .pt2, compile it
    with `compile_path(path, settings)`, and remember the output structure."""
    from .export import save
    with tempfile.TemporaryDirectory(prefix="atenrt_") as folder:
        path = os.path.join(folder, "model.pt2")
        if isinstance(obj, torch.nn.Module):
            examples = _examples(inputs, type(obj).__name__)
            save(obj, examples, path)
            spec = output_structure(obj, examples)
        elif _is_exported_program(obj):
            torch.export.save(obj, path)
            spec = getattr(getattr(obj, "call_spec", None), "out_spec", None)
            examples = None
        else:
            raise TypeError(f"atenrt.compile takes an nn.Module, a torch.export.ExportedProgram or a .pt2 path, "
                            f"got {type(obj).__name__}")
        engine = compile_path(path, settings)
    if spec is not None and spec.num_leaves != len(engine.outputs):
        spec = None  # the export flattened differently: keep the engine's flat outputs
    engine._output_spec = spec
    check_inputs(engine, inputs)
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


def structure(values, spec):
    """`values` in the module's output structure, or flat (one value alone, several as a tuple)."""
    if spec is not None and pytree is not None:
        return pytree.tree_unflatten(list(values), spec)
    return values[0] if len(values) == 1 else tuple(values)
