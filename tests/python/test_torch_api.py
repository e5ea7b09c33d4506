#!/usr/bin/python3
"""atenrt's torch-native API against PyTorch: atenrt.compile(module, inputs=[...]) and calling the
engine with torch tensors (output structure, requires_grad, bf16, non-contiguous), save/load,
reports, settings errors.

Run: PYTHONPATH=python ATENRT_PYTHON_MODULE_DIR=build/python /usr/bin/python3 -m unittest discover -s tests/python
"""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from native import NATIVE_MISSING, atenrt, runtime  # noqa: E402

try:
    import torch
    from torch import nn
except ImportError:
    torch = None


def _require():
    if NATIVE_MISSING and os.environ.get("ATENRT_REQUIRE_PYTHON_MODULE"):
        raise AssertionError(NATIVE_MISSING)


def close(test, got, want, what):
    """The project's bar: max|got - want| <= 1e-4 * max|want| (fp32)."""
    test.assertEqual(got.shape, want.shape, what)
    test.assertEqual(got.dtype, want.dtype, what)
    bound = 1e-4 * max(float(want.abs().max()), 1e-6)
    test.assertLessEqual(float((got - want).abs().max()), bound, what)


@unittest.skipIf(torch is None, "torch is not installed")
@unittest.skipIf(NATIVE_MISSING and not os.environ.get("ATENRT_REQUIRE_PYTHON_MODULE"), f"{NATIVE_MISSING}")
class TorchApiTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        _require()
        cls.tmp = tempfile.mkdtemp(prefix="atenrt_torch_api_")

    def test_module_with_dict_outputs_keeps_the_structure(self):
        class Heads(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Linear(8, 16)
                self.cls, self.box = nn.Linear(16, 3), nn.Linear(16, 4)

            def forward(self, x):
                h = torch.relu(self.body(x))
                return {"logits": self.cls(h), "boxes": (self.box(h), h.sum(dim=1))}

        torch.manual_seed(0)
        model = Heads().eval()
        x = torch.randn(2, 8)
        engine = atenrt.compile(model, inputs=[x])
        got = engine(x)
        want = model(x)
        self.assertIsInstance(got, dict)
        self.assertEqual(set(got), {"logits", "boxes"})
        self.assertIsInstance(got["boxes"], tuple)
        close(self, got["logits"], want["logits"], "logits")
        close(self, got["boxes"][0], want["boxes"][0], "boxes")
        close(self, got["boxes"][1], want["boxes"][1], "sum")

    def test_resnet18(self):
        try:
            import torchvision
        except ImportError:
            self.skipTest("torchvision is not installed")
        torch.manual_seed(0)
        model = torchvision.models.resnet18().eval()
        x = torch.randn(1, 3, 64, 64)
        engine = atenrt.compile(model, inputs=[atenrt.Input(shape=(1, 3, 64, 64), dtype=torch.float32)])
        got = engine(x)
        self.assertIsInstance(got, torch.Tensor)
        with torch.no_grad():
            close(self, got, model(x), "resnet18")
        self.assertEqual(engine.report.dry_run.fully_supported, True)
        self.assertLess(len(repr(engine.report)), 200)

    def test_encoder_block(self):
        torch.manual_seed(0)
        layer = nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64, dropout=0.0,
                                           batch_first=True).eval()
        x = torch.randn(2, 5, 32)
        try:
            engine = atenrt.compile(layer, inputs=[x])
        except atenrt.ExportError as e:
            self.skipTest(f"the exporter cannot trace nn.TransformerEncoderLayer here: {e}")
        with torch.no_grad():
            close(self, engine(x), layer(x), "encoder")

    def test_tensor_handling(self):
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(6, 4)

            def forward(self, a, b):
                return self.fc(a) + b

        torch.manual_seed(0)
        model = Net().eval()
        a, b = torch.randn(3, 6), torch.randn(3, 4)
        engine = atenrt.compile(model, inputs=[a, b])
        want = model(a, b).detach()
        # requires_grad is ignored; non-contiguous tensors are made contiguous; names work too.
        close(self, engine(a.clone().requires_grad_(True), b), want, "requires_grad")
        bt = torch.randn(4, 3).t()
        self.assertFalse(bt.is_contiguous())
        close(self, engine(a, bt), model(a, bt).detach(), "non-contiguous")
        close(self, engine(a=a, b=b), want, "by name")
        with self.assertRaisesRegex(atenrt.InputError, "bfloat16.*never casts silently"):
            engine(a.bfloat16(), b)
        with self.assertRaises(atenrt.InputError):
            engine(a)
        # numpy in, numpy out: the runtime without torch.
        out = engine(a.numpy(), b.numpy())
        self.assertEqual(type(out).__module__, "numpy")

    def test_inputs_are_checked_not_cast(self):
        model = nn.Linear(4, 2).eval()
        with self.assertRaisesRegex(atenrt.InputError, "never casts silently"):
            atenrt.compile(self._saved(model, torch.randn(1, 4)), inputs=[atenrt.Input(shape=(1, 4), dtype="int64")])
        with self.assertRaisesRegex(atenrt.InputError, "shape"):
            atenrt.compile(self._saved(model, torch.randn(1, 4)), inputs=[torch.randn(2, 4)])
        with self.assertRaisesRegex(NotImplementedError, "dynamic shapes"):
            atenrt.compile(model, inputs=[atenrt.Input(min_shape=(1, 4), opt_shape=(2, 4), max_shape=(8, 4))])
        with self.assertRaisesRegex(TypeError, "inputs="):
            atenrt.compile(model)
        with self.assertRaises(TypeError):
            atenrt.compile(42)

    def test_save_load_and_the_report(self):
        model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).eval()
        x = torch.randn(1, 4)
        engine = atenrt.compile(model, inputs=[x], num_threads=1)
        path = os.path.join(self.tmp, "mlp.atrt")
        engine.save(path)
        loaded = atenrt.load(path, num_threads=2)
        self.assertEqual(loaded.num_threads, 2)
        close(self, loaded(x), model(x).detach(), "loaded")
        self.assertIsNotNone(loaded.report)
        self.assertIn("loaded from", repr(loaded.report))
        self.assertEqual(loaded.report.precision, "fp32")
        json.loads(loaded.report.to_json())
        with self.assertRaisesRegex(atenrt.SettingsError, "compile-time setting.*precision fp32"):
            atenrt.load(path, precision="bf16")

    def test_settings_are_checked_with_suggestions(self):
        path = self._saved(nn.Linear(4, 2).eval(), torch.randn(1, 4))
        with self.assertRaisesRegex(TypeError, "did you mean 'min_block_size'"):
            atenrt.compile(path, min_blok_size=3)
        with self.assertRaisesRegex(atenrt.SettingsError, "did you mean 'aten.relu'"):
            atenrt.compile(path, torch_executed_ops=["aten.reluu"])
        with self.assertRaisesRegex(atenrt.SettingsError, "num_threads must be in 0-1024"):
            atenrt.compile(path, num_threads=-3)
        with self.assertRaisesRegex(atenrt.SettingsError, "did you mean 'dead_code'"):
            atenrt.dry_run(path, disabled_passes="dead_cod")
        names = {row["name"] for row in atenrt.settings_table()}
        self.assertIn("num_threads", names)

    def test_dry_run_report(self):
        path = self._saved(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).eval(), torch.randn(1, 4))
        report = atenrt.dry_run(path, torch_executed_ops=["aten.relu"])
        self.assertFalse(report.fully_supported)
        self.assertEqual([u.reason for u in report.unsupported], ["listed in torch_executed_ops"])
        self.assertLess(len(repr(report)), 200)
        self.assertIn("Unsupported nodes", report.to_text())
        self.assertEqual(json.loads(report.to_json())["fully_supported"], False)
        self.assertTrue(all(not i.startswith("p_") for s in report.segments for i in s.inputs))

    def test_lstm_and_gru(self):
        class Recurrent(nn.Module):
            def __init__(self):
                super().__init__()
                self.lstm = nn.LSTM(8, 16, num_layers=2, batch_first=True)
                self.gru = nn.GRU(16, 4)

            def forward(self, x):
                y, (h, c) = self.lstm(x)
                z, hg = self.gru(y)
                return z, h, hg

        torch.manual_seed(0)
        model = Recurrent().eval()
        x = torch.randn(2, 5, 8)
        engine = atenrt.compile(model, inputs=[x])
        got = engine(x)
        with torch.no_grad():
            want = model(x)
        self.assertIsInstance(got, tuple)
        for i, (g, w) in enumerate(zip(got, want)):
            close(self, g, w, f"output {i}")
        # the module's own weights are untouched by tracing
        self.assertFalse(any(type(w).__name__ == "FakeTensor" for w in model.lstm._flat_weights))

    def test_list_and_dict_inputs(self):
        class Mixer(nn.Module):
            def forward(self, xs, extra):
                return xs[0] + xs[1] * extra["scale"], torch.relu(extra["bias"])

        xs = [torch.randn(2, 3), torch.randn(2, 3)]
        extra = {"scale": torch.randn(2, 3), "bias": torch.randn(3)}
        engine = atenrt.compile(Mixer(), inputs=[xs, extra])
        self.assertEqual([s.name for s in engine.inputs], ["xs_0", "xs_1", "extra_scale", "extra_bias"])
        got = engine(xs, extra)
        want = Mixer()(xs, extra)
        for g, w in zip(got, want):
            close(self, g, w, "mixer")
        with self.assertRaisesRegex(TypeError, "give tensors"):
            atenrt.compile(Mixer(), inputs=[[torch.randn(2, 3), 3], extra])
        with self.assertRaisesRegex(atenrt.ExportError, r"example input 0\[1\] is a int"):
            atenrt.save(Mixer(), ([torch.randn(2, 3), 3], extra), os.path.join(self.tmp, "bad.pt2"))

    def test_version(self):
        self.assertRegex(atenrt.__version__, r"^[0-9]+\.[0-9]+\.[0-9]+$")
        self.assertIn("onednn_version", atenrt.build_info())

    def _saved(self, model, *examples):
        path = os.path.join(self.tmp, f"m{id(model)}.pt2")
        atenrt.save(model, examples, path)
        return path


if __name__ == "__main__":
    unittest.main()
