#!/usr/bin/python3
"""Generates the reader's test corpus (run with /usr/bin/python3, which has torch 1.13).

valid/  small well-formed archives in every layout (PT2 raw weights, PT2 pickled
        weights, legacy flat zip), all holding the same program, so the unit tests can
        check the IR and the weight bytes exactly.
bad/    hostile or corrupt archives; expected.tsv lists, for each, the error class and
        a substring the message must contain.

The files are committed; rerun this script only when the corpus changes:
  /usr/bin/python3 tests/corpus/make_corpus.py
"""
import collections
import copy
import io
import json
import os
import shutil
import struct
import sys
import zipfile

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
VALID = os.path.join(HERE, "valid")
BAD = os.path.join(HERE, "bad")

F32, I64, F16, C64 = 7, 5, 6, 10


def sym(n):
    return {"as_int": n}


def meta(dtype, sizes, strides=None, offset=0, requires_grad=False):
    if strides is None:
        strides, acc = [], 1
        for s in reversed(sizes):
            strides.insert(0, acc)
            acc *= max(s, 1)
    return {"dtype": dtype, "sizes": [sym(s) for s in sizes], "requires_grad": requires_grad,
            "device": {"type": "cpu", "index": None}, "strides": [sym(s) for s in strides],
            "storage_offset": sym(offset), "layout": 7}


def T(name):
    return {"as_tensor": {"name": name}}


def arg(name, a, kind=1):
    return {"name": name, "arg": a, "kind": kind}


def node(name, target, inputs, outputs=None):
    return {"target": "torch.ops." + target, "inputs": inputs,
            "outputs": outputs if outputs is not None else [T(name)],
            "metadata": {"stack_trace": "model.py:1"}, "is_hop_single_tensor_return": None,
            "name": name}


def program(neg_inf):
    """The test program. neg_inf is how -inf is written ("-Infinity" string or a float)."""
    nodes = [
        node("linear", "aten.linear.default",
             [arg("input", T("x")), arg("weight", T("p_fc_weight")), arg("bias", T("p_fc_bias"))]),
        node("add", "aten.add.Tensor", [arg("self", T("linear")), arg("other", T("b_scale"))]),
        node("clamp", "aten.clamp.default",
             [arg("self", T("add")), arg("min", {"as_float": neg_inf}), arg("max", {"as_float": 6.0})]),
        node("view", "aten.view.default",
             [arg("self", T("clamp")), arg("size", {"as_sym_ints": [{"as_int": 3}, {"as_int": 2}]})]),
        node("sum_1", "aten.sum.dim_IntList",
             [arg("self", T("view")), arg("dim", {"as_ints": [0]}), arg("dtype", {"as_none": []}, 2)]),
        node("_to_copy", "aten._to_copy.default",
             [arg("self", T("sum_1")), arg("dtype", {"as_scalar_type": F32}, 2),
              arg("layout", {"as_layout": 7}, 2), arg("device", {"as_device": {"type": "cpu", "index": None}}, 2),
              arg("memory_format", {"as_memory_format": 1}, 2)]),
        node("add_1", "aten.add.Tensor",
             [arg("self", T("_to_copy")), arg("other", T("c_const0")), arg("alpha", {"as_int": 2}, 2)]),
        node("index", "aten.index.Tensor",
             [arg("self", T("linear")),
              arg("indices", {"as_optional_tensors": [{"as_none": True}, {"as_tensor": {"name": "b_idx"}}]})]),
    ]
    tv = {
        "p_fc_weight": meta(F32, [3, 4], requires_grad=True), "p_fc_bias": meta(F32, [3], requires_grad=True),
        "b_scale": meta(F32, [3]), "b_idx": meta(I64, [2]), "c_const0": meta(F32, [2]),
        "c_zeros": meta(F32, [2, 2]), "x": meta(F32, [2, 4]),
        "linear": meta(F32, [2, 3]), "add": meta(F32, [2, 3]), "clamp": meta(F32, [2, 3]),
        "view": meta(F32, [3, 2]), "sum_1": meta(F32, [2]), "_to_copy": meta(F32, [2]),
        "add_1": meta(F32, [2]), "index": meta(F32, [2, 2]),
    }
    inputs = ["p_fc_weight", "p_fc_bias", "b_scale", "b_idx", "c_const0", "c_zeros", "x"]
    specs = [
        {"parameter": {"arg": {"name": "p_fc_weight"}, "parameter_name": "fc.weight"}},
        {"parameter": {"arg": {"name": "p_fc_bias"}, "parameter_name": "fc.bias"}},
        {"buffer": {"arg": {"name": "b_scale"}, "buffer_name": "scale", "persistent": True}},
        {"buffer": {"arg": {"name": "b_idx"}, "buffer_name": "idx", "persistent": False}},
        {"tensor_constant": {"arg": {"name": "c_const0"}, "tensor_constant_name": "const0"}},
        {"tensor_constant": {"arg": {"name": "c_zeros"}, "tensor_constant_name": "zeros"}},
        {"user_input": {"arg": T("x")}},
    ]
    return {
        "graph_module": {
            "graph": {"inputs": [T(n) for n in inputs], "outputs": [T("add_1"), T("index")],
                      "nodes": nodes, "tensor_values": tv, "sym_int_values": {}, "sym_bool_values": {},
                      "is_single_tensor_return": False, "custom_obj_values": {}, "sym_float_values": {}},
            "signature": {"input_specs": specs,
                          "output_specs": [{"user_output": {"arg": T("add_1")}},
                                           {"user_output": {"arg": T("index")}}]},
            "module_call_graph": [{"fqn": "", "signature": None}],
            "metadata": {}, "treespec_namedtuple_fields": {}},
        "opset_version": {"aten": 10}, "range_constraints": {},
        "schema_version": {"major": 8, "minor": 17}, "verifiers": ["ATEN"],
        "torch_version": "1.13.1", "guards_code": []}


# The weights, as torch tensors with the sharing and strides the tests check:
# fc.weight = 0.5*arange(12) as [3,4]; scale and fc.bias are views [0:3], [3:6]
# of one storage holding 100..105; const0 = [11, 13] (offset 1, stride 2 into
# 10..13); idx = [1, 0] (stride 2); zeros is a 0-byte payload in the raw layout.
def torch_weights():
    base = torch.arange(100, 106, dtype=torch.float32)
    w = collections.OrderedDict()
    w["fc.weight"] = torch.nn.Parameter(torch.arange(12, dtype=torch.float32).reshape(3, 4) * 0.5)
    w["fc.bias"] = torch.nn.Parameter(base[3:])
    w["scale"] = base[:3]
    c = collections.OrderedDict()
    c["const0"] = torch.arange(10, 14, dtype=torch.float32)[1::2]
    c["idx"] = torch.tensor([[1, 5], [0, 6]], dtype=torch.int64)[:, 0]
    c["zeros"] = torch.zeros(2, 2)
    return w, c


def tsave(obj):
    buf = io.BytesIO()
    torch.save(obj, buf, _use_new_zipfile_serialization=True, pickle_protocol=2)
    return buf.getvalue()


def raw_payloads():
    f32 = lambda xs: struct.pack("<%df" % len(xs), *xs)
    weights = {"weight_0": f32([0.5 * i for i in range(12)]), "weight_1": f32([100.0 + i for i in range(6)])}
    wcfg = {"config": {
        "fc.weight": {"path_name": "weight_0", "is_param": True, "use_pickle": False,
                      "tensor_meta": meta(F32, [3, 4], requires_grad=True)},
        "fc.bias": {"path_name": "weight_1", "is_param": True, "use_pickle": False,
                    "tensor_meta": meta(F32, [3], offset=3, requires_grad=True)},
        "scale": {"path_name": "weight_1", "is_param": False, "use_pickle": False,
                  "tensor_meta": meta(F32, [3])}}}
    consts = {"tensor_0": f32([10.0, 11.0, 12.0, 13.0]), "tensor_1": struct.pack("<4q", 1, 5, 0, 6),
              "tensor_2": b""}
    ccfg = {"config": {
        "const0": {"path_name": "tensor_0", "is_param": False, "use_pickle": False,
                   "tensor_meta": meta(F32, [2], strides=[2], offset=1)},
        "idx": {"path_name": "tensor_1", "is_param": False, "use_pickle": False,
                "tensor_meta": meta(I64, [2], strides=[2])},
        "zeros": {"path_name": "tensor_2", "is_param": False, "use_pickle": False,
                  "tensor_meta": meta(F32, [2, 2])}}}
    return weights, wcfg, consts, ccfg


def jdump(obj, allow_nan=False):
    return json.dumps(obj, allow_nan=allow_nan).encode()


def pt2_raw_entries(prog=None, wcfg=None, ccfg=None, weights=None, consts=None):
    w, wc, c, cc = raw_payloads()
    prog = program("-Infinity") if prog is None else prog
    e = {"archive_format": b"pt2", "archive_version": b"0", "byteorder": b"little",
         "models/model.json": prog if isinstance(prog, bytes) else jdump(prog),
         "data/weights/model_weights_config.json": jdump(wc if wcfg is None else wcfg),
         "data/constants/model_constants_config.json": jdump(cc if ccfg is None else ccfg)}
    for k, v in (w if weights is None else weights).items():
        e["data/weights/" + k] = v
    for k, v in (c if consts is None else consts).items():
        e["data/constants/" + k] = v
    return e


def write_torch_zip(path, entries):
    """A PT2 archive as PyTorchFileWriter writes it (root = file stem, data
    descriptors, zip64 records, 64-byte aligned payloads)."""
    w = torch._C.PyTorchFileWriter(path)
    for name, data in entries.items():
        w.write_record(name, data, len(data))
    w.write_end_of_file()


def write_py_zip(path, entries, compression=zipfile.ZIP_STORED):
    with zipfile.ZipFile(path, "w", compression) as z:
        for name, data in entries.items():
            z.writestr(name, data)


def dynamic_program():
    """Symbolic batch: x is [s0, 4]; sym_size, a Python-operator product, a view by a SymInt,
    and a constant (non-tensor) input."""
    s0 = "Symbol('s0', integer=True, positive=True)"
    expr = lambda e, h: {"as_expr": {"expr_str": e, "hint": {"as_int": h}}}
    dyn = lambda sizes, strides: {"dtype": F32, "sizes": sizes, "requires_grad": False,
                                  "device": {"type": "cpu", "index": None}, "strides": strides,
                                  "storage_offset": sym(0), "layout": 7}
    nodes = [
        node("sym_size_int", "aten.sym_size.int", [arg("self", T("x")), arg("dim", {"as_int": 0})],
             [{"as_sym_int": {"as_name": "sym_size_int"}}]),
        {"target": "_operator.mul", "name": "mul", "metadata": {},
         "inputs": [arg("", {"as_sym_int": {"as_name": "sym_size_int"}}), arg("", {"as_int": 4})],
         "outputs": [{"as_sym_int": {"as_name": "mul"}}]},
        node("view", "aten.view.default", [arg("self", T("x")), arg("size", {"as_sym_ints": [{"as_name": "mul"}]})]),
    ]
    return {
        "graph_module": {
            "graph": {"inputs": [T("x"), {"as_int": 3}], "outputs": [T("view")], "nodes": nodes,
                      "tensor_values": {"x": dyn([expr(s0, 3), sym(4)], [sym(4), sym(1)]),
                                        "view": dyn([expr("Mul(Integer(4), %s)" % s0, 12)], [sym(1)])},
                      "sym_int_values": {"sym_size_int": expr(s0, 3),
                                         "mul": expr("Mul(Integer(4), %s)" % s0, 12)}},
            "signature": {"input_specs": [{"user_input": {"arg": T("x")}},
                                          {"constant_input": {"name": "scale", "value": {"as_int": 3}}}],
                          "output_specs": [{"user_output": {"arg": T("view")}}]},
            "module_call_graph": []},
        "range_constraints": {"s0": {"min_val": 2, "max_val": 64}},
        "schema_version": {"major": 8, "minor": 20}, "torch_version": "2.12.1"}


def dynamic_forms_program():
    """Every form torch.export writes for symbolic sizes: srepr and str() expressions, SymExprHint
    unions and bare-int hints, range_constraints with a bounded, an unbounded (null) and an older
    huge (sys.maxsize - 1) max, sym_size.int, and the _operator / torch.sym_* arithmetic on them.
    x: [s0, s1]; y: [s0]; out = view(x, [s0*s1]) and x * (max(s0,s1) + min(s0,s1) + s1//2 + s1%4 - s0)."""
    srepr = lambda n: "Symbol('%s', integer=True, positive=True)" % n
    def expr(e, h, bare=False):
        return {"as_expr": {"expr_str": e, "hint": h if bare else {"as_int": h}}}
    dyn = lambda sizes, strides: {"dtype": F32, "sizes": sizes, "requires_grad": False,
                                  "device": {"type": "cpu", "index": None}, "strides": strides,
                                  "storage_offset": sym(0), "layout": 7}
    S = lambda name: {"as_sym_int": {"as_name": name}}
    def op(name, target, *args):
        return {"target": target, "name": name, "metadata": {},
                "inputs": [arg("", a) for a in args], "outputs": [S(name)]}
    s0, s1 = expr(srepr("s0"), 6), expr("s1", 10, bare=True)
    nodes = [
        node("sym_size_int", "aten.sym_size.int", [arg("self", T("x")), arg("dim", {"as_int": 0})], [S("sym_size_int")]),
        node("sym_size_int_1", "aten.sym_size.int", [arg("self", T("x")), arg("dim", {"as_int": 1})],
             [S("sym_size_int_1")]),
        op("mul", "_operator.mul", S("sym_size_int"), S("sym_size_int_1")),
        node("view", "aten.view.default", [arg("self", T("x")), arg("size", {"as_sym_ints": [S("mul")["as_sym_int"]]})]),
        op("sym_max", "torch.sym_max", S("sym_size_int"), S("sym_size_int_1")),
        op("sym_min", "torch.sym_min", S("sym_size_int"), S("sym_size_int_1")),
        op("floordiv", "_operator.floordiv", S("sym_size_int_1"), {"as_int": 2}),
        op("mod", "_operator.mod", S("sym_size_int_1"), {"as_int": 4}),
        op("add", "_operator.add", S("sym_max"), S("sym_min")),
        op("add_1", "_operator.add", S("add"), S("floordiv")),
        op("add_2", "_operator.add", S("add_1"), S("mod")),
        op("sub", "_operator.sub", S("add_2"), S("sym_size_int")),
        node("mul_1", "aten.mul.Tensor", [arg("self", T("x")), arg("other", S("sub"))]),
        node("add_3", "aten.add.Tensor", [arg("self", T("mul_1")), arg("other", T("y2"))]),
        node("unsqueeze", "aten.unsqueeze.default", [arg("self", T("y")), arg("dim", {"as_int": 1})],
             [T("y2")]),
    ]
    nodes = nodes[:13] + [nodes[14], nodes[13]]
    xs = [s0, s1]
    return {
        "graph_module": {
            "graph": {"inputs": [T("x"), T("y")], "outputs": [T("view"), T("add_3")], "nodes": nodes,
                      "tensor_values": {
                          "x": dyn(xs, [s1, sym(1)]), "y": dyn([s0], [sym(1)]),
                          "y2": dyn([s0, sym(1)], [sym(1), sym(1)]),
                          "view": dyn([expr("s0*s1", 60)], [sym(1)]),
                          "mul_1": dyn(xs, [s1, sym(1)]), "add_3": dyn(xs, [s1, sym(1)])},
                      "sym_int_values": {
                          "sym_size_int": s0, "sym_size_int_1": s1,
                          "mul": expr("Mul(%s, %s)" % (srepr("s0"), srepr("s1")), 60),
                          "sym_max": expr("Max(%s, %s)" % (srepr("s0"), srepr("s1")), 10),
                          "sym_min": expr("Min(s0, s1)", 6, bare=True),
                          "floordiv": expr("FloorDiv(%s, Integer(2))" % srepr("s1"), 5),
                          "mod": expr("Mod(s1, 4)", 2),
                          "add": expr("Max(s0, s1) + Min(s0, s1)", 16),
                          "add_1": expr("Max(s0, s1) + Min(s0, s1) + (s1//2)", 21),
                          "add_2": expr("Max(s0, s1) + Min(s0, s1) + (s1//2) + Mod(s1, 4)", 23),
                          "sub": expr("Add(Max(s0, s1), Min(s0, s1), FloorDiv(s1, 2), Mod(s1, 4), Mul(Integer(-1), s0))", 17)}},
            "signature": {"input_specs": [{"user_input": {"arg": T("x")}}, {"user_input": {"arg": T("y")}}],
                          "output_specs": [{"user_output": {"arg": T("view")}}, {"user_output": {"arg": T("add_3")}}]},
            "module_call_graph": []},
        "range_constraints": {"s0": {"min_val": 2, "max_val": 16}, "s1": {"min_val": 2, "max_val": None},
                              "s2": {"min_val": 2, "max_val": 9223372036854775806}},
        "schema_version": {"major": 8, "minor": 20}, "torch_version": "2.12.1"}


def symbolic_program(dynamic=False):
    """Symbolic bools and floats as torch 2.12-2.14 write them (schema 8.20, hand-written from
    pt2_format.md §3-4 and export_opsets.md §3: torch 1.13 cannot export them): an
    `_operator.ge` with an as_sym_bool output checked by `_assert_scalar`, a
    `sym_constrain_range_for_size` and an `_assert_tensor_metadata`, `torch.sym_float` and
    `_operator.truediv` with as_sym_float outputs feeding `aten.mul.Tensor` and `aten.full`,
    `torch.sym_not`/`_operator.or_` feeding `aten.scalar_tensor`, `math.trunc`, and a SymBool
    graph output. x is [2, 4] (static) or [s0, 4] with s0 in [2, 64] (dynamic: the asserts
    read run-time values, so the float arithmetic is left out).
    Outputs: x * (n / 4), scalar_tensor(n >= 2 or not n >= 2) = 1.0, full([trunc(n / 4) + n, 3],
    n / 4) (static only), and n >= 2."""
    s0 = "Symbol('s0', integer=True, positive=True)"
    n = {"as_expr": {"expr_str": s0, "hint": {"as_int": 2}}} if dynamic else sym(2)
    def sized(sizes, strides):
        return {"dtype": F32, "sizes": sizes, "requires_grad": False, "device": {"type": "cpu", "index": None},
                "strides": strides, "storage_offset": sym(0), "layout": 7}
    SI = lambda name: {"as_sym_int": {"as_name": name}}
    SB = lambda name: {"as_sym_bool": {"as_name": name}}
    SF = lambda name: {"as_sym_float": {"as_name": name}}
    def op(name, target, out, *args):
        return {"target": target, "name": name, "metadata": {}, "inputs": [arg("", a) for a in args],
                "outputs": [out(name)]}
    def check(name, target, inputs):
        return {"target": "torch.ops." + target, "name": name, "metadata": {}, "inputs": inputs, "outputs": [],
                "is_hop_single_tensor_return": None}
    nodes = [
        node("sym_size_int", "aten.sym_size.int", [arg("self", T("x")), arg("dim", {"as_int": 0})], [SI("sym_size_int")]),
        op("ge", "_operator.ge", SB, SI("sym_size_int"), {"as_int": 2}),
        check("_assert_scalar_default", "aten._assert_scalar.default",
              [arg("self", SB("ge")), arg("assert_msg", {"as_string": "Runtime assertion failed for expression 2 <= s0 on node 'ge'"})]),
        check("sym_constrain_range_for_size_default", "aten.sym_constrain_range_for_size.default",
              [arg("size", SI("sym_size_int")), arg("min", {"as_int": 2}, 2), arg("max", {"as_int": 64}, 2)]),
        check("_assert_tensor_metadata_default", "aten._assert_tensor_metadata.default",
              [arg("a", T("x")), arg("dtype", {"as_scalar_type": F32}, 2),
               arg("device", {"as_device": {"type": "cpu", "index": None}}, 2), arg("layout", {"as_layout": 7}, 2)]),
        op("sym_not", "torch.sym_not", SB, SB("ge")),
        op("or_", "_operator.or_", SB, SB("ge"), SB("sym_not")),
        node("scalar_tensor", "aten.scalar_tensor.default",
             [arg("s", SB("or_")), arg("dtype", {"as_scalar_type": F32}, 2)]),
    ]
    outputs = [T("scalar_tensor"), SB("ge")]
    tensor_values = {"x": sized([n, sym(4)], [sym(4), sym(1)]), "scalar_tensor": sized([], [])}
    if not dynamic:
        nodes += [
            op("sym_float", "torch.sym_float", SF, SI("sym_size_int")),
            op("truediv", "_operator.truediv", SF, SF("sym_float"), {"as_int": 4}),
            node("mul", "aten.mul.Tensor", [arg("self", T("x")), arg("other", SF("truediv"))]),
            op("trunc", "math.trunc", SI, SF("truediv")),
            op("add", "_operator.add", SI, SI("trunc"), SI("sym_size_int")),
            node("full", "aten.full.default",
                 [arg("size", {"as_sym_ints": [SI("add")["as_sym_int"], {"as_int": 3}]}),
                  arg("fill_value", SF("truediv")), arg("dtype", {"as_scalar_type": F32}, 2)]),
        ]
        outputs = [T("mul"), T("full")] + outputs
        tensor_values.update({"mul": sized([sym(2), sym(4)], [sym(4), sym(1)]),
                              "full": sized([sym(2), sym(3)], [sym(3), sym(1)])})
    hint = lambda e, v: {"as_expr": {"expr_str": e, "hint": {"as_bool": v}}}
    return {
        "graph_module": {
            "graph": {"inputs": [T("x")], "outputs": outputs, "nodes": nodes, "tensor_values": tensor_values,
                      "sym_int_values": {"sym_size_int": n, "trunc": sym(0), "add": sym(2)} if not dynamic
                      else {"sym_size_int": n},
                      "sym_bool_values": {"ge": hint("2 <= s0", True), "sym_not": hint("s0 < 2", False),
                                          "or_": {"as_bool": True}},
                      "sym_float_values": {} if dynamic else {"sym_float": {"as_float": 2.0}, "truediv": {"as_float": 0.5}},
                      "is_single_tensor_return": False, "custom_obj_values": {}},
            "signature": {"input_specs": [{"user_input": {"arg": T("x")}}],
                          "output_specs": [{"user_output": {"arg": o}} for o in outputs]},
            "module_call_graph": [], "metadata": {}, "treespec_namedtuple_fields": {}},
        "opset_version": {"aten": 10},
        "range_constraints": {"s0": {"min_val": 2, "max_val": 64}} if dynamic else {},
        "schema_version": {"major": 8, "minor": 20}, "verifiers": ["TRAINING"], "torch_version": "2.14.0",
        "guards_code": []}


def training_inplace_entries():
    """Training IR as torch >= 2.6 exports it by default (not functional; schema 8.20, hand-written
    from export_opsets.md §1): `relu_` on an intermediate, `add_` on a buffer (num_batches_tracked),
    `copy_` into a buffer (a running mean), `mul_` on a user input, each mutation an output as the
    signature says; later readers of a mutated tensor read the new value.
    b_count: int64 [] = 3, b_mean: f32 [4] = 0; x: f32 [2, 4]; y: f32 [4].
    Outputs: count + 1, mean(relu(x), 0), y * 2, relu(x) + y * 2."""
    nodes = [
        node("clone", "aten.clone.default", [arg("self", T("x"))]),
        node("relu_", "aten.relu_.default", [arg("self", T("clone"))]),
        node("add_", "aten.add_.Tensor", [arg("self", T("b_count")), arg("other", {"as_int": 1})]),
        node("mean", "aten.mean.dim", [arg("self", T("relu_")), arg("dim", {"as_ints": [0]})]),
        node("copy_", "aten.copy_.default", [arg("self", T("b_mean")), arg("src", T("mean"))]),
        node("mul_", "aten.mul_.Tensor", [arg("self", T("y")), arg("other", {"as_float": 2.0})]),
        node("add", "aten.add.Tensor", [arg("self", T("relu_")), arg("other", T("y"))]),
    ]
    tv = {"b_count": meta(I64, []), "b_mean": meta(F32, [4]), "x": meta(F32, [2, 4]), "y": meta(F32, [4]),
          "clone": meta(F32, [2, 4]), "relu_": meta(F32, [2, 4]), "add_": meta(I64, []), "mean": meta(F32, [4]),
          "copy_": meta(F32, [4]), "mul_": meta(F32, [4]), "add": meta(F32, [2, 4])}
    prog = {
        "graph_module": {
            "graph": {"inputs": [T("b_count"), T("b_mean"), T("x"), T("y")],
                      "outputs": [T("add_"), T("copy_"), T("mul_"), T("add")], "nodes": nodes, "tensor_values": tv,
                      "sym_int_values": {}, "sym_bool_values": {}, "is_single_tensor_return": False,
                      "custom_obj_values": {}, "sym_float_values": {}},
            "signature": {
                "input_specs": [{"buffer": {"arg": {"name": "b_count"}, "buffer_name": "count", "persistent": True}},
                                {"buffer": {"arg": {"name": "b_mean"}, "buffer_name": "mean", "persistent": True}},
                                {"user_input": {"arg": T("x")}}, {"user_input": {"arg": T("y")}}],
                "output_specs": [{"buffer_mutation": {"arg": {"name": "add_"}, "buffer_name": "count"}},
                                 {"buffer_mutation": {"arg": {"name": "copy_"}, "buffer_name": "mean"}},
                                 {"user_input_mutation": {"arg": {"name": "mul_"}, "user_input_name": "y"}},
                                 {"user_output": {"arg": T("add")}}]},
            "module_call_graph": [], "metadata": {}, "treespec_namedtuple_fields": {}},
        "opset_version": {"aten": 10}, "range_constraints": {},
        "schema_version": {"major": 8, "minor": 20}, "verifiers": ["TRAINING"], "torch_version": "2.14.0",
        "guards_code": []}
    wcfg = {"config": {
        "count": {"path_name": "weight_0", "is_param": False, "use_pickle": False, "tensor_meta": meta(I64, [])},
        "mean": {"path_name": "weight_1", "is_param": False, "use_pickle": False, "tensor_meta": meta(F32, [4])}}}
    return {"archive_format": b"pt2", "archive_version": b"0", "byteorder": b"little",
            "models/model.json": jdump(prog), "data/weights/model_weights_config.json": jdump(wcfg),
            "data/weights/weight_0": struct.pack("<q", 3), "data/weights/weight_1": struct.pack("<4f", 0, 0, 0, 0)}


# BatchNorm2d(3) in train() mode: weight, bias, running statistics and the input of
# training_batch_norm.pt2 (tests/cli/test_training_archives.py runs the same module in torch).
BN_TRAIN = {"weight": [0.5, -1.25, 2.0], "bias": [0.1, 0.2, -0.3], "running_mean": [0.25, -0.5, 1.0],
            "running_var": [1.5, 0.75, 2.0], "num_batches_tracked": 7, "momentum": 0.2, "eps": 1e-5, "x": [4, 3, 5, 2]}


def training_batch_norm_entries():
    """A BatchNorm2d in train() mode after run_decompositions(), as torch 2.2+ writes it (schema 8.20,
    hand-written from export_opsets.md §2: `_native_batch_norm_legit_functional` with 5 outputs and
    buffer_mutation outputs for the running statistics and num_batches_tracked, which an `add.Tensor`
    counts). x: f32 [4, 3, 5, 2]. Outputs: bn.running_mean, bn.running_var, bn.num_batches_tracked
    (the buffers' new values), then the normalized x."""
    c, dims = 3, BN_TRAIN["x"]
    nodes = [
        node("add", "aten.add.Tensor", [arg("self", T("b_bn_num_batches_tracked")), arg("other", {"as_int": 1})]),
        node("_native_batch_norm_legit_functional", "aten._native_batch_norm_legit_functional.default",
             [arg("input", T("x")), arg("weight", T("p_bn_weight")), arg("bias", T("p_bn_bias")),
              arg("running_mean", T("b_bn_running_mean")), arg("running_var", T("b_bn_running_var")),
              arg("training", {"as_bool": True}), arg("momentum", {"as_float": BN_TRAIN["momentum"]}),
              arg("eps", {"as_float": BN_TRAIN["eps"]})],
             [T("getitem"), T("getitem_1"), T("getitem_2"), T("getitem_3"), T("getitem_4")]),
    ]
    tv = {"p_bn_weight": meta(F32, [c]), "p_bn_bias": meta(F32, [c]), "b_bn_running_mean": meta(F32, [c]),
          "b_bn_running_var": meta(F32, [c]), "b_bn_num_batches_tracked": meta(I64, []), "x": meta(F32, dims),
          "add": meta(I64, []), "getitem": meta(F32, dims), "getitem_1": meta(F32, [c]), "getitem_2": meta(F32, [c]),
          "getitem_3": meta(F32, [c]), "getitem_4": meta(F32, [c])}
    weights = [("bn.weight", "p_bn_weight", True), ("bn.bias", "p_bn_bias", True),
               ("bn.running_mean", "b_bn_running_mean", False), ("bn.running_var", "b_bn_running_var", False),
               ("bn.num_batches_tracked", "b_bn_num_batches_tracked", False)]
    specs = [{"parameter": {"arg": {"name": v}, "parameter_name": fqn}} if p else
             {"buffer": {"arg": {"name": v}, "buffer_name": fqn, "persistent": True}} for fqn, v, p in weights]
    prog = {
        "graph_module": {
            "graph": {"inputs": [T(v) for _, v, _ in weights] + [T("x")],
                      "outputs": [T("getitem_3"), T("getitem_4"), T("add"), T("getitem")], "nodes": nodes,
                      "tensor_values": tv, "sym_int_values": {}, "sym_bool_values": {},
                      "is_single_tensor_return": False, "custom_obj_values": {}, "sym_float_values": {}},
            "signature": {
                "input_specs": specs + [{"user_input": {"arg": T("x")}}],
                "output_specs": [{"buffer_mutation": {"arg": {"name": "getitem_3"}, "buffer_name": "bn.running_mean"}},
                                 {"buffer_mutation": {"arg": {"name": "getitem_4"}, "buffer_name": "bn.running_var"}},
                                 {"buffer_mutation": {"arg": {"name": "add"}, "buffer_name": "bn.num_batches_tracked"}},
                                 {"user_output": {"arg": T("getitem")}}]},
            "module_call_graph": [], "metadata": {}, "treespec_namedtuple_fields": {}},
        "opset_version": {"aten": 10}, "range_constraints": {},
        "schema_version": {"major": 8, "minor": 20}, "verifiers": ["ATEN"], "torch_version": "2.14.0",
        "guards_code": []}
    entries = {"archive_format": b"pt2", "archive_version": b"0", "byteorder": b"little",
               "models/model.json": jdump(prog)}
    config = {}
    for i, (fqn, _, is_param) in enumerate(weights):
        if fqn.endswith("num_batches_tracked"):
            data, m = struct.pack("<q", BN_TRAIN["num_batches_tracked"]), meta(I64, [])
        else:
            values = BN_TRAIN[fqn.split(".")[1]]
            data, m = struct.pack("<%df" % c, *values), meta(F32, [c])
        config[fqn] = {"path_name": "weight_%d" % i, "is_param": is_param, "use_pickle": False, "tensor_meta": m}
        entries["data/weights/weight_%d" % i] = data
    entries["data/weights/model_weights_config.json"] = jdump({"config": config})
    return entries


def run_time_checks_program():
    """Run-time checks (Check layers, layer kind 27) as torch 2.12-2.14 write their sources (schema 8.20,
    hand-written): x [s0, 3], s0 in [2, 64] (hint 4); `_assert_async.msg(sum(x) > -1)` on the data, then
    y = x * math.sqrt(5 - s0), whose operand Python refuses when negative. The engine-file fuzz seed
    tests/fuzz/engine_corpus/run_time_checks.atrt is this archive compiled:
      build/atenrt compile tests/corpus/valid/run_time_checks.pt2 -o tests/fuzz/engine_corpus/run_time_checks.atrt"""
    s0 = "Symbol('s0', integer=True, positive=True)"
    n = {"as_expr": {"expr_str": s0, "hint": {"as_int": 4}}}
    x_meta = {"dtype": F32, "sizes": [n, sym(3)], "requires_grad": False, "device": {"type": "cpu", "index": None},
              "strides": [sym(3), sym(1)], "storage_offset": sym(0), "layout": 7}
    nodes = [
        node("sum_1", "aten.sum.default", [arg("self", T("x"))]),
        node("gt", "aten.gt.Scalar", [arg("self", T("sum_1")), arg("other", {"as_int": -1})]),
        node("_assert_async", "aten._assert_async.msg",
             [arg("self", T("gt")), arg("assert_msg", {"as_string": "sum(x) > -1"})], []),
        node("sym_size_int", "aten.sym_size.int", [arg("self", T("x")), arg("dim", {"as_int": 0})],
             [{"as_sym_int": {"as_name": "sym_size_int"}}]),
        {"target": "_operator.sub", "name": "sub", "metadata": {},
         "inputs": [arg("", {"as_int": 5}), arg("", {"as_sym_int": {"as_name": "sym_size_int"}})],
         "outputs": [{"as_sym_int": {"as_name": "sub"}}]},
        {"target": "math.sqrt", "name": "sqrt", "metadata": {},
         "inputs": [arg("", {"as_sym_int": {"as_name": "sub"}})], "outputs": [{"as_sym_float": {"as_name": "sqrt"}}]},
        node("mul", "aten.mul.Tensor", [arg("self", T("x")), arg("other", {"as_sym_float": {"as_name": "sqrt"}})]),
    ]
    return {
        "graph_module": {
            "graph": {"inputs": [T("x")], "outputs": [T("mul")], "nodes": nodes,
                      "tensor_values": {"x": x_meta, "mul": x_meta, "sum_1": meta(F32, []), "gt": meta(12, [])},
                      "sym_int_values": {"sym_size_int": n,
                                         "sub": {"as_expr": {"expr_str": "5 - s0", "hint": {"as_int": 1}}}},
                      "sym_bool_values": {},
                      "sym_float_values": {"sqrt": {"as_expr": {"expr_str": "sqrt(5 - s0)", "hint": {"as_float": 1.0}}}},
                      "is_single_tensor_return": True, "custom_obj_values": {}},
            "signature": {"input_specs": [{"user_input": {"arg": T("x")}}],
                          "output_specs": [{"user_output": {"arg": T("mul")}}]},
            "module_call_graph": [], "metadata": {}, "treespec_namedtuple_fields": {}},
        "opset_version": {"aten": 10}, "range_constraints": {"s0": {"min_val": 2, "max_val": 64}},
        "schema_version": {"major": 8, "minor": 20}, "verifiers": ["ATEN"], "torch_version": "2.14.0",
        "guards_code": []}


def hop_program(dynamic=False):
    """Higher-order ops as torch 2.12-2.14 write them (schema 8.20, hand-written from pt2_format.md §3.3-3.4
    and export_opsets.md §1: torch 1.13 has none): `cond` on an `_operator.gt` of a size, its branches
    as `as_graph` subgraphs with "" positional inputs; `wrap_with_set_grad_enabled` whose body returns
    one of its inputs unchanged; a disabled `wrap_with_autocast`. x, w: [2, 4] (dynamic: [s0, 4], so
    the predicate is known only at run time and cond is refused).
    Outputs: tanh(-(x * w + 1)) (2 > 1: the true branch) and x * w + 1."""
    s0 = "Symbol('s0', integer=True, positive=True)"
    n = {"as_expr": {"expr_str": s0, "hint": {"as_int": 2}}} if dynamic else sym(2)
    def m(sizes):
        return {"dtype": F32, "sizes": sizes, "requires_grad": False, "device": {"type": "cpu", "index": None},
                "strides": [sym(4), sym(1)], "storage_offset": sym(0), "layout": 7}
    mt = m([n, sym(4)])
    def sub(inputs, nodes, outputs):
        names = inputs + [o for nd in nodes for o in [nd["name"]]]
        return {"inputs": [T(i) for i in inputs], "outputs": [T(o) for o in outputs], "nodes": nodes,
                "tensor_values": {v: mt for v in names}, "sym_int_values": {}, "sym_bool_values": {},
                "is_single_tensor_return": len(outputs) == 1, "custom_obj_values": {}, "sym_float_values": {}}
    true_graph = sub(["x_1", "w_1"], [
        node("mul", "aten.mul.Tensor", [arg("self", T("x_1")), arg("other", T("w_1"))]),
        node("add", "aten.add.Tensor", [arg("self", T("mul")), arg("other", {"as_float": 1.0})])], ["add"])
    false_graph = sub(["x_1", "w_1"], [node("sub", "aten.sub.Tensor", [arg("self", T("x_1")), arg("other", T("w_1"))])],
                      ["sub"])
    grad_body = sub(["getitem_in"], [node("neg", "aten.neg.default", [arg("self", T("getitem_in"))])],
                    ["neg", "getitem_in"])
    autocast_body = sub(["neg_in"], [node("tanh", "aten.tanh.default", [arg("self", T("neg_in"))])], ["tanh"])
    G_ = lambda name, g: {"as_graph": {"name": name, "graph": g}}
    def hop(name, target, args, outputs):
        return {"target": "torch.ops.higher_order." + target, "name": name, "metadata": {},
                "inputs": [arg("", a) for a in args], "outputs": [T(o) for o in outputs],
                "is_hop_single_tensor_return": len(outputs) == 1}
    nodes = [
        node("sym_size_int", "aten.sym_size.int", [arg("self", T("x")), arg("dim", {"as_int": 0})],
             [{"as_sym_int": {"as_name": "sym_size_int"}}]),
        {"target": "_operator.gt", "name": "gt", "metadata": {},
         "inputs": [arg("", {"as_sym_int": {"as_name": "sym_size_int"}}), arg("", {"as_int": 1})],
         "outputs": [{"as_sym_bool": {"as_name": "gt"}}]},
        hop("cond", "cond", [{"as_sym_bool": {"as_name": "gt"}}, G_("true_graph_0", true_graph),
                             G_("false_graph_0", false_graph), {"as_tensors": [{"name": "x"}, {"name": "w"}]}], ["getitem"]),
        hop("wrap_with_set_grad_enabled", "wrap_with_set_grad_enabled",
            [{"as_bool": False}, G_("wrap_body_0", grad_body), T("getitem")], ["getitem_1", "getitem_2"]),
        hop("wrap_with_autocast", "wrap_with_autocast",
            [{"as_string": "cpu"}, {"as_none": True}, {"as_bool": False}, {"as_bool": False},
             G_("wrap_body_1", autocast_body), T("getitem_1")], ["getitem_3"]),
    ]
    values = ["x", "w", "getitem", "getitem_1", "getitem_2", "getitem_3"]
    return {
        "graph_module": {
            "graph": {"inputs": [T("x"), T("w")], "outputs": [T("getitem_3"), T("getitem_2")], "nodes": nodes,
                      "tensor_values": {v: mt for v in values}, "sym_int_values": {"sym_size_int": n},
                      "sym_bool_values": {"gt": {"as_expr": {"expr_str": "s0 > 1", "hint": {"as_bool": True}}}},
                      "is_single_tensor_return": False, "custom_obj_values": {}, "sym_float_values": {}},
            "signature": {"input_specs": [{"user_input": {"arg": T("x")}}, {"user_input": {"arg": T("w")}}],
                          "output_specs": [{"user_output": {"arg": T("getitem_3")}},
                                           {"user_output": {"arg": T("getitem_2")}}]},
            "module_call_graph": [], "metadata": {}, "treespec_namedtuple_fields": {}},
        "opset_version": {"aten": 10},
        "range_constraints": {"s0": {"min_val": 2, "max_val": 64}} if dynamic else {},
        "schema_version": {"major": 8, "minor": 20}, "verifiers": ["TRAINING"], "torch_version": "2.14.0",
        "guards_code": []}


def make_valid():
    os.makedirs(VALID, exist_ok=True)
    write_torch_zip(os.path.join(VALID, "program_raw.pt2"), pt2_raw_entries())
    w, c = torch_weights()
    pickled = {"archive_format": b"pt2", "archive_version": b"0",
               "models/model.json": jdump(program("-Infinity")),
               "data/weights/model.pt": tsave(w), "data/constants/model.pt": tsave(c)}
    write_torch_zip(os.path.join(VALID, "program_pickled.pt2"), pickled)
    write_torch_zip(os.path.join(VALID, "dynamic_raw.pt2"),
                    {"archive_format": b"pt2", "models/model.json": jdump(dynamic_program())})
    write_torch_zip(os.path.join(VALID, "dynamic_forms.pt2"),
                    {"archive_format": b"pt2", "models/model.json": jdump(dynamic_forms_program())})
    for kind in ("static", "dynamic"):
        write_torch_zip(os.path.join(VALID, "symbolic_%s.pt2" % kind),
                        {"archive_format": b"pt2", "models/model.json": jdump(symbolic_program(kind == "dynamic"))})
    write_torch_zip(os.path.join(VALID, "training_inplace.pt2"), training_inplace_entries())
    write_torch_zip(os.path.join(VALID, "training_batch_norm.pt2"), training_batch_norm_entries())
    write_torch_zip(os.path.join(VALID, "run_time_checks.pt2"),
                    {"archive_format": b"pt2", "models/model.json": jdump(run_time_checks_program())})
    for kind in ("static", "dynamic"):
        write_torch_zip(os.path.join(VALID, "hop_%s.pt2" % kind),
                        {"archive_format": b"pt2", "models/model.json": jdump(hop_program(kind == "dynamic"))})
    # Legacy (2.2-2.7): flat zip, bare -Infinity token, "M.m" version.
    legacy = {"serialized_exported_program.json": jdump(program(float("-inf")), allow_nan=True),
              "serialized_state_dict.pt": tsave(w), "serialized_constants.pt": tsave(c),
              "serialized_example_inputs.pt": tsave(((torch.zeros(2, 4),), {})), "version": b"8.7"}
    write_py_zip(os.path.join(VALID, "program_legacy.pt2"), legacy)
    # Legacy 2.1 naming (state dict in a .json record, bare int version), deflated.
    legacy21 = {"serialized_exported_program.json": jdump(program(float("-inf")), allow_nan=True),
                "serialized_state_dict.json": tsave(w), "serialized_constants.json": tsave(c),
                "version": b"1"}
    write_py_zip(os.path.join(VALID, "program_legacy21_deflated.pt2"), legacy21, zipfile.ZIP_DEFLATED)


# ---------------------------------------------------------------------------------------
# Hostile files. Each entry: (file name, error class, substring).
EXPECTED = []


def bad(name, data_or_entries, cls, substring, writer="torch"):
    path = os.path.join(BAD, name)
    if isinstance(data_or_entries, bytes):
        with open(path, "wb") as f:
            f.write(data_or_entries)
    elif writer == "torch":
        write_torch_zip(path, data_or_entries)
    else:
        write_py_zip(path, data_or_entries)
    EXPECTED.append((name, cls, substring))


def mutate_prog(fn):
    p = program("-Infinity")
    fn(p)
    return p


def G(p):
    return p["graph_module"]["graph"]


def nodes(p):
    return G(p)["nodes"]


def pickle_bytes(ops):
    return b"\x80\x02" + ops + b"."


def tsave_with_pickle(pkl, data=None):
    """A torch.save-shaped zip with a hand-written data.pkl."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("archive/data.pkl", pkl)
        for k, v in (data or {}).items():
            z.writestr("archive/data/" + k, v)
        z.writestr("archive/version", b"3\n")
    return buf.getvalue()


def legacy_with(state_dict_bytes, prog=None):
    return {"serialized_exported_program.json": jdump(prog or program("-Infinity")),
            "serialized_state_dict.pt": state_dict_bytes,
            "serialized_constants.pt": tsave(torch_weights()[1]), "version": b"8.7"}


def patch_central_sizes(data, entry_name, comp_size=None, size=None, method=None):
    """Rewrites the central-directory header of one entry (sizes, method)."""
    b = bytearray(data)
    pos = 0
    name = entry_name.encode()
    while True:
        pos = b.find(b"PK\x01\x02", pos)
        if pos < 0:
            raise ValueError(entry_name)
        nlen = struct.unpack_from("<H", b, pos + 28)[0]
        if bytes(b[pos + 46:pos + 46 + nlen]) == name:
            if method is not None:
                struct.pack_into("<H", b, pos + 10, method)
            if comp_size is not None:
                struct.pack_into("<I", b, pos + 20, comp_size)
            if size is not None:
                struct.pack_into("<I", b, pos + 24, size)
            return bytes(b)
        pos += 4


def flat(p):
    """Schema 1 (torch 2.1): the flat signature in place of input/output specs."""
    sig = p["graph_module"]["signature"]
    out = {"inputs_to_parameters": {}, "inputs_to_buffers": {}, "user_inputs": [], "user_outputs": [],
           "buffers_to_mutate": {}, "backward_signature": None}
    for spec in sig["input_specs"]:
        (kind, v), = spec.items()
        if kind == "parameter":
            out["inputs_to_parameters"][v["arg"]["name"]] = v["parameter_name"]
        elif kind in ("buffer", "tensor_constant"):
            out["inputs_to_buffers"][v["arg"]["name"]] = v.get("buffer_name", v.get("tensor_constant_name"))
        else:
            out["user_inputs"].append(v["arg"]["as_tensor"]["name"])
    out["user_outputs"] = [s["user_output"]["arg"]["as_tensor"]["name"] for s in sig["output_specs"]]
    p["graph_module"]["signature"] = out
    p["schema_version"] = 1


def legacy_json(prog_bytes):
    """A torch 2.1/2.2-style legacy zip (state dicts in .json records) around a program."""
    w, c = torch_weights()
    prog = prog_bytes if isinstance(prog_bytes, bytes) else jdump(prog_bytes)
    return {"serialized_exported_program.json": prog, "serialized_state_dict.json": tsave(w),
            "serialized_constants.json": tsave(c), "version": b"2"}


def make_bad():
    os.makedirs(BAD, exist_ok=True)
    good = open(os.path.join(VALID, "program_raw.pt2"), "rb").read()

    # --- zip level
    bad("not_a_zip.pt2", b"this is not a zip file at all\n" * 4, "FormatError", "not a valid zip archive")
    bad("empty_file.pt2", b"", "FormatError", "not a torch.export archive")
    bad("truncated_half.pt2", good[: len(good) // 2], "FormatError", "not a valid zip archive")
    bad("truncated_tail.pt2", good[:-10], "FormatError", "not a valid zip archive")
    bad("dotdot_entry.pt2", {"archive_format": b"pt2", "../../etc/evil": b"x"}, "FormatError",
        "contains '..'", writer="py")
    bad("absolute_entry.pt2", {"/etc/passwd": b"x", "archive_format": b"pt2"}, "FormatError",
        "is an absolute path", writer="py")
    buf = io.BytesIO()
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with zipfile.ZipFile(buf, "w") as z:
            z.writestr("serialized_exported_program.json", b"{}")
            z.writestr("serialized_exported_program.json", b"{}")
    bad("duplicate_entry.pt2", buf.getvalue(), "FormatError", "appears twice")
    bad("no_known_layout.pt2", {"hello.txt": b"hi", "other/x": b"y"}, "FormatError",
        "not a torch.export archive", writer="py")
    bad("torchscript.pt2", {"m/data.pkl": b"", "m/constants.pkl": b""}, "UnsupportedError",
        "TorchScript", writer="py")
    bad("archive_format_other.pt2", dict(pt2_raw_entries(), archive_format=b"zip"), "UnsupportedError",
        "'zip' archives are not supported")
    bad("archive_version_9.pt2", dict(pt2_raw_entries(), archive_version=b"9"), "UnsupportedError",
        "PT2 archive version '9'")
    # Stored entry whose central directory claims 4 GB: must be refused before allocating.
    big = patch_central_sizes(good, "program_raw/models/model.json", size=0xFFFFFF00)
    bad("stored_size_lie.pt2", big, "FormatError", "JSON record limit")
    # A deflated entry that claims an absurd expansion ratio (zip bomb).
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("serialized_exported_program.json", b"{" + b" " * 5000 + b"}")
        z.writestr("version", b"8.7")
    bomb = patch_central_sizes(buf.getvalue(), "serialized_exported_program.json", size=0xFFFFFF00)
    bad("zip_bomb_ratio.pt2", bomb, "FormatError", "sizes disagree")
    bad("compression_bzip2.pt2", patch_central_sizes(good, "program_raw/models/model.json", method=12),
        "FormatError", "12 in the central directory")

    # --- graph JSON
    bad("json_invalid.pt2", pt2_raw_entries(prog=b'{"graph_module": {"graph": '), "FormatError", "invalid JSON")
    bad("json_deep_nesting.pt2", pt2_raw_entries(prog=b"[" * 5000 + b"]" * 5000), "FormatError",
        "JSON nesting deeper than")
    bad("json_root_array.pt2", pt2_raw_entries(prog=b"[]"), "FormatError", "$: expected an object")
    bad("json_nodes_object.pt2", pt2_raw_entries(prog=mutate_prog(lambda p: G(p).update(nodes={}))),
        "FormatError", "$.graph_module.graph.nodes: expected an array")
    bad("json_target_int.pt2",
        pt2_raw_entries(prog=mutate_prog(lambda p: nodes(p)[0].update(target=5))),
        "FormatError", "$.graph_module.graph.nodes[0].target: expected a string")
    bad("json_as_int_string.pt2",
        pt2_raw_entries(prog=mutate_prog(lambda p: nodes(p)[6]["inputs"][2].update(arg={"as_int": "2"}))),
        "FormatError", "('alpha').arg.as_int: expected an integer")
    bad("json_int_too_big.pt2",
        pt2_raw_entries(prog=json.dumps(program("-Infinity")).replace('"alpha", "arg": {"as_int": 2}',
                                                                       '"alpha", "arg": {"as_int": 9223372036854775808}').encode()),
        "FormatError", "does not fit in int64")
    bad("json_union_two_members.pt2",
        pt2_raw_entries(prog=mutate_prog(lambda p: nodes(p)[1]["inputs"][1].update(
            arg={"as_tensor": {"name": "b_scale"}, "as_int": 1}))),
        "FormatError", "exactly one member")
    bad("json_unknown_arg_kind.pt2",
        pt2_raw_entries(prog=mutate_prog(lambda p: nodes(p)[1]["inputs"][1].update(arg={"as_quux": 1}))),
        "UnsupportedError", "unknown argument kind 'as_quux'")
    bad("json_float_bad_string.pt2",
        pt2_raw_entries(prog=mutate_prog(lambda p: nodes(p)[2]["inputs"][2].update(arg={"as_float": "big"}))),
        "FormatError", ".as_float: expected a number")
    bad("json_as_graph.pt2",
        pt2_raw_entries(prog=mutate_prog(lambda p: nodes(p)[1]["inputs"][1].update(
            arg={"as_graph": {"name": "true_graph_0", "graph": {}}}))),
        "FormatError", "as_graph.graph: missing field 'inputs'")
    def hop_entries(fn):
        p = hop_program()
        fn(p)
        return {"archive_format": b"pt2", "models/model.json": jdump(p)}
    def hop_node(p, name):
        return next(n for n in G(p)["nodes"] if n["name"] == name)
    bad("json_hop_subgraph_undefined.pt2",
        hop_entries(lambda p: hop_node(p, "cond")["inputs"][1]["arg"]["as_graph"]["graph"]["nodes"][0]["inputs"][1]
                    .update(arg=T("w"))),
        "FormatError", "as_graph.graph: node 'mul' (aten.mul.Tensor), argument 'other': value 'w' is used before")
    bad("json_hop_graph_name_int.pt2",
        hop_entries(lambda p: hop_node(p, "cond")["inputs"][2]["arg"]["as_graph"].update(name=3)),
        "FormatError", "as_graph.name: expected a string")
    bad("json_hop_graph_not_object.pt2",
        hop_entries(lambda p: hop_node(p, "cond")["inputs"][2].update(arg={"as_graph": [1, 2]})),
        "FormatError", "as_graph: expected an object")
    bad("json_hop_subgraph_defines_twice.pt2",
        hop_entries(lambda p: hop_node(p, "wrap_with_set_grad_enabled")["inputs"][1]["arg"]["as_graph"]["graph"]["nodes"][0]
                    .update(outputs=[T("getitem_in")])),
        "FormatError", "value 'getitem_in' is defined twice")
    bad("json_buffer_mutation_wrong_value.pt2",
        pt2_raw_entries(prog=mutate_prog(lambda p: p["graph_module"]["signature"]["output_specs"].__setitem__(
            0, {"buffer_mutation": {"arg": {"name": "b_scale"}, "buffer_name": "scale"}}))),
        "FormatError", "names 'b_scale' but graph output 0 is")
    bad("json_custom_obj_input.pt2",
        pt2_raw_entries(prog=mutate_prog(lambda p: p["graph_module"]["signature"]["input_specs"].__setitem__(
            5, {"custom_obj": {"arg": {"name": "c_zeros", "class_fqn": "x"}, "custom_obj_name": "o"}}))),
        "UnsupportedError", "custom object (torchbind) inputs")
    # Symbolic bools and floats (torch 2.12-2.14, schema 8.20).
    def sym_entries(fn):
        p = symbolic_program()
        fn(p)
        return {"archive_format": b"pt2", "models/model.json": jdump(p)}
    def sym_node(p, name):
        return next(n for n in G(p)["nodes"] if n["name"] == name)
    bad("json_sym_bool_float_member.pt2",
        sym_entries(lambda p: sym_node(p, "scalar_tensor")["inputs"][0].update(arg={"as_sym_bool": {"as_float": 1.0}})),
        "FormatError", "('s').arg.as_sym_bool: unknown member 'as_float'")
    bad("json_sym_bools_named.pt2",
        sym_entries(lambda p: sym_node(p, "scalar_tensor")["inputs"][0].update(
            arg={"as_sym_bools": [{"as_bool": True}, {"as_name": "ge"}]})),
        "UnsupportedError", "as_sym_bools[1]: a list holding symbolic values is not supported")
    bad("json_sym_bool_value_int.pt2",
        sym_entries(lambda p: G(p)["sym_bool_values"].update(ge={"as_int": 1})),
        "FormatError", "sym_bool_values.ge: unknown member 'as_int'")
    bad("json_sym_bool_undefined.pt2",
        sym_entries(lambda p: sym_node(p, "_assert_scalar_default")["inputs"][0].update(
            arg={"as_sym_bool": {"as_name": "nope"}})),
        "FormatError", "nope")
    bad("json_sym_float_list_output.pt2",
        sym_entries(lambda p: sym_node(p, "truediv").update(outputs=[{"as_sym_floats": [{"as_float": 0.5}]}])),
        "FormatError", "a node output must be a tensor, tensor list, symbolic int, bool or float")
    bad("json_sym_bool_name_int.pt2",
        sym_entries(lambda p: sym_node(p, "ge").update(outputs=[{"as_sym_bool": {"as_name": 5}}])),
        "FormatError", "as_sym_bool.as_name: expected a string")
    bad("json_sym_float_value_string.pt2",
        sym_entries(lambda p: G(p)["sym_float_values"].update(truediv={"as_float": "half"})),
        "FormatError", "sym_float_values.truediv.as_float: expected a number")
    # Older schemas (pt2_schema_history.md): the other union encodings and the 2.1 flat signature.
    def v(major):
        return lambda p: p.update(schema_version=major)
    bad("json_s2_union_all_null.pt2",
        legacy_json(mutate_prog(lambda p: (v(2)(p), nodes(p)[1]["inputs"][1].update(
            arg={"as_none": None, "as_tensor": None, "as_int": None})))),
        "FormatError", "all null", writer="py")
    bad("json_s2_union_two_set.pt2",
        legacy_json(mutate_prog(lambda p: (v(2)(p), nodes(p)[1]["inputs"][1].update(
            arg={"as_none": None, "as_tensor": {"name": "b_scale"}, "as_int": 0})))),
        "FormatError", "are both set", writer="py")
    bad("json_s4_type_without_value.pt2",
        legacy_json(mutate_prog(lambda p: nodes(p)[1]["inputs"][1].update(arg={"$type": "as_tensor"}))),
        "FormatError", "must have exactly those two members", writer="py")
    bad("json_s4_type_not_string.pt2",
        legacy_json(mutate_prog(lambda p: nodes(p)[1]["inputs"][1].update(arg={"$type": 5, "$value": 1}))),
        "FormatError", ".$type: expected a string", writer="py")
    bad("json_s1_unbound_input.pt2",
        legacy_json(mutate_prog(lambda p: (flat(p), p["graph_module"]["signature"]["user_inputs"].clear()))),
        "FormatError", "('x') is neither a parameter, a buffer nor a user input", writer="py")
    bad("json_s1_output_count.pt2",
        legacy_json(mutate_prog(lambda p: (flat(p), p["graph_module"]["signature"]["user_outputs"].pop()))),
        "FormatError", "0 buffer mutations and 1 user outputs for 2 graph outputs", writer="py")
    bad("json_s1_backward_signature.pt2",
        legacy_json(mutate_prog(lambda p: (flat(p), p["graph_module"]["signature"].update(backward_signature={
            "gradients_to_parameters": {}, "gradients_to_user_inputs": {}, "loss_output": "add_1"})))),
        "UnsupportedError", "joint forward-backward graphs", writer="py")
    bad("json_s1_tensor_value_meta.pt2",
        legacy_json(mutate_prog(lambda p: (flat(p), G(p)["tensor_values"].update(x={"meta": 5})))),
        "FormatError", "tensor_values.x.meta: expected an object", writer="py")
    bad("json_hint_unknown_member.pt2",
        pt2_raw_entries(prog=mutate_prog(lambda p: G(p)["tensor_values"]["x"].update(
            sizes=[{"as_expr": {"expr_str": "s0", "hint": {"as_str": "2"}}}, sym(4)]))),
        "FormatError", "unknown SymExprHint member 'as_str'")
    bad("json_gradient_output.pt2",
        pt2_raw_entries(prog=mutate_prog(lambda p: p["graph_module"]["signature"]["output_specs"].__setitem__(
            0, {"gradient_to_parameter": {"arg": {"name": "add_1"}, "parameter_name": "fc.weight"}}))),
        "UnsupportedError", "joint forward-backward graphs (gradient_to_parameter)")
    bad("json_schema_0_3.pt2",
        pt2_raw_entries(prog=mutate_prog(lambda p: p.update(schema_version={"major": 0, "minor": 3}))),
        "UnsupportedError", "schema version 0.3")
    bad("json_schema_9.pt2",
        pt2_raw_entries(prog=mutate_prog(lambda p: p.update(schema_version={"major": 9, "minor": 0}))),
        "UnsupportedError", "schema version 9.0")
    bad("json_missing_required_arg.pt2",
        pt2_raw_entries(prog=mutate_prog(lambda p: nodes(p)[1]["inputs"].pop(1))),
        "FormatError", "required argument 'other'")
    bad("json_unknown_arg_name.pt2",
        pt2_raw_entries(prog=mutate_prog(lambda p: nodes(p)[1]["inputs"].append(arg("bogus", {"as_int": 1})))),
        "FormatError", "'bogus' is not in the op's schema")
    bad("json_undefined_value.pt2",
        pt2_raw_entries(prog=mutate_prog(lambda p: nodes(p)[1]["inputs"][1].update(arg=T("nope")))),
        "FormatError", "nope")
    bad("json_signature_length.pt2",
        pt2_raw_entries(prog=mutate_prog(lambda p: p["graph_module"]["signature"]["input_specs"].pop())),
        "FormatError", "inputs but the signature lists")
    bad("json_negative_size.pt2",
        pt2_raw_entries(prog=mutate_prog(lambda p: G(p)["tensor_values"].update(x=meta(F32, [-2, 4])))),
        "FormatError", "negative size -2")
    bad("json_sizes_string.pt2",
        pt2_raw_entries(prog=mutate_prog(lambda p: G(p)["tensor_values"]["x"].update(sizes="2,4"))),
        "FormatError", "tensor_values.x.sizes: expected an array")
    bad("json_meta_bytes_overflow.pt2",
        pt2_raw_entries(prog=mutate_prog(lambda p: G(p)["tensor_values"].update(view=meta(F32, [1 << 40, 1 << 30])))),
        "FormatError", "tensor_values.view.sizes")
    bad("json_metadata_type.pt2",
        pt2_raw_entries(prog=mutate_prog(lambda p: nodes(p)[0].update(metadata={"stack_trace": 7}))),
        "FormatError", "metadata.stack_trace: expected a string")

    # --- raw payloads
    w, wc, c, cc = raw_payloads()
    short = dict(w, weight_0=w["weight_0"][:20])
    bad("weights_short.pt2", pt2_raw_entries(weights=short), "FormatError", "reach element 11")
    def wcfg_with(fqn, **upd):
        cfg = copy.deepcopy(wc)
        cfg["config"][fqn]["tensor_meta"].update(upd)
        return cfg
    bad("weights_huge_sizes.pt2",
        pt2_raw_entries(wcfg=wcfg_with("fc.weight", sizes=[sym(2 ** 62), sym(4)])), "FormatError", "overflow")
    bad("weights_stride0_huge.pt2",
        pt2_raw_entries(wcfg=wcfg_with("fc.weight", sizes=[sym(1 << 40), sym(1 << 20)], strides=[sym(0), sym(0)])),
        "FormatError", "memory limit")
    bad("weights_negative_stride.pt2",
        pt2_raw_entries(wcfg=wcfg_with("fc.weight", strides=[sym(-4), sym(1)])), "FormatError", "negative stride")
    bad("weights_negative_offset.pt2",
        pt2_raw_entries(wcfg=wcfg_with("fc.bias", storage_offset=sym(-3))), "FormatError", "negative storage offset")
    bad("weights_offset_past_end.pt2",
        pt2_raw_entries(wcfg=wcfg_with("fc.bias", storage_offset=sym(2 ** 62))), "FormatError",
        "reach element 4611686018427387906")
    bad("weights_offset_overflow.pt2",
        pt2_raw_entries(wcfg=wcfg_with("fc.bias", storage_offset=sym(2 ** 63 - 1))), "FormatError", "overflow")
    bad("weights_shape_mismatch.pt2",
        pt2_raw_entries(wcfg=wcfg_with("fc.weight", sizes=[sym(4), sym(3)], strides=[sym(3), sym(1)])),
        "FormatError", "has shape [3, 4] in the graph but [4, 3] in its payload")
    bad("weights_dtype_mismatch.pt2",
        pt2_raw_entries(wcfg=wcfg_with("fc.weight", dtype=I64, sizes=[sym(3), sym(2)], strides=[sym(2), sym(1)])),
        "FormatError", "is float32 in the graph but int64 in its payload")
    bad("weights_complex_dtype.pt2", pt2_raw_entries(wcfg=wcfg_with("fc.weight", dtype=C64)),
        "UnsupportedError", "dtype code 10 is not supported")
    cfg = copy.deepcopy(wc)
    del cfg["config"]["fc.weight"]
    bad("weights_missing_param.pt2", pt2_raw_entries(wcfg=cfg), "FormatError",
        "parameter 'fc.weight' (graph input 'p_fc_weight') has no payload")
    cfg = copy.deepcopy(wc)
    cfg["config"]["fc.weight"]["path_name"] = "../weight_0"
    bad("weights_path_dotdot.pt2", pt2_raw_entries(wcfg=cfg), "FormatError", "is not a plain file name")
    cfg = copy.deepcopy(wc)
    cfg["config"]["fc.weight"]["path_name"] = "weight_9"
    bad("weights_payload_missing.pt2", pt2_raw_entries(wcfg=cfg), "FormatError", "payload file is missing")
    cfg = copy.deepcopy(cc)
    cfg["config"]["zeros"]["tensor_meta"] = meta(F32, [1 << 40, 1 << 10])
    bad("weights_zero_payload_huge.pt2", pt2_raw_entries(ccfg=cfg), "FormatError", "memory limit")
    bad("weights_config_not_object.pt2", pt2_raw_entries(wcfg={"config": []}), "FormatError",
        "$.config: expected an object")

    # --- pickled weights (legacy layout)
    storage = b"\x00" * 48
    header = b"}q\x00(X\t\x00\x00\x00fc.weightq\x01"
    os_system = pickle_bytes(b"cos\nsystem\nX\x02\x00\x00\x00lsq\x00\x85R")
    bad("pickle_os_system.pt2", legacy_with(tsave_with_pickle(os_system)), "FormatError",
        "forbidden global 'os system'", writer="py")
    builtins_eval = pickle_bytes(b"c__builtin__\neval\nX\x01\x00\x00\x001\x85R")
    bad("pickle_builtin_eval.pt2", legacy_with(tsave_with_pickle(builtins_eval)), "FormatError",
        "forbidden global '__builtin__ eval'", writer="py")
    real = tsave(torch_weights()[0])
    z = zipfile.ZipFile(io.BytesIO(real))
    real_pkl = z.read([n for n in z.namelist() if n.endswith("data.pkl")][0])
    bad("pickle_truncated.pt2", legacy_with(tsave_with_pickle(real_pkl[: len(real_pkl) // 2])),
        "FormatError", "truncated", writer="py")
    # A tensor of 12 floats over a 4-byte storage record.
    def tensor_pickle(numel, sizes, strides, offset=0, key=b"0"):
        tup = lambda xs: b"(" + b"".join(b"K" + bytes([x]) if 0 <= x < 256 else b"J" + struct.pack("<i", x) for x in xs) + b"t"
        return pickle_bytes(
            b"ccollections\nOrderedDict\n)R(X\t\x00\x00\x00fc.weight"
            b"ctorch._utils\n_rebuild_tensor_v2\n("
            b"(X\x07\x00\x00\x00storagectorch\nFloatStorage\nX" + struct.pack("<I", len(key)) + key +
            b"X\x03\x00\x00\x00cpuJ" + struct.pack("<i", numel) + b"tQ"
            b"J" + struct.pack("<i", offset) + tup(sizes) + tup(strides) +
            b"\x89ccollections\nOrderedDict\n)RtRu")
    bad("pickle_storage_short.pt2",
        legacy_with(tsave_with_pickle(tensor_pickle(12, [3, 4], [4, 1]), {"0": b"\x00" * 4})),
        "FormatError", "storage holds 4 bytes but the pickle declares 12 float32 elements", writer="py")
    bad("pickle_view_outside.pt2",
        legacy_with(tsave_with_pickle(tensor_pickle(12, [3, 4], [4, 1], offset=5), {"0": b"\x00" * 48})),
        "FormatError", "reach element 16", writer="py")
    bad("pickle_negative_numel.pt2",
        legacy_with(tsave_with_pickle(tensor_pickle(-5, [3, 4], [4, 1]), {"0": b"\x00" * 48})),
        "FormatError", "negative size -5", writer="py")
    bad("pickle_key_dotdot.pt2",
        legacy_with(tsave_with_pickle(tensor_pickle(12, [3, 4], [4, 1], key=b".."), {"0": b"\x00" * 48})),
        "FormatError", "is not a plain record name", writer="py")
    bad("pickle_storage_missing.pt2",
        legacy_with(tsave_with_pickle(tensor_pickle(12, [3, 4], [4, 1], key=b"7"), {"0": b"\x00" * 48})),
        "FormatError", "storage '7' has no record", writer="py")
    bad("pickle_memo_missing.pt2", legacy_with(tsave_with_pickle(pickle_bytes(b"h\x05"))), "FormatError",
        "memo key 5 was never stored", writer="py")
    bad("pickle_bad_opcode.pt2", legacy_with(tsave_with_pickle(pickle_bytes(b"i"))), "FormatError",
        "unsupported pickle opcode 0x69", writer="py")
    bad("pickle_long1_huge.pt2", legacy_with(tsave_with_pickle(pickle_bytes(b"\x8a\x09" + b"\x01" * 9))),
        "FormatError", "does not fit in int64", writer="py")
    bad("pickle_stack_underflow.pt2", legacy_with(tsave_with_pickle(pickle_bytes(b"R"))), "FormatError",
        "stack underflow", writer="py")
    bad("pickle_root_list.pt2", legacy_with(tsave_with_pickle(pickle_bytes(b"]"))), "FormatError",
        "expected a dict of tensors, got a list", writer="py")
    bad("pickle_complex_storage.pt2",
        legacy_with(tsave_with_pickle(pickle_bytes(b"ctorch\nComplexFloatStorage\n"))), "UnsupportedError",
        "torch.ComplexFloatStorage", writer="py")
    nopkl = io.BytesIO()
    with zipfile.ZipFile(nopkl, "w") as zz:
        zz.writestr("archive/version", b"3\n")
    bad("pickle_no_data_pkl.pt2", legacy_with(nopkl.getvalue()), "FormatError", "must hold data.pkl", writer="py")
    bad("legacy_bad_version.pt2", dict(legacy_with(real), version=b"eight"), "FormatError",
        "'eight' is not a version number", writer="py")
    bad("legacy_state_dict_not_zip.pt2", legacy_with(b"garbage" * 10), "FormatError",
        "serialized_state_dict.pt: not a valid zip archive", writer="py")

    with open(os.path.join(HERE, "expected.tsv"), "w") as f:
        f.write("# file\terror class\tmessage substring (generated by make_corpus.py)\n")
        for name, cls, sub in EXPECTED:
            f.write("%s\t%s\t%s\n" % (name, cls, sub))


if __name__ == "__main__":
    for d in (VALID, BAD):
        shutil.rmtree(d, ignore_errors=True)
    make_valid()
    make_bad()
    print("corpus: %d valid, %d bad" % (len(os.listdir(VALID)), len(EXPECTED)))
