"""`atenrt run --compare REF.pt`: references saved with torch.save (torch 1.13), read by the CLI
without torch and as untrusted input: tensors, tuples, lists and dicts of them compare; hostile
files are clear errors (exit 1, `atenrt: error:`), never a crash.

Needs ATENRT_CLI (scripts/test.sh sets it) and torch for writing the references.
"""
import importlib.util
import io
import json
import os
import pickle
import subprocess
import sys
import tempfile
import unittest
import zipfile

CLI = os.environ.get("ATENRT_CLI")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

# torch is imported when the tests run, not when unittest discovers this file: a process that has
# imported torch hands its RSS high-water mark to the children it starts (ru_maxrss survives exec),
# which would break test_cli's RSS bound on `atenrt bench`.
HAVE_TORCH = importlib.util.find_spec("torch") is not None
np = torch = None


def _import_torch():
    global np, torch
    import numpy
    import torch as torch_module
    np, torch = numpy, torch_module


@unittest.skipUnless(CLI, "ATENRT_CLI is not set (scripts/test.sh sets it)")
@unittest.skipUnless(HAVE_TORCH, "the references are written with torch.save")
class CompareTorchSaveTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        _import_torch()
        import atenrt

        class TwoHeads(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.a, self.b = torch.nn.Linear(6, 4), torch.nn.Linear(6, 3)

            def forward(self, x):
                return torch.relu(self.a(x)), self.b(x).t()

        torch.manual_seed(0)
        cls.tmp = tempfile.TemporaryDirectory()
        cls.model = TwoHeads().eval()
        cls.x = torch.randn(5, 6)
        pt2 = cls.path("two_heads.pt2")
        atenrt.save(cls.model, (cls.x,), pt2)
        cls.engine = cls.path("two_heads.atrt")
        subprocess.run([CLI, "compile", pt2, "-o", cls.engine], check=True, capture_output=True)
        cls.inputs = cls.path("inputs.npz")
        np.savez(cls.inputs, cls.x.numpy())
        with torch.no_grad():
            cls.want = cls.model(cls.x)
        summary = json.loads(cls.run_cli("run", cls.engine, "--inputs", cls.inputs, "--json").stdout)
        cls.names = [o["name"] for o in summary["outputs"]]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def path(cls, name):
        return os.path.join(cls.tmp.name, name)

    @staticmethod
    def run_cli(*args):
        return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=600)

    def compare(self, obj, code=0, name="ref.pt", *extra):
        path = self.path(name)
        if isinstance(obj, bytes):
            with open(path, "wb") as f:
                f.write(obj)
        else:
            torch.save(obj, path)
        r = self.run_cli("run", self.engine, "--inputs", self.inputs, "--compare", path, *extra)
        self.assertEqual(r.returncode, code, f"exit {r.returncode}\n{r.stdout}\n{r.stderr}")
        if code:
            self.assertTrue(r.stderr.startswith("atenrt: error: "), r.stderr)
            self.assertNotIn("internal error", r.stderr)
        return r

    def test_tensors_tuples_lists_and_dicts_compare(self):
        a, b = self.want
        for obj in (tuple(self.want), list(self.want), [[a], (b,)], {self.names[0]: a, self.names[1]: b},
                    {self.names[1]: b, self.names[0]: a}):
            out = self.compare(obj).stdout
            self.assertEqual(len([line for line in out.splitlines() if " ok " in line]), 2, out)
        # a saved view (b is a transpose: strided) and a Parameter with grad compare as their values
        self.compare((torch.nn.Parameter(a.clone()), b.t().contiguous().t()), name="views.pth")
        self.compare((a, b.t()), code=1)  # the transpose's shape differs: a clear FAIL row
        wrong = self.compare((a + 0.5, b), code=1)
        self.assertRegex(wrong.stdout, r"FAIL +0\.5")
        self.assertIn("1 of 2 outputs differ", wrong.stderr)
        self.compare((a + 0.5, b), 0, "ref.pt", "--atol", "0.6")
        data = json.loads(self.compare(tuple(self.want), 0, "ref.pt", "--json").stdout)
        self.assertTrue(all(row["ok"] for row in data["compare"]["outputs"]))
        self.assertIn("3 tensors, the model has 2 outputs", self.compare((a, b, a), code=1).stderr)
        self.assertIn("1 tensors, the model has", self.compare(a, code=1).stderr)
        missing = self.compare({self.names[0]: a, "other": b}, code=1)
        self.assertIn(f"no reference named '{self.names[1]}'", missing.stdout)

    def test_values_that_are_not_tensors_are_named(self):
        a, b = self.want
        self.assertIn("the saved object[1] is a str", self.compare((a, "b"), code=1).stderr)
        self.assertIn("a dict key is a int", self.compare({0: a, 1: b}, code=1).stderr)
        deep = a
        for _ in range(40):
            deep = [deep]
        self.assertIn("nested deeper than 32", self.compare(deep, code=1).stderr)
        self.assertIn("ComplexFloatStorage", self.compare((a.to(torch.complex64), b), code=1).stderr)

    def test_hostile_files_are_errors_not_crashes(self):
        good = io.BytesIO()
        torch.save(tuple(self.want), good)
        entries = {}
        with zipfile.ZipFile(io.BytesIO(good.getvalue())) as z:
            for info in z.infolist():
                entries[info.filename] = z.read(info)
        prefix = next(n for n in entries if n.endswith("data.pkl"))[:-len("data.pkl")]

        def archive(changes):
            out = io.BytesIO()
            with zipfile.ZipFile(out, "w") as z:
                for name, data in {**entries, **changes}.items():
                    if data is not None:
                        z.writestr(name, data)
            return out.getvalue()

        class Evil:
            def __reduce__(self):
                return (os.system, ("echo pwned > " + self.marker,))
        Evil.marker = self.path("pwned")
        cyclic = []
        cyclic.append(cyclic)
        cases = {
            "forbidden global": archive({prefix + "data.pkl": pickle.dumps(Evil(), protocol=2)}),
            "nested deeper": archive({prefix + "data.pkl": pickle.dumps(cyclic, protocol=2)}),
            "storage holds": archive({prefix + "data/0": entries[prefix + "data/0"][:-4]}),
            "has no record": archive({prefix + "data/0": None}),
            "truncated": archive({prefix + "data.pkl": entries[prefix + "data.pkl"][:-3]}),
            "data.pkl": archive({prefix + "data.pkl": None}),
            "zip": good.getvalue()[: len(good.getvalue()) // 2],
            "cannot open": None,
        }
        for message, data in cases.items():
            with self.subTest(message):
                if data is None:
                    r = self.run_cli("run", self.engine, "--inputs", self.inputs, "--compare", self.path("absent.pt"))
                    self.assertEqual(r.returncode, 1, r.stderr)
                else:
                    r = self.compare(data, code=1, name="hostile.pt")
                self.assertIn(message, r.stderr)
                self.assertIn("hostile.pt" if data is not None else "absent.pt", r.stderr)
        self.assertFalse(os.path.exists(Evil.marker), "the pickle ran code")


if __name__ == "__main__":
    unittest.main()
