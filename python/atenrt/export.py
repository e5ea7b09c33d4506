"""Export a torch.nn.Module to a torch.export `.pt2` archive that atenrt can compile.

With torch >= 2.1 this is torch.export itself. With torch 1.13 (no torch.export) the module is
traced with make_fx in fake mode and written in the same JSON schema and containers, so that the
C++ reader meets real torch bytes in every layout (see shared/reference/pt2_format.md).
"""
import os

import torch

from . import _archive, _schema_versions, _serialize, _trace
from ._archive import LAYOUTS, SCHEMA_VERSIONS
from .errors import ExportError

__all__ = ["save", "export", "Exported", "ExportError", "LAYOUTS"]


def _has_torch_export():
    return hasattr(torch, "export") and hasattr(torch.export, "export")


class Exported:
    """Result of `export` on torch 1.13: the traced FX graph, the JSON program and the state."""

    def __init__(self, traced, program, example_inputs, example_kwargs=None):
        self.traced = traced
        self.graph_module = traced.graph_module
        self.program = program                 # dict in the torch.export JSON schema
        self.example_inputs = tuple(example_inputs)
        self.example_kwargs = dict(example_kwargs or {})
        self.weights = [(s.target, s.tensor, s.kind == "parameter") for s in traced.slots
                        if s.kind == "parameter" or (s.kind == "buffer" and s.persistent)]
        self.constants = [(s.target, s.tensor, False) for s in traced.slots
                          if s.kind == "tensor_constant" or (s.kind == "buffer" and not s.persistent)]

    def write(self, path, layout="pt2", schema_version=None):
        """Write this program to `path` in `layout` and `schema_version` (default: the one that
        layout's torch release wrote; see `save`)."""
        if layout not in LAYOUTS:
            raise ValueError(f"unknown layout {layout!r}; expected one of {', '.join(LAYOUTS)}")
        version = _schema_versions.normalize(schema_version or SCHEMA_VERSIONS[layout])
        _archive.check_schema(layout, version)
        program = _schema_versions.rewrite(self.program, version)
        _archive.write(path, layout, program, self.weights, self.constants, self.example_inputs, version,
                       self.example_kwargs)

    def call_nodes(self):
        """(FX node, serialized node) for every node written to the graph, in order."""
        ser = _serialize.ProgramSerializer(self.traced, (8, 0))
        fx = [n for n in self.graph_module.graph.nodes if n.op == "call_function" and not ser.is_folded(n)]
        nodes = self.program["graph_module"]["graph"]["nodes"]
        return list(zip(fx, nodes))


def export(module, example_inputs, schema_version=SCHEMA_VERSIONS["pt2"], dynamic_shapes=None,
           example_kwargs=None):
    """Trace `module` on `example_inputs` (and the keyword arguments `example_kwargs`, bound by
    name after the positional ones; their graph inputs are named after them).

    torch >= 2.1: returns `torch.export.export(module, inputs).run_decompositions()`.
    torch 1.13:   returns an `Exported` (graph_module, program dict, weights, constants).
    Raises ExportError when the module cannot be represented.
    """
    example_inputs = tuple(example_inputs)
    if _has_torch_export():
        return torch.export.export(module, example_inputs, kwargs=example_kwargs,
                                   dynamic_shapes=dynamic_shapes).run_decompositions()
    traced = _trace.trace(module, example_inputs, dynamic_shapes, example_kwargs)
    program = _serialize.serialize_program(traced, schema_version)
    return Exported(traced, program, example_inputs, example_kwargs)


def save(module, example_inputs, path, layout="pt2", schema_version=None, dynamic_shapes=None, example_kwargs=None):
    """Write `module` traced on `example_inputs` to the `.pt2` file `path`.

    layout (torch 1.13 only; newer torch writes its own container):
      "pt2"        torch >= 2.9 PT2 archive with raw weight payloads (default)
      "pt2-pickle" torch 2.8 PT2 archive with nested torch.save weights
      "legacy"     torch 2.1-2.7 flat zip
    schema_version (torch 1.13 only): the JSON schema, default the layout's own (8.14, 8.8, 8.7).
      The legacy layout also takes the older schemas, synthesized from their published
      definitions: 1 (torch 2.1), 2 (torch 2.2), (4, x) (nightlies), (5, x) (torch 2.3-2.4),
      and (8, x) with x < 3 (torch 2.6's `as_none: []`).
    dynamic_shapes: {input name or position: {dim: atenrt.Dim(name, min=, max=)}} (the structure
      torch.export takes); those dims stay symbolic (torch 1.13: make_fx's experimental symbolic
      tracing; use example sizes >= 2 that no other dim has), every other dim is specialized.
    example_kwargs: {name: tensor (or lists, tuples, dicts of them)} for forward()'s keyword
      arguments; they follow the positional inputs, named after their argument.
    """
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; expected one of {', '.join(LAYOUTS)}")
    from ._progress import progress
    name = type(module).__name__
    with progress(f"exporting {name}", f"exported {name}"):
        return _save(module, example_inputs, path, layout, schema_version, dynamic_shapes, example_kwargs)


def _save(module, example_inputs, path, layout, schema_version, dynamic_shapes, example_kwargs):
    if _has_torch_export():
        if schema_version is not None:
            raise ValueError("schema_version is only for the torch 1.13 exporter; "
                             "torch.export.save writes its own")
        torch.export.save(export(module, example_inputs, dynamic_shapes=dynamic_shapes,
                                 example_kwargs=example_kwargs), os.fspath(path))
        return
    exported = export(module, example_inputs, dynamic_shapes=dynamic_shapes, example_kwargs=example_kwargs)
    exported.write(path, layout, schema_version)
    return exported
