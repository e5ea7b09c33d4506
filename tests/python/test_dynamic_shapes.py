#!/usr/bin/python3
"""Dynamic shapes end to end against PyTorch 1.13: a torchvision ResNet exported with a dynamic
batch (atenrt.save(..., dynamic_shapes=...), make_fx's symbolic tracing), compiled once, run at
batch sizes across the range (its edges too) and on threads; the exporter's and the engine's errors.

    PYTHONPATH=python ATENRT_PYTHON_MODULE_DIR=build/python /usr/bin/python3 -m unittest tests/python/test_dynamic_shapes.py
"""
import json
import os
import subprocess
import sys
import tempfile
import threading
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from native import NATIVE_MISSING, atenrt, runtime  # noqa: E402

try:
    import torch
    import torchvision
except ImportError:
    torch = None


def _close(got, want):
    err = np.max(np.abs(got - want))
    return err <= 1e-4 * max(np.max(np.abs(want)), 1e-12), err


@unittest.skipIf(NATIVE_MISSING, f"atenrt's compiled module is not available: {NATIVE_MISSING}")
@unittest.skipIf(torch is None, "PyTorch and torchvision (Debian python3-torch, python3-torchvision) are needed")
class DynamicBatchResNet(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        torch.manual_seed(0)
        cls.model = torchvision.models.resnet18(num_classes=10).eval()
        cls.folder = tempfile.mkdtemp(prefix="atenrt_dyn_")
        cls.path = os.path.join(cls.folder, "resnet18_dyn.pt2")
        batch = atenrt.Dim("batch", min=1, max=6)
        # Example batch 5: no other dim of the model is 5 (1.13 unifies equal example sizes).
        atenrt.save(cls.model, (torch.randn(5, 3, 32, 32),), cls.path, dynamic_shapes={"x": {0: batch}})
        cls.engine = atenrt.compile(cls.path)

    @classmethod
    def tearDownClass(cls):
        import shutil
        shutil.rmtree(cls.folder, ignore_errors=True)

    def _check(self, context, batch, seed):
        x = torch.randn(batch, 3, 32, 32, generator=torch.Generator().manual_seed(seed))
        with torch.no_grad():
            want = self.model(x).numpy()
        got = context.run([x.numpy()])[0]
        self.assertEqual(got.shape, want.shape)
        ok, err = _close(got, want)
        self.assertTrue(ok, f"batch {batch}: max error {err}")

    def test_every_batch_in_the_range(self):
        spec = self.engine.inputs[0]
        self.assertEqual(spec.shape, (-1, 3, 32, 32))
        self.assertEqual((spec.min_shape, spec.opt_shape, spec.max_shape),
                         ((1, 3, 32, 32), (5, 3, 32, 32), (6, 3, 32, 32)))
        self.assertEqual(str(spec), "x: float32[-1, 3, 32, 32] (1x3x32x32 to 6x3x32x32, opt 5x3x32x32)")
        self.assertIsNone(self.engine.outputs[0].min_shape)
        context = self.engine.create_context()
        for seed, batch in enumerate([5, 1, 6, 2, 5, 3]):  # opt, the edges, others, revisited
            self._check(context, batch, seed)
        with self.assertRaisesRegex(atenrt.InputError, r"input 'x' dim 0 \(s0\) is 7, outside the engine's range \[1, 6\]"):
            context.run([np.zeros((7, 3, 32, 32), np.float32)])
        with self.assertRaisesRegex(atenrt.InputError, "input 'x' dim 2 is 33, the engine takes 32"):
            context.run([np.zeros((2, 3, 33, 32), np.float32)])

    def test_contexts_on_threads_run_different_batches(self):
        errors = []

        def worker(batches, seed):
            try:
                context = self.engine.create_context()
                for i, batch in enumerate(batches):
                    self._check(context, batch, seed * 10 + i)
            except Exception as e:  # reported on the main thread
                errors.append(e)

        threads = [threading.Thread(target=worker, args=(b, i))
                   for i, b in enumerate([[1, 4, 1], [6, 2, 6], [3, 5, 3]])]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])

    def test_saved_engine_keeps_its_range(self):
        path = os.path.join(self.folder, "resnet18_dyn.atrt")
        self.engine.save(path)
        loaded = atenrt.load(path)
        self.assertEqual(loaded.inputs[0].shape, (-1, 3, 32, 32))
        self.assertEqual(loaded.inputs[0], self.engine.inputs[0])
        context = loaded.create_context()
        for seed, batch in enumerate([6, 1, 3]):
            self._check(context, batch, 20 + seed)
        with self.assertRaisesRegex(atenrt.InputError, r"input 'x' dim 0 \(s0\) is 7, outside the engine's range \[1, 6\]"):
            context.run([np.zeros((7, 3, 32, 32), np.float32)])

    def test_narrowed_and_pinned(self):
        narrow = atenrt.compile(self.path, max_shapes={"x": (4, 3, 32, 32)}, opt_shapes="x:2x3x32x32")
        self._check(narrow.create_context(), 4, 7)
        with self.assertRaisesRegex(atenrt.SettingsError, r"above the archive's range of s0 \[1, 6\]"):
            atenrt.compile(self.path, shapes="x:8x3x32x32")
        pinned = atenrt.compile(self.path, shapes="x:2x3x32x32")
        self.assertEqual(pinned.inputs[0].shape, (2, 3, 32, 32))
        self._check(pinned.create_context(), 2, 8)

    @unittest.skipUnless(os.environ.get("ATENRT_CLI"), "ATENRT_CLI is not set (scripts/test.sh sets it)")
    def test_bench_batch_and_streams(self):
        # Throughput mode on a dynamic engine: --batch picks the batch inside the range, --streams
        # runs that many contexts at once; runs and inferences/s count every stream's runs.
        path = os.path.join(self.folder, "bench.atrt")
        self.engine.save(path)
        cli = os.environ["ATENRT_CLI"]
        run = subprocess.run([cli, "bench", path, "--batch", "3", "--streams", "2", "--iterations", "3",
                              "--warmup", "1", "--json"], capture_output=True, text=True, timeout=600)
        self.assertEqual(run.returncode, 0, run.stderr)
        data = json.loads(run.stdout)
        self.assertEqual(data["input_shapes"], [[3, 3, 32, 32]])
        self.assertEqual((data["batch"], data["streams"], data["runs"]), (3, 2, 6))
        self.assertGreater(data["wall_ms"], 0.0)
        self.assertAlmostEqual(data["throughput_per_s"], 6 * 1000.0 / data["wall_ms"], delta=1e-6 * data["throughput_per_s"])
        self.assertAlmostEqual(data["inferences_per_s"], 3 * data["throughput_per_s"], delta=1e-9 * data["inferences_per_s"])
        # Outside the range (max 6) is a usage error naming the input and its range.
        bad = subprocess.run([cli, "bench", path, "--batch", "7", "--iterations", "1"], capture_output=True, text=True,
                             timeout=600)
        self.assertEqual(bad.returncode, 2, bad.stderr)
        self.assertIn("--batch 7", bad.stderr)
        self.assertIn("does not take that batch", bad.stderr)
        self.assertIn("1x3x32x32 to 6x3x32x32", bad.stderr)


@unittest.skipIf(NATIVE_MISSING, f"atenrt's compiled module is not available: {NATIVE_MISSING}")
@unittest.skipIf(torch is None, "PyTorch is needed for the exporter")
class SizesFromSymbols(unittest.TestCase):
    """Sizes computed from a dynamic dim (sym_size -> _operator -> new_zeros / reshape), as 1.13's
    symbolic tracing writes them: a Fill over a shape tensor, run at the range's edges and inside."""

    class Model(torch.nn.Module if torch else object):
        def forward(self, x):
            n = x.shape[0]
            return x * 2, x.new_zeros(n - 1, 3) + 1, x.new_ones(n * 2), x.reshape(n * 3)

    def test_new_zeros_and_reshape_by_a_dynamic_size(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "m.pt2")
            atenrt.save(self.Model(), (torch.randn(7, 3),), path,
                        dynamic_shapes={"x": {0: atenrt.Dim("b", min=3, max=20)}})
            context = atenrt.compile(path).create_context()
        for batch in (3, 4, 7, 11, 20, 3):
            x = torch.randn(batch, 3, generator=torch.Generator().manual_seed(batch))
            got = context.run([x.numpy()])
            want = [w.numpy() for w in self.Model()(x)]
            self.assertEqual([g.shape for g in got], [w.shape for w in want], f"batch {batch}")
            for g, w in zip(got, want):
                np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6, err_msg=f"batch {batch}")


@unittest.skipIf(torch is None, "PyTorch is needed for the exporter")
class DynamicExportErrors(unittest.TestCase):
    def test_bad_dynamic_shapes(self):
        model = torch.nn.Linear(4, 3).eval()
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "m.pt2")
            with self.assertRaisesRegex(atenrt.ExportError, "names input 'y'; the inputs are input"):
                atenrt.save(model, (torch.randn(5, 4),), path, dynamic_shapes={"y": {0: atenrt.Dim("b")}})
            with self.assertRaisesRegex(atenrt.ExportError, "sizes 0 and 1"):
                atenrt.save(model, (torch.randn(1, 4),), path, dynamic_shapes=[{0: atenrt.Dim("b", max=8)}])
            with self.assertRaisesRegex(atenrt.ExportError, "no other dim has"):
                atenrt.save(model, (torch.randn(4, 4),), path, dynamic_shapes=[{0: atenrt.Dim("b", max=8)}])
        with self.assertRaisesRegex(ValueError, "empty"):
            atenrt.Dim("b", min=4, max=2)

    def test_split_along_a_dynamic_dim(self):
        # The number of pieces would depend on the dynamic size: a graph has a fixed number of outputs.
        class Pairs(torch.nn.Module):
            def forward(self, x):
                return x.split(2, dim=0)

        with tempfile.TemporaryDirectory() as folder:
            with self.assertRaisesRegex(atenrt.ExportError, r"split, chunk or unbind along a dynamic size \(s0\)"):
                atenrt.save(Pairs(), (torch.randn(6, 3),), os.path.join(folder, "m.pt2"),
                            dynamic_shapes=[{0: atenrt.Dim("b", max=8)}])


if __name__ == "__main__":
    unittest.main()
