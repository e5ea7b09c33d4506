#!/usr/bin/python3
"""atenrt's Python runtime (python/atenrt/runtime.py over the `_atenrt` module) against PyTorch.

Run (Debian's interpreter, which has torch 1.13 for the exporter and the reference outputs):

    PYTHONPATH=python ATENRT_PYTHON_MODULE_DIR=build/python /usr/bin/python3 -m unittest discover -s tests/python -v

Skips, saying why, when the compiled module or torch is not there; with
ATENRT_REQUIRE_PYTHON_MODULE=1 (CI, ctest) a missing module is a failure instead.
"""
import os
import shutil
import sys
import tempfile
import threading
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from native import NATIVE_MISSING, atenrt, runtime  # noqa: E402

try:
    import torch
    from torch import nn
except ImportError:
    torch = None

RTOL = ATOL = 1e-4


def _models():
    """(name, module, example inputs), weights from fixed seeds."""
    torch.manual_seed(0)

    class ConvNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(
                nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                nn.Conv2d(8, 16, 3, padding=1, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
            self.fc = nn.Linear(16, 10)

        def forward(self, x):
            return self.fc(torch.flatten(self.features(x), 1))

    class Block(nn.Module):
        """Token embedding, one pre-norm self-attention block and a GELU MLP."""

        def __init__(self, vocab=50, d=32, heads=4):
            super().__init__()
            self.heads = heads
            self.embed = nn.Embedding(vocab, d)
            self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

        def forward(self, tokens):
            x = self.embed(tokens)
            b, t, d = x.shape
            q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
            split = lambda z: z.reshape(b, t, self.heads, d // self.heads).transpose(1, 2)  # noqa: E731
            q, k, v = split(q), split(k), split(v)
            att = torch.softmax(q @ k.transpose(-2, -1) / (d // self.heads) ** 0.5, dim=-1)
            x = x + self.proj((att @ v).transpose(1, 2).reshape(b, t, d))
            return x + self.mlp(self.norm2(x))

    class TwoInOut(nn.Module):
        def forward(self, a, b):
            return a * b + 1.0, torch.relu(a - b)

    class Dtypes(nn.Module):  # every numpy dtype in and out, and bfloat16 (float32 in numpy)
        def forward(self, x, y, i, u, h):
            return (x * 2 + 1, y > 0, y.to(torch.float16), i * 3, u + 1, y.to(torch.float64) * 2,
                    i.to(torch.int16), i.to(torch.int8), i.to(torch.int64), h * 2)

    class Histogram(nn.Module):  # aten.histogram.bin_ct has no atenrt converter
        def forward(self, x):
            return torch.histogram(torch.relu(x), bins=4, range=(0.0, 1.0))[0] + 1

    conv = ConvNet().eval()
    bn = conv.features[1]
    with torch.no_grad():  # non-trivial statistics, so that batch-norm folding is exercised
        bn.running_mean.uniform_(-0.5, 0.5)
        bn.running_var.uniform_(0.5, 2.0)
    return [
        ("conv", conv, (torch.randn(2, 3, 16, 16),)),
        ("transformer", Block().eval(), (torch.randint(0, 50, (2, 8)),)),
        ("two_in_out", TwoInOut(), (torch.randn(3, 4), torch.randn(3, 4))),
        ("dtypes", Dtypes(), (torch.randn(2, 3).bfloat16(), torch.randn(4), torch.arange(-3, 3, dtype=torch.int32),
                              torch.arange(250, 256, dtype=torch.uint8), torch.randn(5).half())),
        ("histogram", Histogram(), (torch.rand(8),)),
    ]


def _numpy(t):
    return (t.float() if t.dtype == torch.bfloat16 else t).numpy()  # numpy has no bfloat16


@unittest.skipIf(NATIVE_MISSING, f"atenrt's compiled module is not available: {NATIVE_MISSING}")
@unittest.skipIf(torch is None, "PyTorch (Debian python3-torch) is needed to export the test models")
class RuntimeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="atenrt_py_")
        cls.models = {}
        for name, module, inputs in _models():
            path = os.path.join(cls.tmp, name + ".pt2")
            atenrt.save(module, inputs, path)
            with torch.no_grad():
                out = module(*inputs)
            outs = [_numpy(o) for o in (out if isinstance(out, tuple) else (out,))]
            cls.models[name] = (path, [_numpy(i) for i in inputs], outs, module)
        cls.engines = {}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def engine(self, name, **settings):
        key = (name, tuple(sorted(settings.items())))
        if key not in self.engines:
            self.engines[key] = atenrt.compile(self.models[name][0], **settings)
        return self.engines[key]

    def assert_matches_torch(self, name, outputs, rtol=RTOL, atol=ATOL):
        expected = self.models[name][2]
        self.assertEqual(len(outputs), len(expected))
        for got, want in zip(outputs, expected):
            self.assertIsInstance(got, np.ndarray)
            self.assertEqual(got.dtype, want.dtype)
            self.assertEqual(got.shape, want.shape)
            np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)

    # -- compile and run, against PyTorch ---------------------------------------------------------

    def test_conv_net_matches_torch(self):
        engine = self.engine("conv")
        self.assert_matches_torch("conv", engine.run(*self.models["conv"][1]))
        self.assertEqual(engine.report.supported_ops, engine.report.total_ops)
        self.assertGreater(engine.report.total_ops, 0)
        self.assertIn("conv", engine.describe().lower())

    def test_transformer_matches_torch(self):
        engine = self.engine("transformer")
        (tokens,) = self.models["transformer"][1]
        self.assertEqual([(s.dtype, s.shape) for s in engine.inputs], [("int64", (2, 8))])
        self.assertEqual([(s.dtype, s.shape) for s in engine.outputs], [("float32", (2, 8, 32))])
        self.assert_matches_torch("transformer", engine.create_context().run([tokens]))

    def test_settings_do_not_change_results(self):
        for settings in ({"optimization_level": 0}, {"optimization_level": 2, "num_threads": 1},
                         {"lowering": False, "min_block_size": 1}):
            with self.subTest(**settings):
                engine = atenrt.compile(self.models["conv"][0], **settings)
                self.assert_matches_torch("conv", engine.run(*self.models["conv"][1]))

    def test_bad_settings_are_rejected(self):
        path = self.models["conv"][0]
        with self.assertRaisesRegex(ValueError, "precision"):
            atenrt.compile(path, precision="fp8")
        with self.assertRaisesRegex(ValueError, "optimization_level"):
            atenrt.compile(path, optimization_level=7)
        with self.assertRaises(TypeError):
            atenrt.compile(path, no_such_setting=True)

    def test_max_memory_is_a_setting(self):
        path = os.path.join(self.tmp, "conv_max_memory.atrt")
        self.engine("conv").save(path)
        for limit in ("16K", 16384, np.int64(16384)):
            with self.subTest(limit=limit):
                with self.assertRaisesRegex(atenrt.Error, "more than the memory limit of 16.0 KiB"):
                    atenrt.load(path, max_memory=limit)
        self.assertTrue(atenrt.load(path, max_memory="1G").inputs)
        with self.assertRaisesRegex(atenrt.SettingsError, "byte size '2X'"):
            atenrt.load(path, max_memory="2X")
        for bad in (-1, 1.5, True):
            with self.subTest(bad=bad), self.assertRaises(atenrt.SettingsError):
                atenrt.load(path, max_memory=bad)
        with self.assertRaisesRegex(atenrt.AtenrtError, "memory limit"):  # the reader's, first
            atenrt.compile(self.models["conv"][0], max_memory="16K")
        row = {r["name"]: r for r in atenrt.settings_table()}["max_memory"]
        self.assertEqual((row["cli_flag"], row["type"], row["phase"], row["default"]),
                         ("--max-memory", "bytes", "load", 0))

    def test_bf16(self):
        for name in ("conv", "transformer"):
            with self.subTest(model=name):
                engine = self.engine(name, precision="bf16")
                outputs = engine.run(*self.models[name][1])
                want = self.models[name][2][0]
                self.assertEqual(outputs[0].dtype, np.float32)  # bf16 inside, fp32 at the edges
                error = np.linalg.norm(outputs[0] - want) / np.linalg.norm(want)
                self.assertLess(error, 3e-2, f"{name}: bf16 relative error {error}")

    def test_several_inputs_and_outputs(self):
        engine = self.engine("two_in_out", min_block_size=1)
        a, b = self.models["two_in_out"][1]
        self.assertEqual(len(engine.inputs), 2)
        self.assertEqual(len(engine.outputs), 2)
        self.assert_matches_torch("two_in_out", engine.run(a, b))
        ctx = engine.create_context()
        names = [s.name for s in engine.inputs]
        self.assert_matches_torch("two_in_out", ctx.run({names[1]: b, names[0]: a}))

    def test_dtypes(self):
        engine = self.engine("dtypes", min_block_size=1)
        self.assertEqual([s.dtype for s in engine.inputs], ["bfloat16", "float32", "int32", "uint8", "float16"])
        self.assertEqual([s.dtype for s in engine.outputs],
                         ["bfloat16", "bool", "float16", "int32", "uint8", "float64", "int16", "int8", "int64",
                          "float16"])
        outputs = engine.run(*self.models["dtypes"][1])
        self.assert_matches_torch("dtypes", outputs, rtol=0, atol=0)
        with self.assertRaisesRegex(atenrt.InputError, "expected bfloat16.*numpy has no bfloat16: pass float32"):
            engine.run(*[a.astype(np.float64) if i == 0 else a for i, a in enumerate(self.models["dtypes"][1])])

    def test_inputs_are_normalized(self):
        engine = self.engine("two_in_out", min_block_size=1)
        a, b = self.models["two_in_out"][1]
        # Non-contiguous views, and lists (which take the input's dtype).
        a_t = np.ascontiguousarray(a.T).T
        self.assertFalse(a_t.flags.c_contiguous)
        self.assert_matches_torch("two_in_out", engine.run(a_t, b.tolist()))
        big_endian = a.astype(">f4")
        self.assert_matches_torch("two_in_out", engine.run(big_endian, b))

    def test_outputs_are_copies(self):
        engine = self.engine("conv")
        ctx = engine.create_context()
        (x,) = self.models["conv"][1]
        first = ctx.run([x])[0]
        kept = first.copy()
        ctx.run([x * 2])
        np.testing.assert_array_equal(first, kept)

    # -- engine files ----------------------------------------------------------------------------

    def test_save_load_round_trip(self):
        for name in ("conv", "transformer"):
            with self.subTest(model=name):
                engine = self.engine(name)
                path = os.path.join(self.tmp, name + ".atrt")
                engine.save(path)
                loaded = atenrt.load_engine(path)
                self.assertEqual(loaded.inputs, engine.inputs)
                self.assertEqual(loaded.outputs, engine.outputs)
                self.assertIsNotNone(loaded.report)  # what the file tells: precision, steps, fusions
                self.assertIn("loaded from", loaded.report.source)
                self.assertIsNone(loaded.report.dry_run)
                self.assertEqual(len(loaded.report.steps), len(engine.report.steps))
                self.assert_matches_torch(name, loaded.run(*self.models[name][1]))
                np.testing.assert_allclose(loaded.run(*self.models[name][1])[0],
                                           engine.run(*self.models[name][1])[0], rtol=1e-6, atol=1e-6)

    def test_corrupt_engine_file(self):
        path = os.path.join(self.tmp, "conv_corrupt.atrt")
        self.engine("conv").save(path)
        with open(path, "r+b") as f:
            f.seek(os.path.getsize(path) // 2)
            byte = f.read(1)
            f.seek(-1, os.SEEK_CUR)
            f.write(bytes([byte[0] ^ 0xFF]))
        with self.assertRaises(atenrt.FormatError) as cm:
            atenrt.load_engine(path)
        self.assertIsInstance(cm.exception, ValueError)
        self.assertTrue(str(cm.exception))

    # -- errors ----------------------------------------------------------------------------------

    def test_error_classes(self):
        self.assertTrue(issubclass(atenrt.FormatError, ValueError))
        self.assertTrue(issubclass(atenrt.InputError, ValueError))
        self.assertTrue(issubclass(atenrt.UnsupportedError, NotImplementedError))
        self.assertTrue(issubclass(atenrt.Error, RuntimeError))
        for cls in (atenrt.FormatError, atenrt.InputError, atenrt.UnsupportedError, atenrt.Error):
            self.assertTrue(issubclass(cls, atenrt.AtenrtError))

    def test_wrong_inputs_name_the_input(self):
        engine = self.engine("conv")
        name = engine.inputs[0].name
        (x,) = self.models["conv"][1]
        cases = {
            "shape": ([x[:1]], r"input '%s': expected float32\[2, 3, 16, 16\], got float32\[1, 3, 16, 16\]"),
            "dtype": ([x.astype(np.float64)], r"input '%s': expected float32\[2, 3, 16, 16\], got float64"),
            "int dtype": ([np.zeros((2, 3, 16, 16), np.int64)], r"input '%s'.*got int64"),
            "unsupported dtype": ([x.astype(np.complex64)], r"input '%s'.*complex64"),
            "not an array": ([object()], r"input '%s'.*object"),
        }
        for what, (inputs, pattern) in cases.items():
            with self.subTest(what):
                with self.assertRaisesRegex(atenrt.InputError, pattern % name):
                    engine.create_context().run(inputs)
        with self.assertRaisesRegex(atenrt.InputError, r"expects 1 inputs .*got 2"):
            engine.run(x, x)
        with self.assertRaisesRegex(atenrt.InputError, r"expects 1 inputs .*got 0"):
            engine.run()
        with self.assertRaisesRegex(atenrt.InputError, "no input named 'nope'"):
            engine.create_context().run({"nope": x})
        with self.assertRaisesRegex(atenrt.InputError, f"input '{name}' is missing"):
            engine.create_context().run({})
        tokens_engine = self.engine("transformer")
        with self.assertRaisesRegex(atenrt.InputError, "expected int64.*got float64"):
            tokens_engine.run(np.full((2, 8), 1.5).tolist())  # floats for ints: no silent truncation
        # The context is still usable after the errors.
        self.assert_matches_torch("conv", engine.run(x))

    def test_corrupt_pt2(self):
        source = self.models["conv"][0]
        with open(source, "rb") as f:
            data = f.read()
        variants = {
            "garbage": b"this is not a zip archive" * 10,
            "truncated": data[: len(data) // 2],
            "empty": b"",
        }
        for what, content in variants.items():
            with self.subTest(what):
                path = os.path.join(self.tmp, f"corrupt_{what.replace(' ', '_')}.pt2")
                with open(path, "wb") as f:
                    f.write(content)
                with self.assertRaises(atenrt.FormatError) as cm:
                    atenrt.compile(path)
                self.assertIsInstance(cm.exception, ValueError)
                self.assertTrue(str(cm.exception))
                with self.assertRaises(atenrt.FormatError):
                    atenrt.dry_run(path)

    def test_missing_file(self):
        with self.assertRaises(atenrt.AtenrtError) as cm:
            atenrt.compile(os.path.join(self.tmp, "does_not_exist.pt2"))
        self.assertIn("does_not_exist.pt2", str(cm.exception))

    def test_unsupported_op(self):
        path = self.models["histogram"][0]
        with self.assertRaises(atenrt.UnsupportedError) as cm:
            atenrt.compile(path, min_block_size=1, require_full_compilation=True)
        self.assertIn("aten.histogram.bin_ct", str(cm.exception))
        report = atenrt.dry_run(path, min_block_size=1)
        self.assertIsInstance(report, atenrt.DryRunReport)
        self.assertFalse(report.fully_supported)
        self.assertIn("aten.histogram.bin_ct", [u.op for u in report.unsupported])
        self.assertIn("aten.histogram.bin_ct", report.to_text())
        self.assertLess(len(repr(report)), 200)

    def test_torch_executed_ops_refused_with_require_full_compilation(self):
        with self.assertRaises(atenrt.UnsupportedError) as cm:
            atenrt.compile(self.models["conv"][0], torch_executed_ops=["aten.relu.default"],
                           require_full_compilation=True)
        self.assertIn("aten.relu", str(cm.exception))

    # -- threads ---------------------------------------------------------------------------------

    def test_threads_with_own_contexts(self):
        engine = self.engine("transformer")
        rng = np.random.default_rng(1)
        inputs = [rng.integers(0, 50, (2, 8), dtype=np.int64) for _ in range(2)]
        expected = [engine.create_context().run([t])[0] for t in inputs]
        own = [engine.create_context() for _ in inputs]
        runners = {
            "own contexts": lambda i: own[i].run([inputs[i]])[0],
            "Engine.run (a context per thread)": lambda i: engine.run(inputs[i])[0],
        }
        for label, run in runners.items():
            with self.subTest(label):
                results, errors = [[], []], []

                def work(i):
                    try:
                        for _ in range(20):
                            results[i].append(run(i))
                    except Exception as e:  # reported in the main thread
                        errors.append(e)

                threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                self.assertEqual(errors, [])
                for i in range(2):
                    self.assertEqual(len(results[i]), 20)
                    for r in results[i]:
                        np.testing.assert_array_equal(r, expected[i])

    def test_compile_in_two_threads(self):
        """compile() releases the GIL; two at once must give working engines."""
        engines, errors = [None, None], []

        def work(i):
            try:
                engines[i] = atenrt.compile(self.models[("conv", "transformer")[i]][0])
            except Exception as e:  # reported in the main thread
                errors.append(e)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        for i, name in enumerate(("conv", "transformer")):
            self.assert_matches_torch(name, engines[i].run(*self.models[name][1]))

    def test_shared_context_is_serialized(self):
        engine = self.engine("conv")
        ctx = engine.create_context()
        (x,) = self.models["conv"][1]
        inputs = [x, x * 0.5]
        expected = [engine.create_context().run([i])[0] for i in inputs]
        mismatches = []

        def work(i):
            for _ in range(20):
                if not np.array_equal(ctx.run([inputs[i]])[0], expected[i]):
                    mismatches.append(i)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(mismatches, [])


DYNAMIC_ARCHIVE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus", "valid",
                               "dynamic_forms.pt2")


@unittest.skipIf(NATIVE_MISSING, f"atenrt's compiled module is not available: {NATIVE_MISSING}")
class DynamicShapesTest(unittest.TestCase):
    """The hand-built symbolic archive (x [s0, s1], y [s0]; docs/dynamic-shapes.md) from Python:
    atenrt.Input ranges by position, the settings as a dict, shapes outside the range."""

    @staticmethod
    def _expected(x, y):
        s0, s1 = x.shape
        k = max(s0, s1) + min(s0, s1) + s1 // 2 + s1 % 4 - s0
        return x.reshape(-1), x * k + y[:, None]

    def test_input_ranges_by_position(self):
        engine = atenrt.compile(DYNAMIC_ARCHIVE, inputs=[
            atenrt.Input(min_shape=(2, 2), opt_shape=(4, 6), max_shape=(8, 12)),
            atenrt.Input(min_shape=(2,), opt_shape=(4,), max_shape=(8,))])
        self.assertEqual(engine.inputs[0].shape, (-1, -1))
        context = engine.create_context()
        rng = np.random.default_rng(0)
        for s0, s1 in [(2, 2), (4, 6), (8, 12), (3, 11), (2, 2)]:
            x = rng.standard_normal((s0, s1)).astype(np.float32)
            y = rng.standard_normal(s0).astype(np.float32)
            got = context.run([x, y])
            for g, w in zip(got, self._expected(x, y)):
                np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)
        with self.assertRaisesRegex(atenrt.InputError, r"input 'x' dim 1 \(s1\) is 13, outside the engine's range \[2, 12\]"):
            context.run([np.zeros((4, 13), np.float32), np.zeros(4, np.float32)])

    def test_settings_as_dicts_and_errors(self):
        engine = atenrt.compile(DYNAMIC_ARCHIVE, max_shapes={"x": (16, 4)}, min_shapes="x:2x4")
        self.assertIn("2x4 to 16x4", engine._engine.describe() + str(engine._engine.inputs))
        with self.assertRaisesRegex(atenrt.SettingsError, "no upper bound in the archive"):
            atenrt.compile(DYNAMIC_ARCHIVE)
        with self.assertRaisesRegex(atenrt.SettingsError, "min 9 is larger than max 8"):
            atenrt.compile(DYNAMIC_ARCHIVE, min_shapes={"x": (9, 4)}, max_shapes={"x": (8, 4)})
        with self.assertRaisesRegex(atenrt.SettingsError, "not both"):
            atenrt.compile(DYNAMIC_ARCHIVE, inputs=[atenrt.Input(min_shape=(2, 2), opt_shape=(2, 2), max_shape=(4, 4))],
                           max_shapes="x:4x4")



class ImportTest(unittest.TestCase):
    @unittest.skipUnless(os.environ.get("ATENRT_REQUIRE_PYTHON_MODULE") == "1", "ATENRT_REQUIRE_PYTHON_MODULE is not 1")
    def test_module_is_there_when_required(self):
        self.assertIsNone(NATIVE_MISSING)


    def test_import_without_module_explains(self):
        """`import atenrt` works without the compiled module; using the runtime says how to build it."""
        import subprocess
        code = ("import atenrt\n"
                "try:\n    atenrt.compile('x.pt2')\n"
                "except ImportError as e:\n    print('IMPORT ERROR:', e)\n")
        empty = tempfile.mkdtemp(prefix="atenrt_nomodule_")
        try:
            env = dict(os.environ, ATENRT_PYTHON_MODULE_DIR=empty,
                       PYTHONPATH=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
            out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                 cwd=empty, timeout=300)
        finally:
            shutil.rmtree(empty, ignore_errors=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("IMPORT ERROR:", out.stdout)
        self.assertIn("docs/python.md", out.stdout)

    @unittest.skipIf(NATIVE_MISSING, "the compiled module is not built")
    def test_openmp_threads_spin_briefly_then_sleep_unless_chosen_or_too_late(self):
        """Loading the runtime asks libgomp for a short spin before sleeping (its default spin stalls
        runs 3-8x when another process holds a core), unless the user chose a policy or torch loaded
        libgomp first."""
        import subprocess
        code = ("import os, sys\n"
                "if sys.argv[1] == 'torch-first':\n    import torch\n"
                "import atenrt\n"
                "from atenrt import runtime\n"
                "runtime._load_native()\n"
                "print(os.environ.get('OMP_WAIT_POLICY'), os.environ.get('GOMP_SPINCOUNT'))\n")
        env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}

        def policy(mode, extra=None):
            out = subprocess.run([sys.executable, "-c", code, mode], env={**env, **(extra or {})},
                                 capture_output=True, text=True, timeout=300)
            self.assertEqual(out.returncode, 0, out.stderr)
            return out.stdout.strip()

        self.assertEqual(policy("first"), "None 10000")
        self.assertEqual(policy("first", {"OMP_WAIT_POLICY": "active"}), "active None")
        if torch is not None:
            self.assertEqual(policy("torch-first"), "None None")  # libgomp read its policy already


if __name__ == "__main__":
    unittest.main()
