"""The exporter's writers for older torch.export schemas (atenrt/_schema_versions.py).

Each fixture variant must have the shape its schema's definition gives it (union encoding,
signature form, version fields, record names) and hold the same weights, byte for byte, as the
module. The C++ round-trip test then reads every variant against PyTorch's expectations.

Run: /usr/bin/python3 -m unittest discover -s tests/tools
"""
import io
import json
import os
import sys
import tempfile
import unittest
import zipfile

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, HERE)

import atenrt  # noqa: E402
import make_fixtures  # noqa: E402
from atenrt import _schema_versions  # noqa: E402

OLD = ["legacy_s8_2", "legacy_s5", "legacy_s4", "legacy_s2", "legacy_s1"]


def _unions(obj, path=""):
    """Yield (path, dict) for every Argument union in a program's graph nodes."""
    for n in obj["graph_module"]["graph"]["nodes"]:
        for i in n["inputs"]:
            yield f"{n['target']}.{i['name']}", i["arg"]
        for o in n["outputs"]:
            yield f"{n['target']}.out", o


class SchemaVersionsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = cls.tmp.name
        for name in ("strided", "tiny_cnn"):
            make_fixtures.make(name, cls.dir)
        torch.manual_seed(0)
        model, inputs = make_fixtures.MODELS["strided"][0]().eval(), make_fixtures.MODELS["strided"][1]()
        cls.strided = atenrt.export(model, inputs)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def zf(self, name, variant):
        return zipfile.ZipFile(os.path.join(self.dir, f"{name}.{variant}.pt2"))

    def program(self, name, variant):
        with self.zf(name, variant) as zf:
            return json.loads(zf.read("serialized_exported_program.json"))

    def test_records_and_version(self):
        expect = {
            "legacy_s8_2": ({"serialized_exported_program.json", "serialized_state_dict.pt",
                             "serialized_constants.pt", "serialized_example_inputs.pt", "version"}, b"8.2"),
            "legacy_s5": ({"serialized_exported_program.json", "serialized_state_dict.pt",
                           "serialized_constants.pt", "serialized_example_inputs.pt", "version"}, b"5.3"),
            "legacy_s4": ({"serialized_exported_program.json", "serialized_state_dict.json",
                           "serialized_constants.json", "version"}, b"4.1"),
            "legacy_s2": ({"serialized_exported_program.json", "serialized_state_dict.json",
                           "serialized_constants.json", "version"}, b"2"),
            "legacy_s1": ({"serialized_exported_program.json", "serialized_state_dict.json", "version"}, b"1"),
        }
        for variant, (records, version) in expect.items():
            with self.zf("tiny_cnn", variant) as zf:
                self.assertEqual(set(zf.namelist()), records, variant)
                self.assertEqual(zf.read("version"), version, variant)
                state = [r for r in records if r.startswith("serialized_state_dict")][0]
                self.assertEqual(zf.read(state)[:2], b"PK", "the state dict is a torch.save zip whatever its name")

    def test_top_level_fields(self):
        self.assertEqual(list(self.program("tiny_cnn", "legacy_s1")),
                         ["graph_module", "opset_version", "range_constraints", "equality_constraints",
                          "schema_version", "example_inputs"])
        self.assertEqual(self.program("tiny_cnn", "legacy_s1")["schema_version"], 1)
        p2 = self.program("tiny_cnn", "legacy_s2")
        self.assertEqual((p2["schema_version"], p2["dialect"]), (2, "ATEN"))
        self.assertNotIn("verifiers", p2)
        self.assertEqual(self.program("tiny_cnn", "legacy_s4")["schema_version"], {"major": 4, "minor": 1})
        p5 = self.program("tiny_cnn", "legacy_s5")
        self.assertEqual(p5["schema_version"], {"major": 5, "minor": 3})
        self.assertNotIn("torch_version", p5)
        self.assertEqual(p5["graph_module"]["module_call_graph"], [{"fqn": ""}])   # None omitted
        self.assertEqual(self.program("tiny_cnn", "legacy_s8_2")["schema_version"], {"major": 8, "minor": 2})

    def test_union_encodings(self):
        for _, u in _unions(self.program("tiny_cnn", "legacy_s2")):
            self.assertEqual(len(u), 22, "schema 2 writes every Argument member")
            self.assertEqual(sum(v is not None for v in u.values()), 1)
        for _, u in _unions(self.program("tiny_cnn", "legacy_s4")):
            self.assertEqual(set(u), {"$type", "$value"})
        for variant in ("legacy_s5", "legacy_s8_2"):
            for _, u in _unions(self.program("tiny_cnn", variant)):
                self.assertEqual(len(u), 1)
        none = {"as_none": True}
        optional = {"as_optional_tensors": [{"as_none": True}, {"as_tensor": {"name": "x"}}]}
        w = {v: _schema_versions._Writer(v) for v in ((1, 0), (2, 0), (4, 1), (5, 3), (8, 2), (8, 3))}
        self.assertEqual(w[(5, 3)].argument(none), {"as_none": []})
        self.assertEqual(w[(8, 2)].argument(none), {"as_none": []})
        self.assertEqual(w[(8, 3)].argument(none), {"as_none": True})
        self.assertEqual(w[(4, 1)].argument(none), {"$type": "as_none", "$value": []})
        s2 = w[(2, 0)].argument(optional)["as_optional_tensors"]
        self.assertEqual(s2, [{"as_tensor": None, "as_none": []}, {"as_tensor": "x", "as_none": None}])
        self.assertEqual(w[(5, 3)].argument(optional)["as_optional_tensors"],
                         [{"as_none": []}, {"as_tensor": {"name": "x"}}])
        self.assertEqual(w[(1, 0)].argument(none)["as_none"], [])

    def test_graph_and_signature_shapes(self):
        s1 = self.program("strided", "legacy_s1")
        sig = s1["graph_module"]["signature"]
        self.assertEqual(sig["inputs_to_parameters"], {"p_wt": "wt"})
        self.assertEqual(sig["inputs_to_buffers"]["c_table"], "table")    # constants become buffers
        self.assertEqual(sig["user_inputs"], ["x"])
        meta = s1["graph_module"]["graph"]["tensor_values"]["b_vb"]
        self.assertEqual(list(meta), ["meta"])
        self.assertEqual(meta["meta"]["storage_offset"], 6)               # a bare int before schema 5
        self.assertEqual(meta["meta"]["sizes"], [{"as_expr": None, "as_int": 6}])
        s2 = self.program("strided", "legacy_s2")
        specs = s2["graph_module"]["signature"]["input_specs"]
        buffer = [s["buffer"] for s in specs if s["buffer"] is not None][0]
        self.assertNotIn("persistent", buffer)
        self.assertEqual(set(specs[0]), {"user_input", "parameter", "buffer", "tensor_constant"})
        node = s2["graph_module"]["graph"]["nodes"][0]
        self.assertEqual(list(node), ["target", "inputs", "outputs", "metadata"])
        self.assertEqual(list(node["inputs"][0]), ["name", "arg"])
        s5 = self.program("strided", "legacy_s5")
        self.assertEqual(s5["graph_module"]["graph"]["tensor_values"]["x"]["device"], {"type": "cpu"})
        self.assertEqual(s5["graph_module"]["graph"]["tensor_values"]["x"]["storage_offset"], {"as_int": 0})

    def test_weights_byte_equal(self):
        lifted = {s.target: s.tensor for s in self.strided.traced.slots if s.kind != "user_input"}
        for variant in OLD:
            loaded = {}
            with self.zf("strided", variant) as zf:
                for record in zf.namelist():
                    if record.startswith(("serialized_state_dict", "serialized_constants")):
                        loaded.update(torch.load(io.BytesIO(zf.read(record))))
            self.assertEqual(set(loaded), set(lifted), variant)
            for fqn, t in loaded.items():
                ref = lifted[fqn]
                self.assertEqual((t.dtype, t.stride(), t.storage_offset()), (ref.dtype, ref.stride(), ref.storage_offset()))
                self.assertTrue(torch.equal(t, ref.detach()), f"{variant}:{fqn}")

    def test_version_arguments(self):
        self.assertEqual(_schema_versions.normalize(2), (2, 0))
        self.assertEqual(_schema_versions.normalize({"major": 5, "minor": 3}), (5, 3))
        with self.assertRaisesRegex(ValueError, "writes majors 1, 2, 4, 5, 8"):
            _schema_versions.normalize((9, 0))
        with self.assertRaisesRegex(ValueError, "holds schema 8 only"):
            self.strided.write(os.path.join(self.dir, "x.pt2"), "pt2", (5, 3))
        with self.assertRaisesRegex(ValueError, "holds schema 8 only"):
            self.strided.write(os.path.join(self.dir, "x.pt2"), "pt2-pickle", 2)
        path = os.path.join(self.dir, "saved.pt2")
        atenrt.save(torch.nn.Linear(2, 3), (torch.randn(1, 2),), path, layout="legacy", schema_version=2)
        with zipfile.ZipFile(path) as zf:
            self.assertEqual(zf.read("version"), b"2")


if __name__ == "__main__":
    unittest.main()
