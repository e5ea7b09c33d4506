#!/usr/bin/python3
"""Int8 from Python: atenrt.compile(module, inputs, precision="int8", calibration=<.npz path>) against
PyTorch's fp32 result, and the calibration settings' checks.

Run: PYTHONPATH=python ATENRT_PYTHON_MODULE_DIR=build/python /usr/bin/python3 -m unittest discover -s tests/python
"""
import os
import pathlib
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from native import NATIVE_MISSING, atenrt  # noqa: E402

try:
    import torch
    from torch import nn
except ImportError:
    torch = None


@unittest.skipIf(NATIVE_MISSING or torch is None, NATIVE_MISSING or "needs torch")
class Int8Test(unittest.TestCase):
    def test_a_calibrated_cnn_stays_close_to_pytorch(self):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Conv2d(8, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(),
                              nn.Flatten(), nn.Linear(32 * 8 * 8, 10)).eval()
        x = torch.randn(2, 8, 8, 8)
        with tempfile.TemporaryDirectory() as folder:
            batches = pathlib.Path(folder) / "calibration.npz"
            np.savez(batches, np.random.default_rng(1).standard_normal((6, 2, 8, 8, 8)).astype(np.float32))
            engine = atenrt.compile(model, inputs=[x], precision="int8", calibration=batches)
        steps = engine.describe()
        self.assertIn("int8", steps)
        with torch.no_grad():
            want = model(x)
        got = engine(x)
        scale = float(want.abs().max())
        err = float((got - want).abs().max()) / scale
        self.assertLess(err, 0.05)
        self.assertGreater(err, 1e-5)  # quantized, not fp32

    def test_int8_without_calibration_is_a_settings_error(self):
        model = nn.Sequential(nn.Conv2d(8, 8, 3)).eval()
        with self.assertRaises(ValueError) as caught:
            atenrt.compile(model, inputs=[torch.randn(1, 8, 8, 8)], precision="int8")
        self.assertIn("calibration", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
