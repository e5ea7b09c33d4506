"""Capture an nn.Module as an ATen-level FX graph with torch 1.13 (no torch.export).

The result mimics what `torch.export.export(...).run_decompositions()` gives on torch 2.x:
one placeholder per parameter, buffer, lifted tensor constant and user input (in that order),
named p_<fqn> / b_<fqn> / c_<name> / <forward arg name>, no in-place ops, no detach.
"""
import contextlib
import inspect
import operator
import re
import sys

import torch
from torch.fx.experimental.proxy_tensor import make_fx
from torch.nn.utils.stateless import functional_call

from . import _dynamic, _symbolic_ops
from .errors import ExportError

aten = torch.ops.aten


class InputSlot:
    """One graph input: what it binds to (kind, target fqn) and, for lifted state, the real tensor."""

    def __init__(self, kind, name, target=None, tensor=None, persistent=True):
        self.kind = kind            # "parameter" | "buffer" | "tensor_constant" | "user_input"
        self.name = name            # placeholder name in the exported graph
        self.target = target        # fqn (parameter_name / buffer_name / tensor_constant_name)
        self.tensor = tensor        # real tensor for lifted state, None for user inputs
        self.persistent = persistent


class Traced:
    """An exported graph plus the binding of its placeholders."""

    def __init__(self, gm, slots, multi_outputs):
        self.symbolic = None  # _dynamic.Symbolic when traced with dynamic shapes
        self.graph_module = gm
        self.slots = slots                  # list[InputSlot], same order as the placeholders
        self.multi_outputs = multi_outputs  # node -> list of (name, fake value) per element


def _data_dependent_hint(e):
    """What to do when torch 1.13 cannot trace a size or value that depends on the data."""
    if type(e).__name__ == "DynamicOutputShapeException" or "value out of a tracing tensor" in str(e):
        return ("; torch 1.13 cannot trace an op whose output size depends on the data (nonzero, unique, "
                "masked_select, x[mask], ...) or item() on a traced value; atenrt runs them from archives "
                "that torch >= 2.1 exports (docs/dynamic-shapes.md)")
    return ""


def _mutable(op):
    return any(a.alias_info is not None and a.alias_info.is_write for a in op._schema.arguments)


def _collect_state(module):
    """Parameters, buffers and plain tensor attributes, each storage-object once, with every alias fqn."""
    params, buffers, consts = {}, {}, {}
    non_persistent = set()
    modules = list(module.named_modules(remove_duplicate=False))
    for mfqn, mod in modules:
        prefix = mfqn + "." if mfqn else ""
        for name, p in mod._parameters.items():
            if p is not None:
                params.setdefault(id(p), [p, []])[1].append(prefix + name)
    for mfqn, mod in modules:
        prefix = mfqn + "." if mfqn else ""
        non_persistent.update(prefix + n for n in getattr(mod, "_non_persistent_buffers_set", ()))
        for name, b in mod._buffers.items():
            if b is None:
                continue
            if id(b) in params:
                raise ExportError(f"buffer '{prefix + name}' is the same tensor object as a parameter; "
                                  "not representable")
            buffers.setdefault(id(b), [b, []])[1].append(prefix + name)
    for mfqn, mod in modules:
        prefix = mfqn + "." if mfqn else ""
        for attr, value in vars(mod).items():
            if isinstance(value, torch.Tensor) and id(value) not in params and id(value) not in buffers:
                consts.setdefault(id(value), [value, []])[1].append(prefix + attr)
    return list(params.values()), list(buffers.values()), list(consts.values()), non_persistent


def _user_input_names(module, count):
    """Placeholder names for user inputs, taken from forward()'s signature where possible."""
    names = []
    try:
        params = list(inspect.signature(module.forward).parameters.values())
    except (TypeError, ValueError):
        params = []
    for p in params:
        if len(names) == count:
            break
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            names.append(p.name)
        elif p.kind == p.VAR_POSITIONAL:
            names.extend(f"{p.name}_{i}" for i in range(count - len(names)))
    names.extend(f"arg{i}" for i in range(len(names), count))
    return names


def _identifier(text):
    return re.sub(r"[^0-9a-zA-Z_]", "_", text)


_FAST_PATH_MODULES = ("torch.nn.modules.activation", "torch.nn.modules.transformer")


@contextlib.contextmanager
def _no_fused_fast_paths():
    """nn.MultiheadAttention / nn.TransformerEncoderLayer take fused kernels in eval + no_grad
    (aten._native_multi_head_attention, _transformer_encoder_layer_fwd). torch.export, which traces
    with grad enabled, records the composite ops instead. These modules test
    torch.overrides.has_torch_function at call time; answering True makes them pick the slow path."""
    original = torch.overrides.has_torch_function

    def patched(*args, **kwargs):
        caller = sys._getframe(1).f_globals.get("__name__", "")
        return caller in _FAST_PATH_MODULES or original(*args, **kwargs)

    torch.overrides.has_torch_function = patched
    try:
        yield
    finally:
        torch.overrides.has_torch_function = original


def _rewire(graph, node, replacement):
    node.replace_all_uses_with(replacement)
    graph.erase_node(node)


def _clean(gm):
    """Drop detach/lift_fresh_copy (identities once nothing is mutated), map 1.13's
    _reshape_alias and _unsafe_view onto view (as torch 2.x's core-ATen decompositions do; both
    only ever see inputs that view can reshape) and remove dead code."""
    g = gm.graph
    for node in list(g.nodes):
        if node.op != "call_function":
            continue
        if node.target in (aten.detach.default, aten.lift_fresh_copy.default, aten.lift_fresh.default):
            _rewire(g, node, node.args[0])
        elif node.target in (aten._reshape_alias.default, aten._unsafe_view.default):
            with g.inserting_before(node):
                view = g.call_function(aten.view.default, (node.args[0], list(node.args[1])))
            view.meta = dict(node.meta)
            _rewire(g, node, view)
    _eliminate_dead_code(gm)


def _eliminate_dead_code(gm):
    """FX's eliminate_dead_code in 1.13 does not know that in-place ATen ops have effects and drops
    e.g. `mask[a:b] = 1` (a fill_ whose result nobody reads). Keep every mutating op."""
    for node in reversed(list(gm.graph.nodes)):
        if node.op in ("call_function", "get_attr") and not node.users:
            if not (isinstance(node.target, torch._ops.OpOverload) and _mutable(node.target)):
                gm.graph.erase_node(node)
    gm.recompile()


def _trace_fake(fn, inputs, module=None, mode="fake", specialized=None):
    """specialized: a list that takes the sizes a symbolic trace used as constants (split counts)."""
    gaps = _symbolic_ops.symbolic_tracing_gaps() if mode == "symbolic" else contextlib.nullcontext([])
    with torch.no_grad(), _no_fused_fast_paths(), _rnn_weights_follow_state(module), gaps as used:
        gm = make_fx(fn, tracing_mode=mode)(*inputs)
    if specialized is not None:
        specialized.extend(used)
    return gm


@contextlib.contextmanager
def _rnn_weights_follow_state(module):
    """nn.LSTM/GRU/RNN keep their weights in a `_flat_weights` list that functional_call does not
    swap, so tracing would meet the real parameters in fake mode ("Invoking operators with
    non-Fake Tensor inputs"). Refresh the list from the module's (swapped) attributes before each
    forward, and restore it afterwards."""
    rnns = [m for m in (module.modules() if module is not None else ())
            if isinstance(m, torch.nn.RNNBase) and hasattr(m, "_flat_weights_names")]
    saved = [(m, m._flat_weights) for m in rnns]

    def refresh(m, _inputs):
        m._flat_weights = [getattr(m, n) if hasattr(m, n) else None for n in m._flat_weights_names]

    handles = [m.register_forward_pre_hook(refresh) for m in rnns]
    try:
        yield
    finally:
        for h in handles:
            h.remove()
        for m, weights in saved:
            m._flat_weights = weights


def _flatten_inputs(module, example_inputs, example_kwargs):
    """The tensors of `example_inputs` and then of `example_kwargs` (tensors, or lists, tuples and
    dicts of them, as torch.export takes) in pytree order, their placeholder names (an argument's
    name, then the path inside it: images_0, batch_boxes), and the structure to rebuild the
    arguments (a list of the positional ones and a dict of the keyword ones) from the tensors."""
    arg_names = _user_input_names(module, len(example_inputs))
    clash = [k for k in example_kwargs if k in arg_names]
    if clash:
        raise ExportError(f"example kwarg {clash[0]!r} is also given by position")
    leaves, names = [], []

    def walk(value, name, where):
        if isinstance(value, torch.Tensor):
            if value.layout != torch.strided:
                raise ExportError(f"{where} has layout {value.layout}; only strided tensors are supported")
            leaves.append(value)
            names.append(name)
        elif isinstance(value, (list, tuple)) and type(value) in (list, tuple):
            for i, item in enumerate(value):
                walk(item, f"{name}_{i}", f"{where}[{i}]")
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(item, f"{name}_{_identifier(str(key))}", f"{where}[{key!r}]")
        else:
            raise ExportError(f"{where} is a {type(value).__name__}; inputs must be tensors, or lists, "
                              f"tuples and dicts of tensors")

    for i, (x, name) in enumerate(zip(example_inputs, arg_names)):
        walk(x, name, f"example input {i}")
    for key, x in example_kwargs.items():
        if not isinstance(key, str) or not key.isidentifier():
            raise ExportError(f"example kwarg {key!r} is not an argument name")
        walk(x, key, f"example kwarg {key!r}")
    from torch.utils import _pytree as pytree
    flat, spec = pytree.tree_flatten([list(example_inputs), dict(example_kwargs)])
    if len(flat) != len(leaves) or any(a is not b for a, b in zip(flat, leaves)):
        raise ExportError("the example inputs flatten in an order atenrt does not follow "
                          "(a container type torch's pytree treats specially?)")
    return leaves, names, spec


def trace(module, example_inputs, dynamic_shapes=None, example_kwargs=None):
    """dynamic_shapes: {input name or position: {dim: atenrt.Dim}} (or a list by position); traces
    symbolically (make_fx tracing_mode="symbolic") and keeps only those dims symbolic.
    example_kwargs: keyword arguments of forward(), bound after the positional ones, by name."""
    if not isinstance(module, torch.nn.Module):
        raise ExportError(f"expected a torch.nn.Module, got {type(module).__name__}")
    example_inputs = tuple(example_inputs)
    if example_kwargs is not None and not isinstance(example_kwargs, dict):
        raise ExportError(f"example kwargs must be a dict by argument name, got {type(example_kwargs).__name__}")
    user_leaves, user_names, in_spec = _flatten_inputs(module, example_inputs, dict(example_kwargs or {}))
    spec = _dynamic.normalize_spec(dynamic_shapes, user_names, user_leaves)
    mode = "symbolic" if spec else "fake"
    from torch.utils import _pytree as pytree

    params, buffers, consts, non_persistent = _collect_state(module)
    n_state = len(params) + len(buffers)

    def fn(*flat):
        state = {}
        for (_, fqns), value in zip(params + buffers, flat[:n_state]):
            for fqn in fqns:
                state[fqn] = value
        saved = []
        try:
            for (_, fqns), value in zip(consts, flat[n_state:n_state + len(consts)]):
                for fqn in fqns:
                    owner_fqn, _, attr = fqn.rpartition(".")
                    owner = module.get_submodule(owner_fqn)
                    saved.append((owner, attr, getattr(owner, attr)))
                    setattr(owner, attr, value)
            args, kwargs = pytree.tree_unflatten(list(flat[n_state + len(consts):]), in_spec)
            return functional_call(module, state, tuple(args), kwargs)
        finally:
            for owner, attr, old in reversed(saved):
                setattr(owner, attr, old)

    real_inputs = [t for t, _ in params + buffers + consts] + list(user_leaves)
    was_training = module.training
    module.eval()
    specialized = []
    try:
        try:
            gm = _trace_fake(fn, real_inputs, module, mode, specialized)
        except ExportError:
            raise
        except Exception as e:  # make_fx surfaces data-dependent control flow, unsupported ops, ...
            if mode == "symbolic":
                raise ExportError(f"tracing {type(module).__name__} with dynamic shapes failed in torch 1.13's "
                                  f"experimental symbolic tracing ({type(e).__name__}: {e}); export it with "
                                  f"static shapes, or with torch >= 2.1{_data_dependent_hint(e)}") from e
            raise ExportError(f"tracing {type(module).__name__} failed: {type(e).__name__}: {e}"
                              f"{_data_dependent_hint(e)}") from e
        multi_outputs = _multi_output_elements(gm)
        _eliminate_dead_code(gm)
        if any(n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload) and _mutable(n.target)
               for n in gm.graph.nodes):
            _check_no_input_mutation(gm, [f[0] for _, f in params + buffers + consts] + user_names)
            from functorch import functionalize
            try:
                gm = _trace_fake(functionalize(gm, remove="mutations"), real_inputs, mode=mode,
                                 specialized=specialized)
            except Exception as e:
                raise ExportError(f"removing in-place ops from {type(module).__name__} failed: "
                                  f"{type(e).__name__}: {e}") from e
            multi_outputs = _multi_output_elements(gm)
    finally:
        module.train(was_training)

    _clean(gm)
    _check_no_mutation(gm)

    slots = [InputSlot("parameter", "p_" + _identifier(f[0]), f[0], t) for t, f in params]
    slots += [InputSlot("buffer", "b_" + _identifier(f[0]), f[0], t, f[0] not in non_persistent)
              for t, f in buffers]
    slots += [InputSlot("tensor_constant", "c_" + _identifier(f[0]), f[0], t) for t, f in consts]
    slots += [InputSlot("user_input", n) for n in user_names]
    _drop_unused_constants(gm, slots)
    _lift_constants(gm, slots)
    _rename(gm, slots)
    # the tuple outputs' element names were taken before renaming; refresh them from their getitems
    live = set(gm.graph.nodes)
    multi_outputs = {node: [(gi.name if gi in live else None, val) for gi, val in elems]
                     for node, elems in multi_outputs.items() if node in live}
    traced = Traced(gm, slots, multi_outputs)
    if spec:
        placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
        users = placeholders[len(placeholders) - len(user_names):]
        state = [p for p, slot in zip(placeholders, slots) if slot.kind != "user_input"]
        traced.symbolic = _dynamic.Symbolic(gm, users, spec, user_names, state)
        traced.symbolic.refuse_specialized(specialized)
        _dynamic.fold_static_sizes(gm, traced.symbolic)
    return traced


def _multi_output_elements(gm):
    """make_fx creates one getitem per element of a tuple/list result; record them (value and node)
    before dead-code elimination removes the unused ones, so that unused elements keep a type."""
    result = {}
    for node in gm.graph.nodes:
        if node.op == "call_function" and node.target is operator.getitem:
            src, index = node.args
            if isinstance(src, torch.fx.Node) and isinstance(src.target, torch._ops.OpOverload):
                elems = result.setdefault(src, {})
                elems[index] = (node, node.meta.get("val"))
    ordered = {}
    for src, elems in result.items():
        count = max(elems) + 1
        ordered[src] = [elems.get(i, (None, None)) for i in range(count)]
    return ordered


def _written_arguments(node):
    op = node.target
    for i, a in enumerate(op._schema.arguments):
        if a.alias_info is not None and a.alias_info.is_write:
            value = node.kwargs.get(a.name, node.args[i] if i < len(node.args) else None)
            if isinstance(value, torch.fx.Node):
                yield value


def _view_base(node):
    """Follow view ops (results that alias an input, `Tensor(a)`) back to the tensor they view."""
    while (node.op == "call_function" and isinstance(node.target, torch._ops.OpOverload)
           and node.target._schema.returns and node.target._schema.returns[0].alias_info is not None
           and node.args and isinstance(node.args[0], torch.fx.Node)):
        node = node.args[0]
    return node


def _check_no_input_mutation(gm, input_names):
    """Functionalization would silently drop writes to graph inputs (user inputs, parameters,
    buffers); torch.export would record them as mutation outputs, which atenrt does not support."""
    placeholders = {n: i for i, n in enumerate(n for n in gm.graph.nodes if n.op == "placeholder")}
    for n in gm.graph.nodes:
        if n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload) and _mutable(n.target):
            for written in _written_arguments(n):
                base = _view_base(written)
                if base in placeholders:
                    raise ExportError(f"{n.target} mutates '{input_names[placeholders[base]]}' in place (a "
                                      "user input, parameter or buffer; e.g. batch-norm statistics in training "
                                      "mode); state mutation is not representable in the exported graph")


def _check_no_mutation(gm):
    for n in gm.graph.nodes:
        if n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload) and _mutable(n.target):
            raise ExportError(f"node '{n.name}' ({n.target}) mutates its input in place and could not be "
                              "functionalized; mutated state is not representable in the exported graph")


def _drop_unused_constants(gm, slots):
    """Tensor attributes that forward() never reads are not part of the program (torch.export lifts
    only the constants it meets while tracing); parameters and buffers always stay."""
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    for node, slot in reversed(list(zip(placeholders, slots))):
        if slot.kind == "tensor_constant" and not node.users:
            gm.graph.erase_node(node)
            slots.remove(slot)
    gm.recompile()


def _lift_constants(gm, slots):
    """Turn get_attr tensors (torch.tensor(...) created inside forward) into tensor_constant placeholders,
    placed after the other lifted state and before the user inputs."""
    g = gm.graph
    placeholders = [n for n in g.nodes if n.op == "placeholder"]
    first_user = placeholders[sum(1 for s in slots if s.kind != "user_input")]
    index = 0
    lifted = []
    for node in list(g.nodes):
        if node.op != "get_attr":
            continue
        value = getattr(gm, node.target)
        if not isinstance(value, torch.Tensor):
            raise ExportError(f"get_attr '{node.target}' holds a {type(value).__name__}, not a tensor")
        name = f"lifted_tensor_{index}"
        index += 1
        with g.inserting_before(first_user):
            ph = g.placeholder(name)
        ph.meta["val"] = value
        node.replace_all_uses_with(ph)
        g.erase_node(node)
        delattr(gm, node.target)
        lifted.append(InputSlot("tensor_constant", "c_" + name, name, value))
    n_before_users = sum(1 for s in slots if s.kind != "user_input")
    slots[n_before_users:n_before_users] = lifted
    gm.recompile()


def _rename(gm, slots):
    """Give placeholders their export names, then make every other node name unique against them."""
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    if len(placeholders) != len(slots):
        raise ExportError(f"internal: {len(placeholders)} placeholders for {len(slots)} inputs")
    taken = set()
    for node, slot in zip(placeholders, slots):
        name = slot.name
        suffix = 1
        while name in taken:
            name = f"{slot.name}_{suffix}"
            suffix += 1
        slot.name = name
        node.name = name
        node.target = name
        taken.add(name)
    for node in gm.graph.nodes:
        if node.op == "placeholder" or node.op == "output":
            continue
        name, suffix = node.name, 1
        while name in taken:
            name = f"{node.name}_{suffix}"
            suffix += 1
        node.name = name
        taken.add(name)
    gm.recompile()
