#!/usr/bin/python3
"""Weight-only preprocessing is evaluated at compile time: wav2vec2's weight-normed positional
convolution (_weight_norm_interface on parameters) leaves no layer of its own in the engine, only
the convolution over the folded weight, and the result matches PyTorch.

Run: PYTHONPATH=python ATENRT_PYTHON_MODULE_DIR=build/python /usr/bin/python3 -m unittest discover -s tests/python
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from native import NATIVE_MISSING, atenrt, runtime  # noqa: E402

try:
    import torch
    from torch import nn
except ImportError:
    torch = None


@unittest.skipIf(torch is None, "torch is not installed")
@unittest.skipIf(NATIVE_MISSING and not os.environ.get("ATENRT_REQUIRE_PYTHON_MODULE"), f"{NATIVE_MISSING}")
class WeightPreprocessingTest(unittest.TestCase):
    def test_weight_norm_folds_into_the_convolution(self):
        if NATIVE_MISSING:
            raise AssertionError(NATIVE_MISSING)
        torch.manual_seed(0)
        # wav2vec2's positional convolution: grouped Conv1d, weight norm over dim 2.
        conv = nn.utils.weight_norm(nn.Conv1d(8, 8, 5, padding=2, groups=2), name="weight", dim=2).eval()
        x = torch.randn(1, 8, 20)
        engine = atenrt.compile(conv, inputs=[x])
        got = engine(x)
        want = conv(x).detach()
        bound = 1e-4 * float(want.abs().max())
        self.assertLessEqual(float((got - want).abs().max()), bound)
        kinds = [step.kind for step in engine.steps]
        self.assertEqual(len(kinds), 1, f"weight norm left layers in the engine: {engine.describe()}")
        self.assertIn("onv", kinds[0])


if __name__ == "__main__":
    unittest.main()
