"""Archives written by a real torch 2.11 (`torch.export.save`, schema 8.17), not by atenrt's exporter:
small models in training IR (torch.export.export's default) and after run_decompositions(), static
and dynamic, with the inputs they were exported with and torch 2.11's outputs. Every one must run
through `atenrt run` and match torch at the fp32 bar, or be refused with the reason the manifest's
expectation names.

The archives were made by tests/corpus/real/export_real_archives.py on a machine with torch 2.11
(this one has torch 1.13 only); tests/corpus/real/torch-2.11/manifest.json says what each holds.
Needs ATENRT_CLI (scripts/test.sh sets it).
"""
import json
import os
import subprocess
import tempfile
import unittest

import numpy as np

CLI = os.environ.get("ATENRT_CLI")
HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "corpus", "real", "torch-2.11")

# Archives atenrt refuses, with the reason it must give (everything else must run and match).
REFUSED = {
    # torch.cond on a predicate computed from the input's values: atenrt resolves cond when the
    # network is built.
    "cond.training": "computed from tensor data at run time",
}


def load_manifest():
    with open(os.path.join(HERE, "manifest.json")) as f:
        return json.load(f)


@unittest.skipUnless(CLI, "ATENRT_CLI is not set (scripts/test.sh sets it)")
class RealTorch211Archives(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.manifest = load_manifest()
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_cli(self, *args):
        return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=600)

    def assert_matches(self, got, want, what):
        self.assertEqual(got.shape, want.shape, what)
        if want.dtype.kind == "f":
            self.assertEqual(got.dtype, want.dtype, what)
            self.assertTrue(np.array_equal(np.isnan(got), np.isnan(want)), what + ": NaN positions differ")
            scale = float(np.max(np.abs(np.nan_to_num(want)))) if want.size else 0.0
            err = float(np.max(np.abs(np.nan_to_num(got) - np.nan_to_num(want)))) if want.size else 0.0
            self.assertLessEqual(err, 1e-4 * scale, f"{what}: max|out - ref| {err} over max|ref| {scale}")
        else:
            np.testing.assert_array_equal(got.astype(want.dtype), want, err_msg=what)

    def test_manifest_is_what_torch_wrote(self):
        # The archives come from a real torch >= 2.1, saved with its current schema.
        self.assertTrue(self.manifest["torch"].startswith("2.11"), self.manifest["torch"])
        self.assertEqual(self.manifest["schema_version"][0], 8)
        self.assertGreaterEqual(len(self.manifest["models"]), 20)

    def test_every_archive_runs_and_matches_torch(self):
        ran = 0
        for key, entry in sorted(self.manifest["models"].items()):
            if not entry.get("ok"):
                continue
            archive = os.path.join(HERE, key + ".pt2")
            with self.subTest(archive=key):
                for i in range(entry["input_sets"]):
                    inputs = os.path.join(HERE, f"{key}.inputs{i}.npz")
                    out = os.path.join(self.tmp.name, f"{key}.{i}.npz")
                    result = self.run_cli("run", archive, "--inputs", inputs, "--outputs", out, "--named-outputs", "--quiet")
                    if key in REFUSED:
                        self.assertEqual(result.returncode, 1, result.stderr)
                        self.assertIn(REFUSED[key], result.stderr)
                        break
                    self.assertEqual(result.returncode, 0, f"{key} inputs {i}:\n{result.stderr}")
                    got = np.load(out)
                    want = np.load(os.path.join(HERE, f"{key}.outputs{i}.npz"))
                    # The engine's outputs follow the signature: mutated buffers first (engines are
                    # immutable, so they are outputs), then the user outputs torch returned.
                    kinds = entry["signature_outputs"]
                    self.assertEqual(len(got.files), len(kinds), f"{key}: outputs {got.files} vs {kinds}")
                    user = [name for name, kind in zip(got.files, kinds) if kind.startswith("OutputKind.USER_OUTPUT")]
                    self.assertEqual(len(user), len(want.files), key)
                    for name, ref in zip(user, want.files):
                        self.assert_matches(got[name], want[ref], f"{key} inputs {i} output {name}")
                    for name, kind in zip(got.files, kinds):
                        if kind == "OutputKind.BUFFER_MUTATION:count":
                            # A mutation output is named after what it updates: the buffer's fqn.
                            self.assertEqual(name, "count", got.files)
                            # forward adds 1 to the buffer `count`. The archive holds count = 1, not
                            # its initial zeros: the generator ran the training-IR variant (sharing the
                            # module's buffers) before exporting this one. So the update is 2.
                            np.testing.assert_array_equal(got[name], np.full(4, 2.0, np.float32))
                    ran += 1
        self.assertGreaterEqual(ran, 28)

    def test_every_archive_runs_on_its_own_sample_inputs(self):
        # torch 2.11 saved the export's inputs in data/sample_inputs/model.pt (a torch.save of
        # (args, kwargs)); atenrt reads them with its restricted unpickler, lists them, and `run`
        # without --inputs runs on them: the outputs are torch's on inputs0, the export inputs.
        ran = 0
        for key, entry in sorted(self.manifest["models"].items()):
            if not entry.get("ok") or key in REFUSED:
                continue
            archive = os.path.join(HERE, key + ".pt2")
            with self.subTest(archive=key):
                sample = json.loads(self.run_cli("inspect", archive, "--json").stdout)["sample_inputs"]
                self.assertEqual(sample["entry"], f"{key}/data/sample_inputs/model.pt")
                self.assertNotIn("unavailable", sample)
                given = np.load(os.path.join(HERE, f"{key}.inputs0.npz"))
                self.assertEqual([t["shape"] for t in sample["tensors"]], [list(given[k].shape) for k in given.files])
                out = os.path.join(self.tmp.name, f"{key}.sample.npz")
                result = self.run_cli("run", archive, "--outputs", out, "--quiet")
                self.assertEqual(result.returncode, 0, f"{key}:\n{result.stderr}")
                got, want = np.load(out), np.load(os.path.join(HERE, f"{key}.outputs0.npz"))
                kinds = entry["signature_outputs"]
                user = [name for name, kind in zip(got.files, kinds) if kind.startswith("OutputKind.USER_OUTPUT")]
                for name, ref in zip(user, want.files, strict=True):
                    self.assert_matches(got[name], want[ref], f"{key} sample inputs, output {name}")
                ran += 1
        self.assertGreaterEqual(ran, 20)

    def test_the_op_mix_needs_no_fallback(self):
        # nan_to_num, logit, isin, bucketize, |, where, cumsum, topk, << and >> (aten.__lshift__/
        # __rshift__.Scalar on int64) all have converters.
        for key in ("ops.training", "ops.decomposed"):
            result = self.run_cli("compile", os.path.join(HERE, key + ".pt2"), "--dryrun", "--require-full-compilation")
            self.assertEqual(result.returncode, 0, f"{key}:\n{result.stdout}\n{result.stderr}")

    def test_training_ir_recurrent_layers_need_no_fallback(self):
        # Training IR keeps nn.LSTM / nn.GRU as aten.lstm.input / gru.input (batch_first, a 2-layer
        # LSTM into a GRU): converters unroll them, so the archive compiles in every build, the
        # sanitizer builds without the libtorch fallback included; its values are checked above.
        result = self.run_cli("compile", os.path.join(HERE, "recurrent.training.pt2"), "--dryrun",
                              "--require-full-compilation")
        self.assertEqual(result.returncode, 0, f"{result.stdout}\n{result.stderr}")

    def test_dynamic_archives_keep_their_range(self):
        # dyn_seq was exported with Dim("seq", min=2, max=64) on dim 1: one engine runs seq 8, 3 and 40
        # above; a length past the range is an input error naming the input and its range.
        engine = os.path.join(self.tmp.name, "dyn_seq.atrt")
        result = self.run_cli("compile", os.path.join(HERE, "dyn_seq.training.pt2"), "-o", engine)
        self.assertEqual(result.returncode, 0, result.stderr)
        text = self.run_cli("inspect", engine).stdout
        self.assertIn("tokens: int64[2, -1]", text)
        big = os.path.join(self.tmp.name, "big.npz")
        np.savez(big, tokens=np.zeros((2, 65), np.int64))
        result = self.run_cli("run", engine, "--inputs", big)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn("int64[2, 65], but input 0 is tokens: int64[2, -1] (2x2 to 2x64", result.stderr)


if __name__ == "__main__":
    unittest.main()
