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


def lambda_module(fn, **submodules):
    class Wrapped(nn.Module):
        def __init__(self):
            super().__init__()
            for name, m in submodules.items():
                self.add_module(name, m)

        def forward(self, *args, **kwargs):
            return fn(*args, **kwargs)
    return Wrapped()


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
        with self.assertRaisesRegex(ValueError, r"dim 0 has no example size in \[1, 4\] that torch 1.13"):
            # 2 and 4 are the weight's dims, 3 the other input's: nothing left that tracing keeps apart
            atenrt.compile(lambda_module(lambda x, y: model(x) + y.sum(), model=model),
                           inputs=[atenrt.Input(min_shape=(1, 4), opt_shape=(2, 4), max_shape=(4, 4)),
                                   torch.randn(3)])
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

    def test_loaded_engine_keeps_the_module_structure(self):
        class Heads(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Linear(8, 16)
                self.cls, self.box = nn.Linear(16, 3), nn.Linear(16, 4)

            def forward(self, x):
                h = torch.relu(self.body(x))
                return {"logits": self.cls(h), "extra": [self.box(h), (h.sum(dim=1), h)]}

        torch.manual_seed(0)
        model = Heads().eval()
        x = torch.randn(2, 8)
        path = os.path.join(self.tmp, "heads.atrt")
        atenrt.compile(model, inputs=[x]).save(path)
        loaded = atenrt.load(path)
        got = loaded(x)
        with torch.no_grad():
            want = model(x)
        self.assertIsInstance(got, dict)
        self.assertEqual(list(got), ["logits", "extra"])
        self.assertIsInstance(got["extra"], list)
        self.assertIsInstance(got["extra"][1], tuple)
        close(self, got["logits"], want["logits"], "logits")
        close(self, got["extra"][0], want["extra"][0], "box")
        close(self, got["extra"][1][0], want["extra"][1][0], "sum")
        close(self, got["extra"][1][1], want["extra"][1][1], "h")
        # numpy in, the same structure of arrays out
        arrays = loaded(x.numpy())
        self.assertEqual(type(arrays["extra"][0]).__name__, "ndarray")
        # an engine without metadata (a .pt2 compiled by path) stays flat after load
        flat = os.path.join(self.tmp, "heads_flat.atrt")
        atenrt.compile(self._saved(model, x)).save(flat)
        self.assertIsInstance(atenrt.load(flat)(x), tuple)
        self.assertEqual(len(atenrt.load(flat)(x)), 4)

    def test_keyword_inputs(self):
        class Masked(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(6, 6)

            def forward(self, x, scale, mask=None, extra=None):
                return {"y": self.proj(x) * scale + mask, "z": extra["a"] - extra["b"]}

        torch.manual_seed(0)
        model = Masked().eval()
        x, scale, mask = torch.randn(2, 6), torch.randn(6), torch.randn(2, 6)
        extra = {"a": torch.randn(3), "b": torch.randn(3)}
        engine = atenrt.compile(model, inputs=[x, scale], kwarg_inputs={"mask": mask, "extra": extra})
        self.assertEqual([s.name for s in engine.inputs], ["x", "scale", "mask", "extra_a", "extra_b"])
        with torch.no_grad():
            want = model(x, scale, mask=mask, extra=extra)
        path = os.path.join(self.tmp, "masked.atrt")
        engine.save(path)
        for e in (engine, atenrt.load(path)):
            # keyword order and dict key order do not matter: bound by name
            got = e(x, scale, extra={"b": extra["b"], "a": extra["a"]}, mask=mask)
            close(self, got["y"], want["y"], "y")
            close(self, got["z"], want["z"], "z")
            with self.assertRaisesRegex(atenrt.InputError, "keyword argument 'mask' is missing"):
                e(x, scale, extra=extra)
            with self.assertRaisesRegex(atenrt.InputError, "unexpected keyword argument 'masc'"):
                e(x, scale, masc=mask, extra=extra)
            with self.assertRaisesRegex(atenrt.InputError, r"argument 'extra' has keys \['a'\]; the engine takes"):
                e(x, scale, mask=mask, extra={"a": extra["a"]})
            # by engine input name, as for any engine
            got = e(x=x, scale=scale, mask=mask, extra_a=extra["a"], extra_b=extra["b"])
            close(self, got["y"], want["y"], "y by input name")
        with self.assertRaisesRegex(TypeError, "kwarg_inputs are for an nn.Module"):
            atenrt.compile(self._saved(nn.Linear(4, 2).eval(), torch.randn(1, 4)), kwarg_inputs={"x": x})

    def test_hostile_metadata_is_a_format_error(self):
        from atenrt import _structure
        model = nn.Sequential(nn.Linear(4, 2)).eval()
        engine = atenrt.compile(model, inputs=[torch.randn(1, 4)])
        native = engine._engine
        cases = {
            b"{not json": "not JSON",
            b"\xff\xfe": "not JSON",
            b'{"atenrt_python": 1, "outputs": {"tuple": ["tensor", "tensor"]}}': "holds 2 tensors",
            b'{"atenrt_python": 1, "outputs": {"set": []}}': "unknown kind",
            b'{"atenrt_python": 1, "outputs": ' + b'{"list": [' * 100 + b'"tensor"' + b"]}" * 100 + b"}":
                "nested deeper",
            b'{"atenrt_python": 1, "outputs": {"dict": [["a", "tensor"], ["a", "tensor"]]}}': "key twice",
            b'{"atenrt_python": 1, "args": ["tensor"]}': "both args and kwargs",
            b'{"atenrt_python": 9}': "format 9",
            b"[" * 100000 + b"]" * 100000: "not JSON",
        }
        for text, message in cases.items():
            path = os.path.join(self.tmp, "hostile_meta.atrt")
            engine._engine = native.with_metadata(text)
            engine.save(path)
            with self.assertRaisesRegex(atenrt.FormatError, f"hostile_meta.atrt': engine file: .*{message}"):
                atenrt.load(path)
        # someone else's metadata: flat outputs
        engine._engine = native.with_metadata(b'{"other": 1}')
        engine.save(path)
        self.assertIsInstance(atenrt.load(path)(torch.randn(1, 4)), torch.Tensor)
        with self.assertRaisesRegex(atenrt.InputError, "at most 1048576"):
            native.with_metadata(b" " * ((1 << 20) + 1))
        self.assertEqual(_structure.leaves({"dict": [["a", {"tuple": ["tensor", "tensor"]}]]}), 2)

    def test_progress_lines_only_when_asked_or_on_a_terminal(self):
        import subprocess
        script = ("import torch, atenrt\n"
                  "atenrt.compile(torch.nn.Linear(4, 2).eval(), inputs=[torch.randn(1, 4)])\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("ATENRT_PROGRESS")}
        env["PYTHONPATH"] = os.pathsep.join([os.path.join(os.path.dirname(__file__), "..", "..", "python"),
                                             env.get("PYTHONPATH", "")])
        env["ATENRT_PYTHON_MODULE_DIR"] = os.path.dirname(runtime._load_native().__file__)
        env["ATENRT_PROGRESS_DELAY_MS"] = "0"

        def run(**more):
            r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                               env={**env, **more}, timeout=600)
            self.assertEqual(r.returncode, 0, r.stderr)
            return r.stderr
        self.assertEqual(run(), "")  # captured: not a terminal
        self.assertEqual(run(ATENRT_PROGRESS="0"), "")
        self.assertRegex(run(ATENRT_PROGRESS="1"), r"^atenrt: exporting Linear \.\.\.\natenrt: exported Linear in "
                                                   r"[0-9.]+ s\natenrt: compiling Linear \.\.\.\n"
                                                   r"atenrt: compiled Linear in [0-9.]+ s\n$")
        # the exporter alone
        script = (f"import torch, atenrt\natenrt.save(torch.nn.Linear(4, 2), (torch.randn(1, 4),), "
                  f"{os.path.join(self.tmp, 'progress.pt2')!r})\n")
        self.assertRegex(run(ATENRT_PROGRESS="1"), r"^atenrt: exporting Linear \.\.\.\natenrt: exported Linear in "
                                                   r"[0-9.]+ s\n$")

    def test_range_inputs_export_with_symbolic_dims(self):
        class Scorer(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(8, 6)

            def forward(self, x, bias):
                return torch.relu(self.proj(x)).sum(dim=1) + bias

        torch.manual_seed(0)
        model = Scorer().eval()
        # opt batch 6 is the weight's dim: the export picks 5 (the nearest free size) as its example
        batch = atenrt.Input(min_shape=(1, 8), opt_shape=(6, 8), max_shape=(16, 8))
        engine = atenrt.compile(model, inputs=[batch, torch.randn(1)])
        spec = engine.inputs[0]
        self.assertEqual((spec.min_shape, spec.opt_shape, spec.max_shape), ((1, 8), (6, 8), (16, 8)))
        self.assertEqual(spec.shape, (-1, 8))
        path = os.path.join(self.tmp, "scorer_dyn.atrt")
        engine.save(path)
        for e in (engine, atenrt.load(path)):
            for n in (1, 2, 6, 16):
                x, bias = torch.randn(n, 8), torch.randn(1)
                with torch.no_grad():
                    close(self, e(x, bias), model(x, bias), f"batch {n}")
            with self.assertRaisesRegex(atenrt.InputError, "outside the engine's range"):
                e(torch.randn(17, 8), torch.randn(1))
        with self.assertRaisesRegex(atenrt.SettingsError, "either as atenrt.Input"):
            atenrt.compile(model, inputs=[batch, torch.randn(1)], max_shapes={"x": (4, 8)})

    def test_compare_layers_finds_the_first_divergence(self):
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(3, 16, 3)
                self.fc = nn.Linear(16, 5)

            def forward(self, x):
                y = x * 2.0 + 1.0  # elementwise: exact in any precision
                h = torch.relu(self.conv(y)).mean(dim=(2, 3))
                return torch.sigmoid(self.fc(h))

        torch.manual_seed(0)
        model = Net().eval()
        x = torch.randn(2, 3, 12, 12)
        report = atenrt.debug.compare_layers(model, [x])
        self.assertIsNone(report.first_divergence, report.to_text())
        names = [d.name for d in report.layers]
        self.assertGreaterEqual(len(names), 5, report.to_text())
        self.assertTrue(any("convolution" in d.op for d in report.layers), report.to_text())
        self.assertTrue(all(d.ok and d.total > 0 for d in report.layers))
        self.assertIn("all within tolerance", repr(report))
        # bf16 convolutions and matmuls: the first value past 1e-4 is the convolution's, and the
        # elementwise values before it still match.
        bf16 = atenrt.debug.compare_layers(model, [x], precision="bf16")
        if bf16.precision != "bf16":
            self.skipTest("this CPU computes no bf16")
        first = bf16.first_divergence
        self.assertIsNotNone(first, bf16.to_text())
        self.assertIn("convolution", first.op, bf16.to_text())
        before = bf16.layers[:bf16.layers.index(first)]
        self.assertTrue(before and all(d.ok for d in before), bf16.to_text())
        self.assertTrue(any(d.op.startswith("aten.mul") for d in before), bf16.to_text())
        text = bf16.to_text()
        self.assertIn(f"first divergence: '{first.name}'", text)
        self.assertNotIn("sigmoid", text.split("first divergence")[0])  # the table stops at the first
        self.assertIn("sigmoid", bf16.to_text(all_rows=True))
        # a loose tolerance lets bf16 pass
        self.assertIsNone(atenrt.debug.compare_layers(model, [x], rtol=0.1, atol=0.1,
                                                      precision="bf16").first_divergence)
        with self.assertRaisesRegex(NotImplementedError, "torch.export.load"):
            atenrt.debug.compare_layers(self._saved(model, x), [x])
        with self.assertRaisesRegex(TypeError, "sets mark_all_outputs itself"):
            atenrt.debug.compare_layers(model, [x], mark_all_outputs=False)
        # nested and keyword arguments bind as the module takes them
        gated = lambda_module(lambda xs, gate=None: torch.tanh(xs[0] @ xs[1]) * gate)
        pair, gate = [torch.randn(3, 4), torch.randn(4, 5)], torch.randn(3, 5)
        keyed = atenrt.debug.compare_layers(gated, [pair], kwarg_inputs={"gate": gate})
        self.assertIsNone(keyed.first_divergence, keyed.to_text())
        self.assertEqual([d.op.split(".")[1] for d in keyed.layers], ["mm", "tanh", "mul"])

    def test_mark_all_outputs_needs_one_engine(self):
        path = self._saved(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).eval(), torch.randn(1, 4))
        with self.assertRaisesRegex(atenrt.UnsupportedError, "mark_all_outputs needs a graph that compiles into one"):
            atenrt.compile(path, mark_all_outputs=True, torch_executed_ops=["aten.relu"])
        engine = atenrt.compile(path, mark_all_outputs=True)
        self.assertGreater(len(engine.outputs), 1)
        plain = atenrt.compile(path)
        self.assertEqual(len(plain.outputs), 1)
        x = torch.randn(1, 4).numpy()
        # the graph output comes first
        close(self, torch.from_numpy(engine.run(x)[0]), torch.from_numpy(plain.run(x)[0]), "marked engine")

    def test_version(self):
        self.assertRegex(atenrt.__version__, r"^[0-9]+\.[0-9]+\.[0-9]+$")
        self.assertIn("onednn_version", atenrt.build_info())

    def _saved(self, model, *examples):
        path = os.path.join(self.tmp, f"m{id(model)}.pt2")
        atenrt.save(model, examples, path)
        return path


if __name__ == "__main__":
    unittest.main()
