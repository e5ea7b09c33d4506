"""Int8 post-training quantization through the command line: --precision int8 with --calibration
batches or a --calibration-cache, against PyTorch's fp32 results."""
import os
import subprocess
import tempfile
import unittest

import numpy as np

CLI = os.environ.get("ATENRT_CLI")
FIXTURES = os.environ.get("ATENRT_FIXTURES_DIR")


@unittest.skipUnless(CLI and FIXTURES, "needs ATENRT_CLI and ATENRT_FIXTURES_DIR (scripts/test.sh sets them)")
class Int8Test(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def atenrt(self, *args, code=0):
        r = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=600)
        self.assertEqual(r.returncode, code, f"atenrt {' '.join(args)}:\n{r.stderr}")
        if code:
            self.assertIn("atenrt: error:", r.stderr)
        return r

    def test_resnet18_int8_is_a_quarter_of_the_weights_and_stays_close_to_pytorch(self):
        archive = os.path.join(FIXTURES, "resnet18.pt2.pt2")
        x = np.load(os.path.join(FIXTURES, "resnet18.inputs.npz"))["arr_0"]
        want = np.load(os.path.join(FIXTURES, "resnet18.outputs.npz"))["arr_0"]
        # Calibration batches that are not the evaluated input: same distribution, other draws.
        rng = np.random.default_rng(3)
        calibration = self.path("calibration.npz")
        np.savez(calibration, rng.standard_normal((4,) + x.shape).astype(np.float32))
        cache, int8, fp32 = self.path("r18.cache"), self.path("int8.atrt"), self.path("fp32.atrt")
        self.atenrt("compile", archive, "--precision", "int8", "--calibration", calibration,
                    "--calibration-cache", cache, "-o", int8)
        self.atenrt("compile", archive, "-o", fp32)
        self.assertLess(os.path.getsize(int8), 0.3 * os.path.getsize(fp32))
        text = self.atenrt("inspect", int8).stdout
        self.assertRegex(text, r"precision int8 \(\d+ of \d+ steps\)")
        self.assertIn("int8[512, 512, 3, 3]", text)
        inputs, out = self.path("x.npz"), self.path("y.npz")
        np.savez(inputs, x)
        self.atenrt("run", int8, "--inputs", inputs, "--outputs", out, "--quiet")
        got = np.load(out)["arr_0"]
        scale = np.abs(want).max()
        self.assertGreater(scale, 1.0)
        err = np.abs(got - want).max() / scale
        self.assertLess(err, 0.05, f"int8 logits off by {err:.3f} of max|ref|")
        self.assertGreater(err, 1e-4)  # it really is quantized
        # The cache alone gives the same engine (no batches run).
        again = self.path("again.atrt")
        self.atenrt("compile", archive, "--precision", "int8", "--calibration-cache", cache, "-o", again)
        with open(int8, "rb") as a, open(again, "rb") as b:
            self.assertEqual(a.read(), b.read())

    def test_calibration_batches_from_a_torch_save_file(self):
        """A .pt written by torch.save (read without torch) calibrates like the same .npz: the same engine."""
        import torch
        archive = os.path.join(FIXTURES, "tiny_cnn.pt2.pt2")
        x = np.load(os.path.join(FIXTURES, "tiny_cnn.inputs.npz"))["arr_0"]
        batches = np.random.default_rng(4).standard_normal((3,) + x.shape).astype(np.float32)
        npz, pt = self.path("c.npz"), self.path("c.pt")
        np.savez(npz, batches)
        torch.save([torch.from_numpy(batches)], pt)
        a, b = self.path("a.atrt"), self.path("b.atrt")
        self.atenrt("compile", archive, "--precision", "int8", "--calibration", npz, "-o", a)
        self.atenrt("compile", archive, "--precision", "int8", "--calibration", pt, "-o", b)
        with open(a, "rb") as fa, open(b, "rb") as fb:
            self.assertEqual(fa.read(), fb.read())
        with open(pt, "r+b") as f:  # a damaged .pt is an error naming the file
            f.truncate(100)
        r = self.atenrt("compile", archive, "--precision", "int8", "--calibration", pt, "-o", b, code=1)
        self.assertIn("c.pt", r.stderr)

    def test_misuse_is_an_error_that_says_what_to_give(self):
        archive = os.path.join(FIXTURES, "resnet18.pt2.pt2")
        out = self.path("e.atrt")
        r = self.atenrt("compile", archive, "--precision", "int8", "-o", out, code=2)
        self.assertIn("calibration", r.stderr)
        r = self.atenrt("compile", archive, "--calibration", "x.npz", "-o", out, code=2)
        self.assertIn("precision int8 only", r.stderr)
        bad = self.path("bad.npz")
        np.savez(bad, np.zeros((2, 3, 8, 8), np.float32))
        r = self.atenrt("compile", archive, "--precision", "int8", "--calibration", bad, "-o", out, code=1)
        self.assertIn("calibration array for input", r.stderr)
        cache = self.path("broken.cache")
        with open(cache, "w") as f:
            f.write("atenrt-calibration-cache 1\nx -1 0 1\n")
        r = self.atenrt("compile", archive, "--precision", "int8", "--calibration-cache", cache, "-o", out, code=1)
        self.assertIn("line 2", r.stderr)
        self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    unittest.main()
