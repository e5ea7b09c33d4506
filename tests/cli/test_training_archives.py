"""Training-mode graphs, computed as PyTorch computes them: `atenrt run` on the hand-written torch 2.14
archive tests/corpus/valid/training_batch_norm.pt2 (make_corpus.py training_batch_norm_entries: a
BatchNorm2d in train() mode after run_decompositions()) against torch 1.13 running the same module in
train() mode. The buffers' new values are engine outputs named after the buffers, before the user
output, as the signature orders them.

Needs ATENRT_CLI (scripts/test.sh sets it) and torch (1.13) for the oracle.
"""
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

CLI = os.environ.get("ATENRT_CLI")
HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "corpus")
sys.path.insert(0, CORPUS)
HAVE_TORCH = importlib.util.find_spec("torch") is not None


@unittest.skipUnless(CLI and HAVE_TORCH, "needs ATENRT_CLI (scripts/test.sh sets it) and torch")
class TrainingBatchNorm(unittest.TestCase):
    def test_running_statistics_and_output_match_torch_train_mode(self):
        import numpy as np
        import torch
        from make_corpus import BN_TRAIN as P

        bn = torch.nn.BatchNorm2d(3, eps=P["eps"], momentum=P["momentum"])
        with torch.no_grad():
            for name in ("weight", "bias", "running_mean", "running_var"):
                getattr(bn, name).copy_(torch.tensor(P[name]))
            bn.num_batches_tracked.fill_(P["num_batches_tracked"])
        bn.train()
        x = torch.randn(*P["x"], generator=torch.Generator().manual_seed(5)) * 2 + 0.5
        with torch.no_grad():
            want = {"getitem": bn(x)}
        for name in ("running_mean", "running_var", "num_batches_tracked"):
            want["bn." + name] = getattr(bn, name)
        with tempfile.TemporaryDirectory() as tmp:
            inputs, out = os.path.join(tmp, "in.npz"), os.path.join(tmp, "out.npz")
            np.savez(inputs, x=x.numpy())
            r = subprocess.run([CLI, "run", os.path.join(CORPUS, "valid", "training_batch_norm.pt2"), "--inputs",
                                inputs, "--outputs", out, "--named-outputs", "--quiet"],
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(r.returncode, 0, r.stderr)
            got = dict(np.load(out))
        self.assertEqual(list(got), ["bn.running_mean", "bn.running_var", "bn.num_batches_tracked", "getitem"])
        for name, ref in want.items():
            ref = ref.numpy()
            self.assertEqual(got[name].shape, ref.shape, name)
            self.assertEqual(got[name].dtype, ref.dtype, name)
            scale = float(np.abs(ref).max())
            self.assertLessEqual(float(np.abs(got[name] - ref).max()), 1e-4 * scale, name)
        # The running variance is the unbiased one (torch's n / (n - 1)), not the biased one used to normalize.
        biased = 0.8 * np.array(P["running_var"]) + 0.2 * x.var((0, 2, 3), unbiased=False).numpy()
        self.assertGreater(float(np.abs(got["bn.running_var"] - biased).max()), 1e-3)


if __name__ == "__main__":
    unittest.main()
