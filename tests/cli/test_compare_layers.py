"""`atenrt run --compare-layers`: every node value of the engine against atenrt's reference
executor on the same network; exit 1 naming the first value beyond tolerance (bf16 here), 0 when
all agree, 2 for an engine file or with --compare/--outputs.

Needs ATENRT_CLI and ATENRT_FIXTURES_DIR (scripts/test.sh sets both).
"""
import json
import os
import subprocess
import tempfile
import unittest

CLI = os.environ.get("ATENRT_CLI")
FIXTURES = os.environ.get("ATENRT_FIXTURES_DIR")


@unittest.skipUnless(CLI and FIXTURES, "ATENRT_CLI and ATENRT_FIXTURES_DIR are not set (scripts/test.sh sets them)")
class CompareLayersTest(unittest.TestCase):
    def setUp(self):
        self.model = os.path.join(FIXTURES, "tiny_cnn.pt2.pt2")
        self.inputs = os.path.join(FIXTURES, "tiny_cnn.inputs.npz")

    def atenrt(self, *args, code=0):
        r = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=600)
        self.assertEqual(r.returncode, code, f"atenrt {' '.join(args)}: exit {r.returncode}\n{r.stdout}\n{r.stderr}")
        if code:
            self.assertTrue(r.stderr.startswith("atenrt: error: "), r.stderr)
        return r

    def test_fp32_agrees_with_the_reference(self):
        out = self.atenrt("run", self.model, "--inputs", self.inputs, "--compare-layers").stdout
        self.assertRegex(out, r"^compared [0-9]+ values with the reference executor")
        data = json.loads(self.atenrt("run", self.model, "--inputs", self.inputs, "--compare-layers", "--json").stdout)
        self.assertIsNone(data["first_divergence"])
        self.assertGreaterEqual(len(data["layers"]), 3)
        self.assertTrue(all(row["ok"] and row["total"] > 0 for row in data["layers"]))
        verbose = self.atenrt("run", self.model, "--inputs", self.inputs, "--compare-layers", "--verbose").stdout
        self.assertEqual(len([line for line in verbose.splitlines() if " ok " in line]), len(data["layers"]))

    def test_bf16_diverges_at_a_named_value(self):
        engine_precision = json.loads(self.atenrt("compile", self.model, "--precision", "bf16", "-o",
                                                  os.path.join(tempfile.mkdtemp(), "m.atrt"), "--json").stdout)
        if engine_precision["precision"] != "bf16":  # layers stay fp32 where the CPU has no bf16 kernels
            self.assertIn("has no native bf16 kernels", " ".join(engine_precision["warnings"]))
            self.skipTest("this CPU computes no bf16")
        r = self.atenrt("run", self.model, "--inputs", self.inputs, "--compare-layers", "--precision", "bf16", code=1)
        self.assertRegex(r.stderr, r"value '[^']+' \([0-9]+ of [0-9]+\) is the first that differs from the reference")
        self.assertIn("FAIL", r.stdout.splitlines()[-1])
        data = json.loads(self.atenrt("run", self.model, "--inputs", self.inputs, "--compare-layers", "--precision",
                                      "bf16", "--json", code=1).stdout)
        first = [row["name"] for row in data["layers"] if not row["ok"]][0]
        self.assertEqual(data["first_divergence"], first)
        # a tolerance bf16 meets
        self.atenrt("run", self.model, "--inputs", self.inputs, "--compare-layers", "--precision", "bf16",
                    "--rtol", "0.1", "--atol", "0.1", "--quiet")

    def test_usage_errors(self):
        engine = os.path.join(tempfile.mkdtemp(), "m.atrt")
        self.atenrt("compile", self.model, "-o", engine)
        self.assertIn("needs the .pt2", self.atenrt("run", engine, "--inputs", self.inputs, "--compare-layers",
                                                    code=2).stderr)
        self.atenrt("run", self.model, "--inputs", self.inputs, "--compare-layers", "--compare",
                    os.path.join(FIXTURES, "tiny_cnn.outputs.npz"), code=2)
        self.assertIn("libtorch fallback", self.atenrt("run", self.model, "--inputs", self.inputs, "--compare-layers",
                                                       "--torch-executed-ops", "aten.convolution", code=1).stderr)


if __name__ == "__main__":
    unittest.main()
