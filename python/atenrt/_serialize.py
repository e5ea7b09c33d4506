"""Serialize a traced graph (see _trace.py) in the torch.export JSON schema, major version 8.

Mirrors torch/_export/serde/serialize.py: dataclass fields in declaration order, Argument unions
as single-key objects, arguments left at their schema default omitted (pt2_format.md §3).
"""
import inspect
import operator

import torch
import torch.utils._pytree as pytree

from . import _schema
from ._dynamic import SYM_OPERATORS, sym_expr
from ._schema import ArgType, declared_types, encode, tensor_meta
from .errors import ExportError

TORCH_VERSION = "1.13.1"
OPSET_VERSION = {"aten": 10}


def target_name(target):
    """`torch.ops.aten.convolution.default`, `_operator.getitem`, ... as torch's serialize_operator."""
    if isinstance(target, torch._ops.OpOverload):
        return target.__module__.replace("torch._ops", "torch.ops") + "." + target.__name__
    module = getattr(target, "__module__", None) or "builtins"
    return f"{module}.{target.__name__}"


def full_arguments(node):
    """Every schema argument of an ATen node as (schema arg, ArgType, encoded value, encoded default or None)."""
    op = node.target
    types = declared_types(op)
    result = []
    for i, (arg, t) in enumerate(zip(op._schema.arguments, types)):
        where = f"node '{node.name}' ({target_name(op)}) argument '{arg.name}'"
        if arg.name in node.kwargs:
            value = node.kwargs[arg.name]
        elif not arg.kwarg_only and i < len(node.args):
            value = node.args[i]
        elif arg.has_default_value():
            value = arg.default_value
        else:
            raise ExportError(f"{where}: missing and has no default")
        default = encode(arg.default_value, t, where + " (default)") if arg.has_default_value() else None
        result.append((arg, t, encode(value, t, where), default))
    return result


def serialize_inputs(node):
    """NamedArguments as torch writes them: the dispatcher drops trailing positional arguments and
    keyword-only arguments equal to their default, and the serializer writes only what is left."""
    args = full_arguments(node)
    positional = [a for a in args if not a[0].kwarg_only]
    last = -1
    for i, (_, _, value, default) in enumerate(positional):
        if default is None or value != default:
            last = i
    out = [{"name": a.name, "arg": value, "kind": 1} for a, _, value, _ in positional[:last + 1]]
    out += [{"name": a.name, "arg": value, "kind": 2}
            for a, _, value, default in args if a.kwarg_only and (default is None or value != default)]
    return out


class ProgramSerializer:
    def __init__(self, traced, schema_version):
        self.traced = traced
        self.schema_version = schema_version
        self.tensor_values = {}
        self.sym_int_values = {}
        self.symbolic = getattr(traced, "symbolic", None)  # _dynamic.Symbolic of a dynamic-shape trace
        self.folded = {}     # getitem node -> True when folded into its producer's outputs

    def _record(self, name, value, where):
        self.tensor_values[name] = tensor_meta(value, where)

    def _outputs(self, node):
        op = node.target
        returns = op._schema.returns
        where = f"node '{node.name}' ({target_name(op)})"
        if len(returns) == 0:
            return []
        elems = self.traced.multi_outputs.get(node)
        rtypes = [ArgType(str(r.type).replace("List[Tensor]", "Tensor[]")) for r in returns]
        if len(returns) == 1 and rtypes[0].base == "Tensor" and not rtypes[0].is_list:
            self._record(node.name, node.meta.get("val"), where)
            return [{"as_tensor": {"name": node.name}}]
        if any(t.base != "Tensor" for t in rtypes) or (len(returns) > 1 and any(t.is_list for t in rtypes)):
            raise ExportError(f"{where}: returns {op._schema.returns}; only Tensor, Tensor[] and tuples of "
                              "Tensor results are representable in a static-shape graph")
        names = []
        for i, (name, val) in enumerate(elems or []):
            if name is None:
                name = f"{node.name}_unused_{i}"
            if val is not None:
                self._record(name, val, f"{where} output {i}")
            names.append(name)
        if len(returns) == 1:
            return [{"as_tensors": [{"name": n} for n in names]}]
        if len(names) != len(returns):
            raise ExportError(f"{where}: {len(names)} traced results for {len(returns)} schema returns")
        return [{"as_tensor": {"name": n}} for n in names]

    def _python_call(self, node):
        """Python callables left in the graph (operator.getitem on a non-ATen value, ...)."""
        try:
            names = list(inspect.signature(node.target).parameters)
        except (TypeError, ValueError):
            names = []
        where = f"node '{node.name}' ({target_name(node.target)})"
        inputs = [{"name": names[i] if i < len(names) else "", "arg": encode(a, None, where), "kind": 1}
                  for i, a in enumerate(node.args)]
        val = node.meta.get("val")
        if not isinstance(val, torch.Tensor):
            raise ExportError(f"{where}: produces a {type(val).__name__}; only tensor results are supported")
        self._record(node.name, val, where)
        return {"target": target_name(node.target), "inputs": inputs,
                "outputs": [{"as_tensor": {"name": node.name}}], "metadata": {},
                "is_hop_single_tensor_return": None, "name": node.name}

    def _sym_node(self, node):
        """A size computation that stays symbolic: aten.sym_size (1.13's packet, written as the
        .int overload torch.export writes) or Python arithmetic on sizes (_operator.mul, ...)."""
        where = f"node '{node.name}'"
        if node.target is torch.ops.aten.sym_size:
            target = "torch.ops.aten.sym_size.int"
            inputs = [{"name": "self", "arg": encode(node.args[0], None, where), "kind": 1},
                      {"name": "dim", "arg": {"as_int": int(node.args[1])}, "kind": 1}]
        elif node.target in SYM_OPERATORS:
            target = SYM_OPERATORS[node.target]
            inputs = [{"name": "", "arg": encode(a, None, where), "kind": 1} for a in node.args]
        else:
            raise ExportError(f"{where} ({target_name(node.target)}) computes a size atenrt's exporter cannot "
                              "write")
        self.sym_int_values[node.name] = _schema.SYMBOLIC.size(node.meta["val"])
        return {"target": target, "inputs": inputs, "outputs": [{"as_sym_int": {"as_name": node.name}}],
                "metadata": {}, "is_hop_single_tensor_return": None, "name": node.name}

    def _node(self, node):
        if self.symbolic is not None and sym_expr(node.meta.get("val")) is not None:
            return self._sym_node(node)
        if not isinstance(node.target, torch._ops.OpOverload):
            return self._python_call(node)
        return {"target": target_name(node.target), "inputs": serialize_inputs(node),
                "outputs": self._outputs(node), "metadata": {},
                "is_hop_single_tensor_return": None, "name": node.name}

    def is_folded(self, node):
        return (node.op == "call_function" and node.target is operator.getitem
                and node.args[0] in self.traced.multi_outputs)

    def serialize(self):
        _schema.SYMBOLIC = self.symbolic
        try:
            return self._serialize()
        finally:
            _schema.SYMBOLIC = None

    def _serialize(self):
        gm = self.traced.graph_module
        nodes, inputs, outputs = [], [], []
        placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
        for node, slot in zip(placeholders, self.traced.slots):
            inputs.append({"as_tensor": {"name": node.name}})
            value = slot.tensor if slot.tensor is not None else node.meta.get("val")
            self._record(node.name, value, f"input '{node.name}'")
        for node in gm.graph.nodes:
            if node.op == "call_function":
                if not self.is_folded(node):
                    nodes.append(self._node(node))
            elif node.op == "output":
                leaves, _ = pytree.tree_flatten(node.args[0])
                for i, leaf in enumerate(leaves):
                    if leaf is None:
                        outputs.append({"as_none": True})
                    elif isinstance(leaf, torch.fx.Node):
                        outputs.append({"as_tensor": {"name": leaf.name}})
                    else:
                        raise ExportError(f"output {i} is a constant {type(leaf).__name__} ({leaf!r}); "
                                          "only tensor outputs are supported")
            elif node.op != "placeholder":
                raise ExportError(f"unexpected FX node '{node.name}' (op {node.op}) after tracing")
        graph = {
            "inputs": inputs, "outputs": outputs, "nodes": nodes, "tensor_values": self.tensor_values,
            "sym_int_values": self.sym_int_values, "sym_bool_values": {}, "is_single_tensor_return": False,
            "custom_obj_values": {}, "sym_float_values": {},
        }
        signature = {"input_specs": [_input_spec(s) for s in self.traced.slots],
                     "output_specs": [{"user_output": {"arg": o}} for o in outputs]}
        return {
            "graph_module": {"graph": graph, "signature": signature,
                             "module_call_graph": [{"fqn": "", "signature": None}],
                             "metadata": {}, "treespec_namedtuple_fields": {}},
            "opset_version": dict(OPSET_VERSION),
            "range_constraints": self.symbolic.range_constraints() if self.symbolic is not None else {},
            "schema_version": {"major": self.schema_version[0], "minor": self.schema_version[1]},
            "verifiers": [],
            "torch_version": TORCH_VERSION,
            "guards_code": [],
        }


def _input_spec(slot):
    arg = {"name": slot.name}
    if slot.kind == "parameter":
        return {"parameter": {"arg": arg, "parameter_name": slot.target}}
    if slot.kind == "buffer":
        return {"buffer": {"arg": arg, "buffer_name": slot.target, "persistent": slot.persistent}}
    if slot.kind == "tensor_constant":
        return {"tensor_constant": {"arg": arg, "tensor_constant_name": slot.target}}
    return {"user_input": {"arg": {"as_tensor": arg}}}


def serialize_program(traced, schema_version):
    return ProgramSerializer(traced, schema_version).serialize()
