#!/usr/bin/python3
"""Dynamic shapes of whole model families against PyTorch 1.13, exported by atenrt.save with
dynamic_shapes (make_fx's symbolic tracing, with the gaps atenrt fills: _symbolic_ops.py):

- transformer blocks with a dynamic batch AND sequence: a post-norm encoder layer (qkv reshaped
  by both sizes and unbound, attention, MLP, layer norms) and a pre-norm causal block with an
  embedding, positions sliced to the sequence, a causal mask sliced to [s, s] and split q/k/v;
- a small segmentation model (conv encoder with strides and dilation, bilinear upsampling back to
  the input's size, as FCN/DeepLab heads do) with a dynamic height and width.

Each is compiled once and run at shapes across the range, its edges included (sequence 1), in
several contexts on threads. fp32 within 1e-4 * max|ref|.

    PYTHONPATH=python ATENRT_PYTHON_MODULE_DIR=build/python /usr/bin/python3 -m unittest tests/python/test_dynamic_models.py
"""
import math
import os
import shutil
import sys
import tempfile
import threading
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from native import NATIVE_MISSING, atenrt  # noqa: E402

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
except ImportError:
    torch = None

Module = nn.Module if torch else object


class PostNormLayer(Module):
    """nn.TransformerEncoderLayer's math (ReLU, eval), as bench/models/zoo.py's encoder writes it."""

    def __init__(self, d_model=32, heads=4, ff=64):
        super().__init__()
        self.heads = heads
        self.scale = 1.0 / math.sqrt(d_model // heads)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.ff1 = nn.Linear(d_model, ff)
        self.ff2 = nn.Linear(ff, d_model)
        self.norm2 = nn.LayerNorm(d_model)

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.qkv(x).reshape(b, s, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4).unbind(0)
        att = torch.softmax((q @ k.transpose(-2, -1)) * self.scale, dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, s, d)
        x = self.norm1(x + self.proj(y))
        return self.norm2(x + self.ff2(F.relu(self.ff1(x))))


class CausalBlock(Module):
    """Pre-norm causal block over tokens (tests/tools/make_fixtures.py's EncoderBlock): positions and
    the causal mask are sliced to the sequence, q/k/v split, GELU MLP."""

    def __init__(self, vocab=50, dim=32, heads=4, max_seq=24):
        super().__init__()
        self.heads = heads
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.randn(1, max_seq, dim) * 0.02)
        self.ln1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.ln2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, 4 * dim)
        self.fc2 = nn.Linear(4 * dim, dim)
        self.head = nn.Linear(dim, vocab)
        self.register_buffer("causal", torch.tril(torch.ones(max_seq, max_seq, dtype=torch.bool)), persistent=False)

    def forward(self, tokens):
        b, s = tokens.shape
        x = self.embed(tokens) + self.pos[:, :s]
        h = self.ln1(x)
        q, k, v = self.qkv(h).split(h.shape[-1], dim=-1)
        q, k, v = (t.reshape(b, s, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        att = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
        att = att.masked_fill(~self.causal[:s, :s], float("-inf"))
        y = torch.matmul(torch.softmax(att, dim=-1), v).transpose(1, 2).reshape(b, s, -1)
        x = x + self.proj(y)
        x = x + self.fc2(F.gelu(self.fc1(self.ln2(x))))
        return self.head(x)


class TinySegmenter(Module):
    """Conv encoder (output stride 4, a dilated conv, batch norm) and a 1x1 classifier, upsampled
    bilinearly to the input's height and width."""

    def __init__(self, classes=5):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
            nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=2, dilation=2), nn.ReLU())
        self.classifier = nn.Conv2d(16, classes, 1)

    def forward(self, x):
        return F.interpolate(self.classifier(self.encoder(x)), size=x.shape[-2:], mode="bilinear",
                             align_corners=False)


def _close(got, want):
    err = float(np.max(np.abs(got - want))) if want.size else 0.0
    return err <= 1e-4 * max(float(np.max(np.abs(want))) if want.size else 0.0, 1e-12), err


class _DynamicModel:
    """Exports `model()` once with `dynamic` dims, compiles it, and checks runs against PyTorch."""

    @classmethod
    def setUpClass(cls):
        torch.manual_seed(0)
        cls.torch_model = cls.model().eval()
        if hasattr(cls, "prepare"):
            cls.prepare(cls.torch_model)
        cls.folder = tempfile.mkdtemp(prefix="atenrt_dynmodel_")
        path = os.path.join(cls.folder, "m.pt2")
        atenrt.save(cls.torch_model, (cls.make_input(cls.example, 0),), path, dynamic_shapes=[cls.dynamic])
        cls.engine = atenrt.compile(path)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder, ignore_errors=True)

    def check(self, context, shape, seed):
        x = self.make_input(shape, seed)
        with torch.no_grad():
            want = self.torch_model(x).numpy()
        got = context.run([x.numpy()])[0]
        self.assertEqual(got.shape, want.shape, f"shape {shape}")
        ok, err = _close(got, want)
        self.assertTrue(ok, f"shape {shape}: max error {err} (max |ref| {np.max(np.abs(want))})")

    def test_shapes_across_the_range(self):
        context = self.engine.create_context()
        for seed, shape in enumerate(self.shapes):
            self.check(context, shape, seed)

    def test_contexts_on_threads(self):
        errors = []

        def worker(shapes, seed):
            try:
                context = self.engine.create_context()
                for i, shape in enumerate(shapes):
                    self.check(context, shape, 100 + seed * 10 + i)
            except Exception as e:  # reported on the main thread
                errors.append(e)

        threads = [threading.Thread(target=worker, args=(shapes, i)) for i, shapes in enumerate(self.thread_shapes)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])

    def test_outside_the_range(self):
        x = self.make_input(self.too_large, 0).numpy()
        with self.assertRaisesRegex(atenrt.InputError, "outside the engine's range"):
            self.engine.create_context().run([x])


@unittest.skipIf(NATIVE_MISSING, f"atenrt's compiled module is not available: {NATIVE_MISSING}")
@unittest.skipIf(torch is None, "PyTorch (Debian python3-torch) is needed")
class PostNormTransformerLayer(_DynamicModel, unittest.TestCase):
    model = PostNormLayer
    # Examples of at least 2 that no other dim has (torch 1.13 unifies equal example sizes).
    example = (5, 7)
    dynamic = {0: atenrt.Dim("batch", min=1, max=6), 1: atenrt.Dim("seq", min=1, max=40)} if torch else None
    shapes = [(5, 7), (1, 1), (6, 40), (2, 17), (1, 40), (6, 1), (5, 7)]
    thread_shapes = [[(1, 3), (4, 9)], [(6, 40), (2, 2)], [(3, 16), (1, 1)]]
    too_large = (2, 41)

    @staticmethod
    def make_input(shape, seed):
        return torch.randn(*shape, 32, generator=torch.Generator().manual_seed(seed))


@unittest.skipIf(NATIVE_MISSING, f"atenrt's compiled module is not available: {NATIVE_MISSING}")
@unittest.skipIf(torch is None, "PyTorch (Debian python3-torch) is needed")
class CausalTransformerBlock(_DynamicModel, unittest.TestCase):
    model = CausalBlock
    example = (5, 7)
    dynamic = {0: atenrt.Dim("batch", min=1, max=6), 1: atenrt.Dim("seq", min=1, max=24)} if torch else None
    shapes = [(5, 7), (1, 1), (6, 24), (3, 10), (1, 24), (6, 1)]
    thread_shapes = [[(1, 3), (4, 9)], [(6, 24), (2, 2)], [(3, 16), (1, 1)]]
    too_large = (7, 3)

    @staticmethod
    def make_input(shape, seed):
        return torch.randint(0, 50, shape, generator=torch.Generator().manual_seed(seed))


@unittest.skipIf(NATIVE_MISSING, f"atenrt's compiled module is not available: {NATIVE_MISSING}")
@unittest.skipIf(torch is None, "PyTorch (Debian python3-torch) is needed")
class SegmentationHeightWidth(_DynamicModel, unittest.TestCase):
    model = TinySegmenter
    example = (37, 45)
    dynamic = {2: atenrt.Dim("height", min=8, max=64), 3: atenrt.Dim("width", min=8, max=64)} if torch else None
    # The edges, odd sizes (stride-2 convs round up; the upsampling's scale is not an integer),
    # a wide and a tall shape.
    shapes = [(37, 45), (8, 8), (64, 64), (8, 64), (63, 9), (33, 50), (37, 45)]
    thread_shapes = [[(8, 8), (31, 17)], [(64, 64), (20, 21)], [(12, 48), (8, 8)]]
    too_large = (65, 20)

    @staticmethod
    def prepare(model):
        # Statistics that are not the identity, so that batch-norm folding is exercised.
        bn = model.encoder[1]
        g = torch.Generator().manual_seed(1)
        with torch.no_grad():
            bn.running_mean.copy_(torch.randn(8, generator=g) * 0.1)
            bn.running_var.copy_(torch.rand(8, generator=g) + 0.5)

    @staticmethod
    def make_input(shape, seed):
        return torch.randn(2, 3, *shape, generator=torch.Generator().manual_seed(seed))


if __name__ == "__main__":
    unittest.main()
