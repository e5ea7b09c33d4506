#!/usr/bin/python3
"""Hybrid engines against PyTorch: engine segments plus torch segments run by the libtorch
fallback (libatenrt_torch.so).

Run: PYTHONPATH=python ATENRT_PYTHON_MODULE_DIR=build/python /usr/bin/python3 -m unittest tests/python/test_hybrid.py

Skips, saying why, when the compiled module, torch or the fallback plugin is not there.
"""
import os
import sys
import tempfile
import threading
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import atenrt  # noqa: E402
from atenrt import runtime  # noqa: E402

try:
    runtime._load_native()
    NATIVE_MISSING = None
    FALLBACK = any(o.startswith("fallback executor on") for o in atenrt.build_info()["options"])
except ImportError as e:
    NATIVE_MISSING = str(e)
    FALLBACK = False

try:
    import torch
    from torch import nn
except ImportError:  # pragma: no cover
    torch = None

# Ops with no converter today, run in the fallback below. Shrink this list as converters land
# (test_no_converter_ops_still_need_the_fallback says when one has).
NO_CONVERTER = ["aten.histogram.bin_ct", "aten._fft_r2c.default"]


def rel_error(got, want):
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    return float(np.max(np.abs(got - want)) / max(float(np.max(np.abs(want))), 1e-30))


if torch is not None:
    class ConvWithNoConverterOps(nn.Module):
        """A small CNN with ops no converter takes in its middle (and a complex value inside one
        torch segment: rfft then abs)."""

        def __init__(self):
            super().__init__()
            self.c1 = nn.Conv2d(3, 4, 3, padding=1)
            self.bn = nn.BatchNorm2d(4)
            self.c2 = nn.Conv2d(4, 4, 3, padding=1)

        def forward(self, x):
            y = torch.relu(self.bn(self.c1(x)))
            inv = torch.histogram(y, bins=8)[0]
            z = torch.special.zeta(torch.sigmoid(y) + 1.5, torch.ones(1))
            f = torch.fft.rfft(y, dim=-1).abs()
            return self.c2(inv + z).sum(dim=1), f * 2

    class BertBlock(nn.Module):
        """A BERT-style encoder block: attention, layer norm, GELU feed-forward."""

        def __init__(self, d=32, heads=4):
            super().__init__()
            self.heads = heads
            self.qkv = nn.Linear(d, 3 * d)
            self.proj = nn.Linear(d, d)
            self.ln1 = nn.LayerNorm(d)
            self.ln2 = nn.LayerNorm(d)
            self.ff1 = nn.Linear(d, 2 * d)
            self.ff2 = nn.Linear(2 * d, d)

        def forward(self, x):
            b, t, d = x.shape
            q, k, v = self.qkv(x).chunk(3, dim=-1)
            split = lambda a: a.reshape(b, t, self.heads, d // self.heads).transpose(1, 2)  # noqa: E731
            att = torch.softmax(split(q) @ split(k).transpose(-1, -2) / (d // self.heads) ** 0.5, dim=-1)
            y = self.ln1(x + self.proj((att @ split(v)).transpose(1, 2).reshape(b, t, d)))
            return self.ln2(y + self.ff2(torch.nn.functional.gelu(self.ff1(y))))

    class Blocks(nn.Module):
        """Two supported blocks around one op without a converter: 2 compute ops, histogram, 5."""

        def forward(self, x):
            a = torch.relu(x * 2.0)                            # block A: mul, relu
            b = a + torch.histogram(x, bins=8)[0]                # histogram: no converter
            return torch.tanh(torch.sigmoid(b * 3.0) + 1.0)    # block B: add, mul, sigmoid, add, tanh


@unittest.skipIf(torch is None, "torch is not installed")
@unittest.skipIf(NATIVE_MISSING and not os.environ.get("ATENRT_REQUIRE_PYTHON_MODULE"), f"{NATIVE_MISSING}")
@unittest.skipIf(not NATIVE_MISSING and not FALLBACK, "atenrt was built without the libtorch fallback")
class HybridTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        torch.manual_seed(0)
        cls.tmp = tempfile.TemporaryDirectory(prefix="atenrt_hybrid_")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def check(self, engine, module, inputs, rtol=1e-4):
        with torch.no_grad():
            want = module(*inputs)
        got = engine(*inputs)
        want = want if isinstance(want, (tuple, list)) else (want,)
        got = got if isinstance(got, (tuple, list)) else (got,)
        self.assertEqual(len(got), len(want))
        for g, w in zip(got, want):
            self.assertEqual(tuple(g.shape), tuple(w.shape))
            self.assertLessEqual(rel_error(g.detach().numpy(), w.numpy()), rtol)

    def test_ops_without_converters_run_in_the_fallback_and_match_pytorch(self):
        m = ConvWithNoConverterOps().eval()
        x = torch.randn(1, 3, 8, 8)
        engine = atenrt.compile(m, [x], min_block_size=1)
        self.assertEqual(sorted(engine.fallback_ops), sorted(NO_CONVERTER + ["aten.abs.default"]))
        self.assertIn("engine segments", engine.segments)
        self.check(engine, m, [x])
        text = engine.report.dry_run.to_text()
        self.assertIn("libtorch fallback", text)
        self.assertIn("no converter is registered for aten.histogram.bin_ct", text)
        self.assertIn("dtype code", text)  # abs of a complex value stays with the fft, in torch

    def test_profiles_list_engine_steps_and_torch_nodes(self):
        m = ConvWithNoConverterOps().eval()
        x = torch.randn(1, 3, 8, 8)
        engine = atenrt.compile(m, [x], min_block_size=1)
        context = engine.create_context()
        self.assertEqual(context.profile(), {"runs": 0, "steps": []})  # off by default
        context.set_profiling(True)
        for _ in range(3):
            context.run([x.numpy()])
        profile = context.profile()
        self.assertEqual(profile["runs"], 3)
        names = [s["name"] for s in profile["steps"]]
        self.assertEqual(names, [s.name for s in engine.report.steps])
        torch_steps = [s for s in profile["steps"] if s["implementation"].startswith("libtorch")]
        self.assertTrue(any(s["kind"] == "aten.histogram.bin_ct" for s in torch_steps))
        end = 0.0
        for s in profile["steps"]:
            self.assertGreaterEqual(s["total_ms"], s["last_ms"])
            self.assertGreaterEqual(s["last_start_ms"] + 1e-6, end, s["name"])  # stages one after another
            end = s["last_start_ms"] + s["last_ms"]
        self.assertGreater(sum(s["total_ms"] for s in torch_steps), 0.0)

    def test_no_converter_ops_still_need_the_fallback(self):
        m = ConvWithNoConverterOps().eval()
        with self.assertRaises(atenrt.UnsupportedError) as cm:
            atenrt.compile(m, [torch.randn(1, 3, 8, 8)], require_full_compilation=True)
        for op in NO_CONVERTER:  # a converter landed for it: take it off NO_CONVERTER
            self.assertIn(op, str(cm.exception))

    def test_torch_executed_ops_on_a_bert_block(self):
        m = BertBlock().eval()
        x = torch.randn(2, 6, 32)
        native = atenrt.compile(m, [x])
        self.assertEqual(native.fallback_ops, ())
        for ops in (["aten.gelu"], ["aten._softmax.default", "aten.native_layer_norm"]):
            with self.subTest(ops=ops):
                engine = atenrt.compile(m, [x], torch_executed_ops=ops, min_block_size=1)
                ran = engine.fallback_ops
                self.assertTrue(ran)
                self.assertTrue(all(any(op.startswith(o) for o in ops) for op in ran), ran)
                self.assertTrue(any(s.implementation.startswith("libtorch") for s in engine.steps))
                self.assertGreaterEqual(engine.report.dry_run.engine_segments, 2)
                self.assertIn("listed in torch_executed_ops", engine.report.dry_run.to_text())
                self.check(engine, m, [x])

    def test_torch_executed_ops_on_a_resnet(self):
        import torchvision
        m = torchvision.models.resnet18(num_classes=10).eval()
        x = torch.randn(1, 3, 32, 32)
        engine = atenrt.compile(m, [x], torch_executed_ops=["aten.add.Tensor"], min_block_size=1)
        self.assertEqual(engine.fallback_ops, ("aten.add.Tensor",))
        dry = engine.report.dry_run
        self.assertEqual(dry.fallback_segments, 8)  # the residual adds, one per basic block
        self.assertEqual(dry.engine_segments, 9)
        self.check(engine, m, [x])

    def test_min_block_size_sweep(self):
        m = Blocks()
        x = torch.randn(8, 8)
        # (min_block_size, engine segments, fallback nodes): blocks of 2 and 5 compute ops around
        # histogram.
        for size, engines, fallback in ((1, 2, 1), (2, 2, 1), (3, 1, 3), (5, 1, 3), (6, 0, 8)):
            with self.subTest(min_block_size=size):
                dry = atenrt.dry_run(self.export(m, x), min_block_size=size)
                self.assertEqual((dry.engine_segments, dry.fallback_nodes), (engines, fallback))
                if size == 3:
                    self.assertIn("supported, but in a block of 2 compute ops, below min_block_size 3",
                                  dry.to_text())
                    # The same reasons as data, per fallback segment and node.
                    why = [w for s in dry.segments if s.target != "engine" for w in s.fallback_why]
                    self.assertEqual(len(why), fallback)
                    self.assertTrue(any("below min_block_size 3" in w for w in why), why)
                    self.assertTrue(any("aten.histogram" in w for w in why), why)
                    self.assertTrue(all(s.fallback_why == () for s in dry.segments if s.target == "engine"))
                engine = atenrt.compile(m, [x], min_block_size=size)
                self.assertEqual(engine.report.dry_run.engine_segments, engines)
                self.check(engine, m, [x])

    def test_a_fully_supported_graph_stays_one_engine(self):
        m = nn.Sequential(nn.Linear(8, 8), nn.ReLU())
        x = torch.randn(2, 8)
        engine = atenrt.compile(m, [x], min_block_size=100)
        self.assertEqual(engine.fallback_ops, ())
        self.assertEqual(engine.segments, "")
        self.assertFalse(any(s.implementation.startswith("libtorch") for s in engine.steps))

    def test_refused_ops_are_named_at_compile_time(self):
        class Random(nn.Module):
            def forward(self, x):
                return torch.bernoulli(torch.sigmoid(x)) + x
        x = torch.randn(2, 8)
        path = self.export(Random(), x)
        dry = atenrt.dry_run(path, min_block_size=1)
        self.assertIn("Refused by the libtorch fallback", dry.to_text())
        self.assertEqual([r.op for r in dry.refused], ["aten.bernoulli.default"])
        self.assertIn("allowlist", dry.refused[0].reason)
        with self.assertRaises(atenrt.UnsupportedError) as cm:
            atenrt.compile(path, min_block_size=1)
        self.assertIn("aten.bernoulli.default", str(cm.exception))
        self.assertIn("allowlist", str(cm.exception))

    def test_engine_files_round_trip_and_corrupt_ones_are_refused(self):
        m = ConvWithNoConverterOps().eval()
        x = torch.randn(1, 3, 8, 8)
        engine = atenrt.compile(m, [x], min_block_size=1)
        path = os.path.join(self.tmp.name, "hybrid.atrt")
        engine.save(path)
        loaded = atenrt.load(path, num_threads=1)
        self.assertEqual(loaded.fallback_ops, engine.fallback_ops)
        a = engine.create_context().run([x.numpy()])
        b = loaded.create_context().run([x.numpy()])
        for g, w in zip(b, a):
            np.testing.assert_array_equal(g, w)
        with open(path, "rb") as f:
            data = bytearray(f.read())
        for name, bad in (("truncated", data[: len(data) // 2]),
                          ("flipped", data[:200] + bytes([data[200] ^ 1]) + data[201:]),
                          ("flipped late", data[:-100] + bytes([data[-100] ^ 0x40]) + data[-99:])):
            with self.subTest(name):
                corrupt = os.path.join(self.tmp.name, f"{name.replace(' ', '_')}.atrt")
                with open(corrupt, "wb") as f:
                    f.write(bad)
                with self.assertRaises(atenrt.FormatError):
                    atenrt.load(corrupt)

    def test_a_dynamic_batch_flows_through_torch_segments(self):
        # torch_executed_ops splits a dynamic-batch CNN into engine segments (dynamic engines)
        # around the fallback; one compiled program serves every batch in the range.
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.c = nn.Conv2d(3, 4, 3, padding=1)
                self.fc = nn.Linear(4 * 8 * 8, 5)

            def forward(self, x):
                return self.fc(torch.sigmoid(torch.relu(self.c(x))).flatten(1))

        m = Net().eval()
        path = os.path.join(self.tmp.name, "dynamic_batch.pt2")
        atenrt.save(m, (torch.randn(5, 3, 8, 8),), path,
                    dynamic_shapes={"x": {0: atenrt.Dim("batch", min=1, max=8)}})
        engine = atenrt.compile(path, torch_executed_ops=["aten.relu.default"], min_block_size=1)
        self.assertEqual(engine.fallback_ops, ("aten.relu.default",))
        self.assertEqual(engine.inputs[0].shape, (-1, 3, 8, 8))
        self.assertEqual((engine.inputs[0].min_shape[0], engine.inputs[0].max_shape[0]), (1, 8))
        for batch in (1, 2, 5, 8):
            with self.subTest(batch=batch):
                self.check(engine, m, [torch.randn(batch, 3, 8, 8)])
        with self.assertRaises(atenrt.InputError) as cm:
            engine(torch.randn(9, 3, 8, 8))
        self.assertIn("outside the engine's range [1, 8]", str(cm.exception))
        saved = os.path.join(self.tmp.name, "dynamic_batch.atrt")
        engine.save(saved)
        self.check(atenrt.load(saved), m, [torch.randn(3, 3, 8, 8)])

    def test_contexts_on_several_threads(self):
        m = ConvWithNoConverterOps().eval()
        x = torch.randn(1, 3, 8, 8)
        engine = atenrt.compile(m, [x], min_block_size=1, num_threads=1)
        rng = np.random.default_rng(3)
        inputs = [rng.standard_normal((1, 3, 8, 8)).astype(np.float32) for _ in range(4)]
        expected = [engine.create_context().run([t]) for t in inputs]
        errors = []

        def work(i):
            ctx = engine.create_context()
            for _ in range(10):
                got = ctx.run([inputs[i]])
                if any(not np.array_equal(g, w) for g, w in zip(got, expected[i])):
                    errors.append(i)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])

    def export(self, module, *inputs):
        path = os.path.join(self.tmp.name, f"{type(module).__name__}.pt2")
        if not os.path.exists(path):
            atenrt.save(module, inputs, path)
        return path


if __name__ == "__main__":
    unittest.main()
