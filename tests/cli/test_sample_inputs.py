"""Archives carry their own inputs, and tensors travel in every dtype: `atenrt inspect` lists a
.pt2's sample inputs, `run` without --inputs runs on them and `bench` times them; `run --inputs`
takes a torch.save .pt (bf16 included) and Fortran-ordered .npz arrays; `run --outputs x.pt`
writes a file torch 1.13's torch.load reads. Every layout, checked against PyTorch. A hostile
sample-input entry is a clear error naming the entry, and the archive still compiles.

Needs ATENRT_CLI (scripts/test.sh sets it) and torch (1.13) for the oracle.
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

# Imported when the tests run (see test_compare.py: a process holding torch hands its RSS peak on).
HAVE_TORCH = importlib.util.find_spec("torch") is not None
np = torch = atenrt = None

LAYOUTS = {"pt2": "{root}/data/sample_inputs/model.pt", "pt2-pickle": "{root}/data/sample_inputs/model.pt",
           "legacy": "serialized_example_inputs.pt"}


def _import_torch():
    global np, torch, atenrt
    import numpy
    import torch as torch_module
    import atenrt as atenrt_module
    np, torch, atenrt = numpy, torch_module, atenrt_module


def rewrite(path, out, entry, data):
    """`path` with the zip entry `entry` replaced by `data` (None: removed)."""
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            if info.filename != entry:
                dst.writestr(info, src.read(info))
        if data is not None:
            dst.writestr(entry, data)


def torch_save_bytes(obj):
    buf = io.BytesIO()
    torch.save(obj, buf)
    return buf.getvalue()


@unittest.skipUnless(CLI, "ATENRT_CLI is not set (scripts/test.sh sets it)")
@unittest.skipUnless(HAVE_TORCH, "the oracle is torch")
class SampleInputsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        _import_torch()

        class TwoInputs(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(4, 3)

            def forward(self, x, y):
                return torch.relu(self.fc(x)) + y, x.sum(1)

        torch.manual_seed(0)
        cls.tmp = tempfile.TemporaryDirectory()
        cls.model = TwoInputs().eval()
        cls.x, cls.y = torch.randn(2, 4), torch.randn(2, 3)
        with torch.no_grad():
            cls.want = cls.model(cls.x, cls.y)
        cls.archives = {}
        for layout in LAYOUTS:
            cls.archives[layout] = cls.path(f"two_{layout.replace('-', '_')}.pt2")
            atenrt.save(cls.model, (cls.x, cls.y), cls.archives[layout], layout=layout)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def path(cls, name):
        return os.path.join(cls.tmp.name, name)

    def cli(self, *args, code=0):
        r = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=600)
        self.assertEqual(r.returncode, code, f"atenrt {' '.join(args)}: exit {r.returncode}\n{r.stdout}\n{r.stderr}")
        if code:
            self.assertTrue(r.stderr.startswith("atenrt: error: "), r.stderr)
            self.assertNotIn("internal error", r.stderr)
        return r

    def assert_close(self, got, want):
        self.assertEqual(got.dtype, want.dtype)
        self.assertEqual(got.shape, want.shape)
        err = (got.double() - want.double()).abs().max().item() if got.numel() else 0.0
        self.assertLessEqual(err, 1e-4 * max(want.double().abs().max().item(), 1e-30))

    def test_every_layout_lists_runs_and_benches_its_sample_inputs(self):
        for layout, entry in LAYOUTS.items():
            with self.subTest(layout):
                pt2 = self.archives[layout]
                entry = entry.format(root=os.path.basename(pt2)[:-4])
                text = self.cli("inspect", pt2).stdout
                self.assertIn(f"sample inputs:   {entry}", text)
                self.assertIn("  x: float32[2, 4]\n  y: float32[2, 3]\n", text)
                sample = json.loads(self.cli("inspect", pt2, "--json").stdout)["sample_inputs"]
                self.assertEqual(sample["entry"], entry)
                self.assertEqual([(t["name"], t["dtype"], t["shape"]) for t in sample["tensors"]],
                                 [("x", "float32", [2, 4]), ("y", "float32", [2, 3])])
                # run without --inputs: the archive's own (x, y), written as a torch.save tuple
                out = self.path(f"out_{layout}.pt")
                self.cli("run", pt2, "--outputs", out, "--quiet")
                got = torch.load(out)
                self.assertIsInstance(got, tuple)
                for g, w in zip(got, self.want, strict=True):
                    self.assert_close(g, w)
                bench = json.loads(self.cli("bench", pt2, "--iterations", "2", "--warmup", "0", "--json").stdout)
                self.assertEqual(bench["input_source"], f"{pt2}: {entry}")

    def test_pt_inputs_in_order_or_by_name_and_named_pt_outputs(self):
        pt2 = self.archives["pt2"]
        engine = self.path("two.atrt")
        self.cli("compile", pt2, "-o", engine)
        for obj in ((self.x, self.y), [self.x, self.y], {"y": self.y, "x": self.x}):
            inputs = self.path("in.pt")
            torch.save(obj, inputs)
            out = self.path("named.pt")
            names = [o["name"] for o in json.loads(self.cli("run", engine, "--json", "--inputs", inputs).stdout)["outputs"]]
            self.cli("run", engine, "--inputs", inputs, "--outputs", out, "--named-outputs", "--quiet")
            got = torch.load(out)
            self.assertEqual(list(got), names)
            for name, w in zip(names, self.want):
                self.assert_close(got[name], w)
        torch.save({"x": self.x, "z": self.y}, self.path("wrong.pt"))
        r = self.cli("run", engine, "--inputs", self.path("wrong.pt"), code=1)
        self.assertIn("a dict of inputs is keyed by the model's input names", r.stderr)
        torch.save((self.x, self.y.double()), self.path("f64.pt"))
        r = self.cli("run", engine, "--inputs", self.path("f64.pt"), code=1)
        self.assertIn("float64[2, 3], but input 1 is y: float32[2, 3]", r.stderr)
        # an engine file carries no inputs of its own
        r = self.cli("run", engine, code=1)
        self.assertIn("is an engine file: it carries no sample inputs", r.stderr)
        bench = json.loads(self.cli("bench", engine, "--iterations", "1", "--warmup", "0", "--json").stdout)
        self.assertTrue(bench["input_source"].startswith("random"), bench["input_source"])

    def test_bf16_travels_in_and_out_as_pt(self):
        class Widen(torch.nn.Module):
            def forward(self, x):
                return x.float() * 2, x + x

        x = torch.randn(3, 5).to(torch.bfloat16)
        pt2 = self.path("bf16.pt2")
        atenrt.save(Widen(), (x,), pt2)
        want = Widen()(x)
        self.assertIn("  x: bfloat16[3, 5]\n", self.cli("inspect", pt2).stdout)
        for inputs in ([], ["--inputs", self.path("bf16_in.pt")]):
            torch.save((x * 3,), self.path("bf16_in.pt"))
            self.cli("run", pt2, *inputs, "--outputs", self.path("bf16_out.pt"), "--quiet")
            got = torch.load(self.path("bf16_out.pt"))
            ref = Widen()(x * 3) if inputs else want
            self.assertEqual([g.dtype for g in got], [torch.float32, torch.bfloat16])
            for g, w in zip(got, ref):
                self.assertTrue(torch.equal(g, w), (g, w))
        # .npz cannot hold bf16: the message says so
        r = self.cli("run", pt2, "--outputs", self.path("bf16.npz"), code=1)
        self.assertIn("bfloat16", r.stderr)

    def test_fortran_ordered_npz_inputs(self):
        pt2 = self.archives["pt2"]
        inputs = self.path("fortran.npz")
        xf, yf = np.asfortranarray(self.x.numpy()), np.asfortranarray(self.y.numpy())
        self.assertTrue(xf.flags.f_contiguous and not xf.flags.c_contiguous)
        np.savez(inputs, xf, yf)
        with zipfile.ZipFile(inputs) as z:
            self.assertIn(b"'fortran_order': True", z.read("arr_0.npy")[:128])
        out = self.path("fortran_out.npz")
        self.cli("run", pt2, "--inputs", inputs, "--outputs", out, "--quiet")
        got = np.load(out)
        for k, w in zip(("arr_0", "arr_1"), self.want):
            np.testing.assert_allclose(got[k], w.numpy(), rtol=1e-4, atol=1e-5)

    def test_hostile_sample_inputs_are_errors_naming_the_entry(self):
        class Evil:
            def __reduce__(self):
                return (os.system, ("echo pwned > " + self.marker,))

        Evil.marker = self.path("pwned")
        good = torch_save_bytes(((self.x, self.y), {}))
        with zipfile.ZipFile(io.BytesIO(good)) as z:
            records = {i.filename: z.read(i) for i in z.infolist()}
        prefix = next(n for n in records if n.endswith("data.pkl"))[:-len("data.pkl")]

        def saved(changes):
            out = io.BytesIO()
            with zipfile.ZipFile(out, "w") as z:
                for name, data in {**records, **changes}.items():
                    if data is not None:
                        z.writestr(name, data)
            return out.getvalue()

        cases = {
            "forbidden global 'posix system'": saved({prefix + "data.pkl": pickle.dumps(Evil(), protocol=2)}),
            "storage": saved({prefix + "data/1": records[prefix + "data/1"][:-4]}),  # sizes that lie
            "holds 1 tensors but the program takes 2 tensor inputs": torch_save_bytes(((self.x,), {})),
            "holds 3 tensors but the program takes 2": torch_save_bytes(((self.x, self.y), {"z": self.y})),
            "tensor 1 is float64[2, 3] but input 'y' is float32[2, 3]":
                torch_save_bytes(((self.x, self.y.double()), {})),
            "not a valid zip archive": b"not a zip",
        }
        for layout, entry in LAYOUTS.items():
            source = self.archives[layout]
            entry = entry.format(root=os.path.basename(source)[:-4])
            for message, data in cases.items():
                with self.subTest(layout=layout, case=message):
                    pt2 = self.path("hostile_" + os.path.basename(source))
                    rewrite(source, pt2, entry, data)
                    r = self.cli("run", pt2, code=1)
                    self.assertIn(f"{pt2}: {entry}", r.stderr)
                    self.assertIn(message, r.stderr)
                    self.assertIn("give --inputs", r.stderr)
                    self.assertIn(", unusable: ", self.cli("inspect", pt2).stdout)
                    # the program itself is intact: it compiles, and runs on given inputs
                    inputs = self.path("given.pt")
                    torch.save((self.x, self.y), inputs)
                    self.cli("run", pt2, "--inputs", inputs, "--quiet")
                    bench = json.loads(self.cli("bench", pt2, "--iterations", "1", "--warmup", "0", "--json").stdout)
                    self.assertIn("random (no usable sample inputs", bench["input_source"])
        self.assertFalse(os.path.exists(Evil.marker))
        # No entry at all: said so
        pt2 = self.path("no_samples.pt2")
        rewrite(self.archives["legacy"], pt2, "serialized_example_inputs.pt", None)
        self.assertIn("sample inputs:   none", self.cli("inspect", pt2).stdout)
        self.assertIn("carries no sample inputs (no serialized_example_inputs.pt)", self.cli("run", pt2, code=1).stderr)


if __name__ == "__main__":
    unittest.main()
