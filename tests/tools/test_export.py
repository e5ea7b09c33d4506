"""Tests of the Python exporter (python/atenrt) and the fixture generator.

Run: /usr/bin/python3 -m unittest discover -s tests/tools
"""
import io
import json
import os
import struct
import sys
import tempfile
import unittest
import zipfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils._pytree as pytree

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, HERE)

import atenrt  # noqa: E402
import make_fixtures  # noqa: E402
from atenrt._archive import SCHEMA_VERSIONS  # noqa: E402
from atenrt._schema import SCALAR_TYPE  # noqa: E402
from fnv import fnv1a64_hex  # noqa: E402

QUICK = [n for n, (_, _, quick) in make_fixtures.MODELS.items() if quick]
DTYPE_OF = {v: k for k, v in SCALAR_TYPE.items()}


def _root(zf):
    first = zf.namelist()[0]
    root = first.split("/", 1)[0] + "/" if "/" in first else ""
    return root if all(n.startswith(root) for n in zf.namelist()) else ""


def _read(zf, name):
    return zf.read(_root(zf) + name)


def _state(name):
    factory, inputs_factory, _ = make_fixtures.MODELS[name]
    torch.manual_seed(0)
    model = factory().eval()
    return model, inputs_factory()


def _lifted(exported):
    return {s.target: s.tensor for s in exported.traced.slots if s.kind != "user_input"}


class FixtureTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = cls.tmp.name
        for name in QUICK:
            make_fixtures.make(name, cls.dir)
        cls.exported = {}
        for name in QUICK:
            model, inputs = _state(name)
            cls.exported[name] = (model, inputs, atenrt.export(model, inputs))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def path(self, name, layout):
        return os.path.join(self.dir, f"{name}.{layout}.pt2")

    def program(self, name, layout):
        with zipfile.ZipFile(self.path(name, layout)) as zf:
            record = "serialized_exported_program.json" if layout == "legacy" else "models/model.json"
            return json.loads(_read(zf, record))

    # ------------------------------------------------------------------------------ containers
    def test_archives_open_and_crc_ok(self):
        for name in QUICK:
            for layout in atenrt.LAYOUTS:
                with zipfile.ZipFile(self.path(name, layout)) as zf:
                    self.assertIsNone(zf.testzip(), f"{name}.{layout}")
                    for info in zf.infolist():
                        self.assertEqual(info.compress_type, zipfile.ZIP_STORED)

    def test_layout_files(self):
        for name in QUICK:
            with zipfile.ZipFile(self.path(name, "pt2")) as zf:
                self.assertEqual(_root(zf), f"{name}.pt2/")
                self.assertEqual(_read(zf, "archive_format"), b"pt2")
                self.assertEqual(_read(zf, "archive_version"), b"0")
                self.assertEqual(_read(zf, "byteorder"), b"little")
                for kind, prefix in (("weights", "model_weights"), ("constants", "model_constants")):
                    config = json.loads(_read(zf, f"data/{kind}/{prefix}_config.json"))["config"]
                    for entry in config.values():
                        self.assertFalse(entry["use_pickle"])
                        _read(zf, f"data/{kind}/{entry['path_name']}")     # raises KeyError if absent
                self.assertNotIn(_root(zf) + "data/weights/model.pt", zf.namelist())
                torch.load(io.BytesIO(_read(zf, "data/sample_inputs/model.pt")))
            with zipfile.ZipFile(self.path(name, "pt2-pickle")) as zf:
                self.assertEqual(_root(zf), f"{name}.pt2-pickle/")
                self.assertEqual(_read(zf, "archive_format"), b"pt2")
                names = {n[len(_root(zf)):] for n in zf.namelist()}
                self.assertTrue({"models/model.json", "data/weights/model.pt", "data/constants/model.pt",
                                 "data/sample_inputs/model.pt"} <= names)
                self.assertFalse(any(n.endswith("_config.json") for n in names))
            with zipfile.ZipFile(self.path(name, "legacy")) as zf:
                self.assertEqual(_root(zf), "")
                self.assertEqual(set(zf.namelist()), {
                    "serialized_exported_program.json", "serialized_state_dict.pt",
                    "serialized_constants.pt", "serialized_example_inputs.pt", "version"})
                self.assertEqual(zf.read("version"), b"8.7")
                for info in zf.infolist():
                    self.assertEqual(info.flag_bits & 0x08, 0, "Python zipfile writes no data descriptors")

    def test_pt2_payloads_aligned_with_descriptors_and_zip64(self):
        for layout in ("pt2", "pt2-pickle"):
            for name in QUICK:
                with open(self.path(name, layout), "rb") as f:
                    data = f.read()
                self.assertIn(b"PK\x06\x06", data)
                self.assertIn(b"PK\x06\x07", data)
                with zipfile.ZipFile(io.BytesIO(data)) as zf:
                    for info in zf.infolist():
                        off = info.header_offset
                        self.assertEqual(data[off:off + 4], b"PK\x03\x04")
                        flags, = struct.unpack_from("<H", data, off + 6)
                        self.assertEqual(flags & 0x0808, 0x0808, info.filename)
                        crc, csize, usize = struct.unpack_from("<III", data, off + 14)
                        self.assertEqual((crc, csize, usize), (0, 0, 0), "sizes live in the descriptor")
                        name_len, extra_len = struct.unpack_from("<HH", data, off + 26)
                        start = off + 30 + name_len + extra_len
                        self.assertEqual(start % 64, 0, f"{info.filename} payload at {start}")
                        self.assertEqual(data[start:start + info.file_size], zf.read(info))

    # ------------------------------------------------------------------------------------ JSON
    def test_json_structure(self):
        for name in QUICK:
            for layout, version in SCHEMA_VERSIONS.items():
                prog = self.program(name, layout)
                self.assertEqual(list(prog), ["graph_module", "opset_version", "range_constraints",
                                              "schema_version", "verifiers", "torch_version", "guards_code"])
                self.assertEqual(prog["schema_version"], {"major": version[0], "minor": version[1]})
                self.assertEqual(prog["opset_version"], {"aten": 10})
                self.assertEqual(prog["torch_version"], "1.13.1")
                gm = prog["graph_module"]
                self.assertEqual(gm["module_call_graph"], [{"fqn": "", "signature": None}])
                graph, sig = gm["graph"], gm["signature"]
                self.assertEqual(len(graph["inputs"]), len(sig["input_specs"]))
                self.assertEqual(len(graph["outputs"]), len(sig["output_specs"]))
                values = graph["tensor_values"]
                for arg in graph["inputs"]:
                    self.assertIn(arg["as_tensor"]["name"], values)
                for node in graph["nodes"]:
                    self.assertEqual(list(node), ["target", "inputs", "outputs", "metadata",
                                                  "is_hop_single_tensor_return", "name"])
                    self.assertTrue(node["target"].startswith("torch.ops.aten."), node["target"])
                    for inp in node["inputs"]:
                        self.assertIn(inp["kind"], (1, 2))
                        self.assertEqual(len(inp["arg"]), 1)
                        for ref in _tensor_refs(inp["arg"]):
                            self.assertIn(ref, values, f"{node['name']}.{inp['name']}")
                    for out in node["outputs"]:
                        for ref in _tensor_refs(out):
                            self.assertIn(ref, values)
                    self.assertNotIn(node["target"], ("torch.ops.aten.detach.default",
                                                      "torch.ops.aten._reshape_alias.default"))

    def test_placeholder_names_and_specs(self):
        sig = self.program("strided", "pt2")["graph_module"]["signature"]["input_specs"]
        kinds = [(next(iter(s)), next(iter(s.values()))) for s in sig]
        self.assertEqual([k for k, _ in kinds], ["parameter", "buffer", "buffer", "buffer", "buffer",
                                                 "tensor_constant", "tensor_constant", "user_input"])
        self.assertEqual(kinds[0][1], {"arg": {"name": "p_wt"}, "parameter_name": "wt"})
        scale = [v for k, v in kinds if k == "buffer" and v["buffer_name"] == "scale"][0]
        self.assertEqual(scale, {"arg": {"name": "b_scale"}, "buffer_name": "scale", "persistent": False})
        self.assertEqual(kinds[5][1], {"arg": {"name": "c_table"}, "tensor_constant_name": "table"})
        self.assertEqual(kinds[6][1], {"arg": {"name": "c_lifted_tensor_0"},
                                       "tensor_constant_name": "lifted_tensor_0"})
        self.assertEqual(kinds[7][1], {"arg": {"as_tensor": {"name": "x"}}})

    def test_tuple_outputs_named_after_getitem_and_unused(self):
        nodes = self.program("tiny_cnn", "pt2")["graph_module"]["graph"]["nodes"]
        bn = [n for n in nodes if n["target"] == "torch.ops.aten.native_batch_norm.default"][0]
        self.assertEqual(len(bn["outputs"]), 3)
        self.assertEqual(bn["outputs"][1], {"as_tensor": {"name": f"{bn['name']}_unused_1"}})
        used = bn["outputs"][0]["as_tensor"]["name"]
        self.assertTrue(any(_tensor_refs(i["arg"]) == [used] for n in nodes for i in n["inputs"]))
        nodes = self.program("transformer", "pt2")["graph_module"]["graph"]["nodes"]
        split = [n for n in nodes if n["target"] == "torch.ops.aten.split.Tensor"][0]
        self.assertEqual(len(split["outputs"]), 1)
        self.assertEqual(len(split["outputs"][0]["as_tensors"]), 3)

    def test_default_arguments_omitted(self):
        from atenrt._schema import declared_types, encode
        from atenrt._serialize import full_arguments
        for name in QUICK:
            _, _, exported = self.exported[name]
            for fx_node, node in exported.call_nodes():
                if not isinstance(fx_node.target, torch._ops.OpOverload):
                    continue
                full = full_arguments(fx_node)
                written = {i["name"]: i for i in node["inputs"]}
                positional = [a for a in full if not a[0].kwarg_only]
                for arg, _, value, default in full:
                    if arg.name in written:
                        self.assertEqual(written[arg.name]["arg"], value)
                        self.assertEqual(written[arg.name]["kind"], 2 if arg.kwarg_only else 1)
                    else:
                        self.assertEqual(value, default, f"{node['name']}.{arg.name} omitted but not default")
                    if arg.kwarg_only and arg.name in written:
                        self.assertNotEqual(value, default)
                if positional:
                    last = positional[len([a for a in node["inputs"] if a["kind"] == 1]) - 1]
                    self.assertTrue(last[3] is None or last[2] != last[3], "trailing default written")
                self.assertEqual(len(declared_types(fx_node.target)), len(full))
        self.assertEqual(encode(0, _argtype("MemoryFormat"), "t"), {"as_memory_format": 1})
        nodes = self.program("transformer", "pt2")["graph_module"]["graph"]["nodes"]
        gelu = [n for n in nodes if n["target"] == "torch.ops.aten.gelu.default"][0]
        self.assertEqual([i["name"] for i in gelu["inputs"]], ["self"])
        exp = _load_json(os.path.join(self.dir, "transformer.expected.json"))
        gelu = [n for n in exp["nodes"] if n["target"] == "aten.gelu.default"][0]
        self.assertEqual(gelu["inputs"][1], {"name": "approximate", "value": {"as_string": "none"}})

    def test_non_default_keyword_arguments_written(self):
        class M(nn.Module):
            def forward(self, x):
                return F.gelu(x, approximate="tanh"), torch.sum(x, 1, dtype=torch.float64), F.leaky_relu(x)
        exported = atenrt.export(M(), (torch.randn(2, 3),))
        nodes = {n["target"]: n for n in exported.program["graph_module"]["graph"]["nodes"]}
        gelu = nodes["torch.ops.aten.gelu.default"]["inputs"]
        self.assertEqual(gelu[1], {"name": "approximate", "arg": {"as_string": "tanh"}, "kind": 2})
        total = nodes["torch.ops.aten.sum.dim_IntList"]["inputs"]
        self.assertEqual(total[-1], {"name": "dtype", "arg": {"as_scalar_type": 8}, "kind": 2})
        self.assertEqual([i["name"] for i in total], ["self", "dim", "dtype"])   # keepdim=False omitted
        self.assertEqual([i["name"] for i in nodes["torch.ops.aten.leaky_relu.default"]["inputs"]], ["self"])

    def test_non_finite_floats_as_strings(self):
        text = json.dumps(atenrt._schema.json_safe({"a": float("inf"), "b": [float("-inf"), float("nan")]}))
        self.assertEqual(text, '{"a": "Infinity", "b": ["-Infinity", "NaN"]}')
        with zipfile.ZipFile(self.path("transformer", "pt2")) as zf:
            raw = _read(zf, "models/model.json").decode()
        self.assertIn('{"as_float": "-Infinity"}', raw)          # masked_fill with -inf

    # --------------------------------------------------------------------------------- weights
    def test_weights_byte_equal_pt2(self):
        for name in QUICK:
            lifted = _lifted(self.exported[name][2])
            with zipfile.ZipFile(self.path(name, "pt2")) as zf:
                seen = set()
                for kind, prefix in (("weights", "model_weights"), ("constants", "model_constants")):
                    config = json.loads(_read(zf, f"data/{kind}/{prefix}_config.json"))["config"]
                    for fqn, entry in config.items():
                        seen.add(fqn)
                        ref = lifted[fqn]
                        payload = _read(zf, f"data/{kind}/{entry['path_name']}")
                        storage = ref.storage().untyped()
                        self.assertEqual(payload, bytes(storage_bytes(ref)), fqn)
                        meta = entry["tensor_meta"]
                        dtype = DTYPE_OF[meta["dtype"]]
                        flat = torch.frombuffer(bytearray(payload), dtype=dtype) if payload else torch.empty(0, dtype=dtype)
                        got = flat.as_strided([s["as_int"] for s in meta["sizes"]],
                                              [s["as_int"] for s in meta["strides"]],
                                              meta["storage_offset"]["as_int"])
                        self.assertEqual(got.dtype, ref.dtype)
                        self.assertTrue(torch.equal(got, ref.detach()), fqn)
                        self.assertEqual(got.stride(), ref.stride())
                        self.assertEqual(entry["is_param"], isinstance(ref, nn.Parameter))
                        self.assertEqual(storage.nbytes(), len(payload))
                self.assertEqual(seen, set(lifted))

    def test_weights_equal_pickle_layouts(self):
        for name in QUICK:
            lifted = _lifted(self.exported[name][2])
            for layout, records in (("pt2-pickle", ("data/weights/model.pt", "data/constants/model.pt")),
                                    ("legacy", ("serialized_state_dict.pt", "serialized_constants.pt"))):
                with zipfile.ZipFile(self.path(name, layout)) as zf:
                    loaded = {}
                    for record in records:
                        loaded.update(torch.load(io.BytesIO(_read(zf, record))))
                self.assertEqual(set(loaded), set(lifted), f"{name}.{layout}")
                for fqn, t in loaded.items():
                    self.assertEqual(t.dtype, lifted[fqn].dtype)
                    self.assertEqual(t.stride(), lifted[fqn].stride())
                    self.assertEqual(t.storage_offset(), lifted[fqn].storage_offset())
                    self.assertTrue(torch.equal(t, lifted[fqn].detach()), f"{name}.{layout}:{fqn}")

    def test_aliasing_kept(self):
        with zipfile.ZipFile(self.path("strided", "pt2")) as zf:
            config = json.loads(_read(zf, "data/weights/model_weights_config.json"))["config"]
        self.assertEqual(config["wt"]["path_name"], config["wt_rows"]["path_name"])
        self.assertEqual(config["va"]["path_name"], config["vb"]["path_name"])
        self.assertNotEqual(config["wt"]["path_name"], config["va"]["path_name"])
        self.assertEqual(config["wt"]["tensor_meta"]["strides"], [{"as_int": 1}, {"as_int": 6}])
        self.assertEqual(config["wt_rows"]["tensor_meta"]["storage_offset"], {"as_int": 1})
        self.assertEqual(config["va"]["tensor_meta"]["storage_offset"], {"as_int": 2})
        self.assertEqual(config["vb"]["tensor_meta"]["storage_offset"], {"as_int": 6})
        self.assertEqual(config["vb"]["tensor_meta"]["strides"], [{"as_int": 2}])
        for layout, record in (("pt2-pickle", "data/weights/model.pt"), ("legacy", "serialized_state_dict.pt")):
            with zipfile.ZipFile(self.path("strided", layout)) as zf:
                sd = torch.load(io.BytesIO(_read(zf, record)))
            self.assertEqual(sd["va"].storage().data_ptr(), sd["vb"].storage().data_ptr())
            self.assertEqual(sd["wt"].storage().data_ptr(), sd["wt_rows"].storage().data_ptr())
            self.assertEqual(sd["vb"].storage_offset(), 6)

    # ---------------------------------------------------------------------------- expected.json
    def test_expected_json(self):
        for name in QUICK:
            exp = _load_json(os.path.join(self.dir, f"{name}.expected.json"))
            self.assertEqual(list(exp), ["nodes", "inputs", "outputs", "signature", "weights"])
            prog = self.program(name, "pt2")
            graph = prog["graph_module"]["graph"]
            self.assertEqual(exp["inputs"], graph["inputs"])
            self.assertEqual(exp["outputs"], graph["outputs"])
            self.assertEqual(exp["signature"], prog["graph_module"]["signature"])
            self.assertEqual(len(exp["nodes"]), len(graph["nodes"]))
            for e, n in zip(exp["nodes"], graph["nodes"]):
                self.assertEqual(e["name"], n["name"])
                self.assertEqual("torch.ops." + e["target"], n["target"])
                self.assertEqual(e["outputs"], n["outputs"])
                op = eval("torch.ops." + e["target"])
                self.assertEqual([i["name"] for i in e["inputs"]], [a.name for a in op._schema.arguments])
                full = {i["name"]: i["value"] for i in e["inputs"]}
                for i in n["inputs"]:
                    self.assertEqual(full[i["name"]], i["arg"])
            lifted = _lifted(self.exported[name][2])
            self.assertEqual(set(exp["weights"]), set(lifted))
            for fqn, w in exp["weights"].items():
                t = lifted[fqn].detach()
                self.assertEqual(w["sizes"], list(t.shape))
                self.assertEqual(w["dtype"], make_fixtures.DTYPE_NAMES[t.dtype])
                self.assertRegex(w["fnv1a64"], r"^[0-9a-f]{16}$")
                if t.is_contiguous() and t.storage_offset() == 0 and t.numel() * t.element_size() == \
                        t.storage().untyped().nbytes():
                    self.assertEqual(w["fnv1a64"], fnv1a64_hex(bytes(storage_bytes(t))), fqn)
        dtypes = _load_json(os.path.join(self.dir, "dtypes.expected.json"))["weights"]
        self.assertEqual({w["dtype"] for w in dtypes.values()}, set(make_fixtures.DTYPE_NAMES.values()))

    def test_npz_and_graph_matches_eager(self):
        for name in QUICK:
            model, inputs, exported = self.exported[name]
            saved_in = np.load(os.path.join(self.dir, f"{name}.inputs.npz"))
            for i, x in enumerate(inputs):
                np.testing.assert_array_equal(saved_in[f"arr_{i}"], x.numpy())
            saved_out = np.load(os.path.join(self.dir, f"{name}.outputs.npz"))
            state = [s.tensor for s in exported.traced.slots if s.kind != "user_input"]
            with torch.no_grad():
                got = pytree.tree_flatten(exported.graph_module(*state, *inputs))[0]
            self.assertEqual(len(saved_out.files), len(got))
            for i, t in enumerate(got):
                np.testing.assert_allclose(saved_out[f"arr_{i}"], t.numpy(), rtol=1e-5, atol=1e-5,
                                           err_msg=f"{name} output {i}")


def _load_json(path):
    with open(path) as f:
        return json.load(f)


def storage_bytes(t):
    import ctypes
    storage = t.storage().untyped()
    return ctypes.string_at(storage.data_ptr(), storage.nbytes()) if storage.nbytes() else b""


def _argtype(text):
    from atenrt._schema import ArgType
    return ArgType(text)


def _tensor_refs(arg):
    if "as_tensor" in arg:
        return [arg["as_tensor"]["name"]]
    if "as_tensors" in arg:
        return [t["name"] for t in arg["as_tensors"]]
    if "as_optional_tensors" in arg:
        return [t["as_tensor"]["name"] for t in arg["as_optional_tensors"] if "as_tensor" in t]
    return []


class ExporterTest(unittest.TestCase):
    def test_in_place_ops_functionalized(self):
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(3, 3, 1)
                self.relu = nn.ReLU(inplace=True)

            def forward(self, x):
                y = self.conv(x)
                y += x
                return self.relu(y)
        model, x = M().eval(), torch.randn(1, 3, 4, 4)
        exported = atenrt.export(model, (x,))
        targets = [n["target"] for n in exported.program["graph_module"]["graph"]["nodes"]]
        self.assertEqual(targets, ["torch.ops.aten.convolution.default", "torch.ops.aten.add.Tensor",
                                   "torch.ops.aten.relu.default"])
        state = [s.tensor for s in exported.traced.slots if s.kind != "user_input"]
        with torch.no_grad():
            self.assertTrue(torch.allclose(exported.graph_module(*state, x), model(x)))

    def test_slice_assignment_kept(self):
        # a fill_ into a slice has no users; plain FX dead-code elimination would drop it (swin_t's mask)
        class M(nn.Module):
            def forward(self, x):
                mask = x.new_zeros((4, 4))
                mask[1:3, -2:] = 5.0
                return x + mask
        x = torch.randn(4, 4)
        exported = atenrt.export(M(), (x,))
        targets = [n["target"] for n in exported.program["graph_module"]["graph"]["nodes"]]
        self.assertFalse(any(t.endswith("_.Scalar") or t.endswith("_.Tensor") or "copy_" in t for t in targets))
        state = [s.tensor for s in exported.traced.slots if s.kind != "user_input"]
        self.assertTrue(torch.equal(exported.graph_module(*state, x), M()(x)))

    def test_mha_composite_not_fused(self):
        mha = nn.MultiheadAttention(16, 2, batch_first=True).eval()
        x = torch.randn(1, 5, 16)
        exported = atenrt.export(_SelfAttention(mha), (x,))
        targets = {n["target"] for n in exported.program["graph_module"]["graph"]["nodes"]}
        self.assertNotIn("torch.ops.aten._native_multi_head_attention.default", targets)
        self.assertIn("torch.ops.aten.bmm.default", targets)

    def test_tied_parameter_lifted_once(self):
        class Tied(nn.Module):
            def __init__(self):
                super().__init__()
                self.a = nn.Linear(4, 4)
                self.b = self.a

            def forward(self, x):
                return self.b(self.a(x))
        exported = atenrt.export(Tied(), (torch.randn(2, 4),))
        specs = exported.program["graph_module"]["signature"]["input_specs"]
        self.assertEqual([s["parameter"]["parameter_name"] for s in specs if "parameter" in s], ["a.weight", "a.bias"])

    def test_unused_tensor_attribute_not_lifted(self):
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.used = torch.ones(3)
                self.unused = torch.zeros(3)

            def forward(self, x):
                return x + self.used
        exported = atenrt.export(M(), (torch.randn(3),))
        specs = exported.program["graph_module"]["signature"]["input_specs"]
        self.assertEqual(specs, [{"tensor_constant": {"arg": {"name": "c_used"}, "tensor_constant_name": "used"}},
                                 {"user_input": {"arg": {"as_tensor": {"name": "x"}}}}])
        self.assertEqual([n.op for n in exported.graph_module.graph.nodes],
                         ["placeholder", "placeholder", "call_function", "output"])

    def test_save_writes_each_layout(self):
        with tempfile.TemporaryDirectory() as tmp:
            for layout in atenrt.LAYOUTS:
                path = os.path.join(tmp, f"m_{layout}.pt2")
                atenrt.save(nn.Linear(3, 2), (torch.randn(1, 3),), path, layout=layout)
                self.assertTrue(zipfile.is_zipfile(path))
            with self.assertRaisesRegex(ValueError, "unknown layout"):
                atenrt.save(nn.Linear(3, 2), (torch.randn(1, 3),), os.path.join(tmp, "x.pt2"), layout="zip")

    def test_clear_errors(self):
        class DataDependent(nn.Module):
            def forward(self, x):
                return x * 2 if x.sum() > 0 else x
        class IntOutput(nn.Module):
            def forward(self, x):
                return x + 1, 3
        class MutatesInput(nn.Module):
            def forward(self, x):
                x.add_(1)
                return x * 2
        class Unique(nn.Module):
            def forward(self, x):
                return torch.unique(x)
        class ItemSize(nn.Module):
            def forward(self, x):
                return x.new_zeros(int(x.sum().item()))
        x = torch.randn(2, 2)
        for module, pattern in ((DataDependent(), "tracing DataDependent failed"),
                                (Unique(), "DynamicOutputShapeException.*torch 1.13 cannot trace an op whose output size"),
                                (ItemSize(), "tracing ItemSize failed.*item\\(\\) on a traced value"),
                                (IntOutput(), "output 1 is a constant int"),
                                (MutatesInput(), "mutates 'x' in place")):
            with self.assertRaisesRegex(atenrt.ExportError, pattern):
                atenrt.export(module, (x,))
        with self.assertRaisesRegex(atenrt.ExportError, "example input 0 is a int"):
            atenrt.export(nn.Identity(), (3,))
        with self.assertRaisesRegex(atenrt.ExportError, "expected a torch.nn.Module"):
            atenrt.export(lambda t: t, (x,))


class _SelfAttention(nn.Module):
    def __init__(self, mha):
        super().__init__()
        self.mha = mha

    def forward(self, x):
        return self.mha(x, x, x, need_weights=False)[0]


if __name__ == "__main__":
    unittest.main()
