#!/usr/bin/python3
"""Engine files are mapped, so processes that load the same file share its weight pages.

Two processes load one engine file (16 MiB of fp32 weights, pre-packed in the file) and run it;
each then reads its own /proc/self/smaps for that file's mapping. With both alive, the mapping's
pages must be shared clean pages (in the page cache once, counted half to each process in Pss)
and none of them private or dirty: a loader that copied or repacked the weights would show
private pages instead.

Run: PYTHONPATH=python ATENRT_PYTHON_MODULE_DIR=build/python /usr/bin/python3 -m unittest tests/python/test_memory_sharing.py
"""
import os
import subprocess
import sys
import tempfile
import unittest

from native import NATIVE_MISSING, atenrt  # noqa: E402

try:
    import torch
    from torch import nn
except ImportError:  # pragma: no cover
    torch = None

# A child: load the engine, run it, say so, then on each line from the parent report the file
# mapping's smaps fields (kB) as "rss pss shared_clean private" and exit on "quit".
CHILD = r"""
import sys
import numpy as np
import atenrt

path = sys.argv[1]
engine = atenrt.load(path)
engine.create_context().run([np.ones((4, 1024), np.float32)])
print("ready", flush=True)
for line in sys.stdin:
    if line.strip() == "quit":
        break
    fields = {"Rss": 0, "Pss": 0, "Shared_Clean": 0, "Private_Clean": 0, "Private_Dirty": 0}
    inside = False
    with open("/proc/self/smaps") as f:
        for row in f:
            parts = row.split()
            if "-" in parts[0] and len(parts[0]) > 8 and ":" not in parts[0]:  # a mapping's header line
                inside = len(parts) >= 6 and parts[5] == path
            elif inside and parts[0].rstrip(":") in fields:
                fields[parts[0].rstrip(":")] += int(parts[1])
    print(fields["Rss"], fields["Pss"], fields["Shared_Clean"], fields["Private_Clean"] + fields["Private_Dirty"],
          flush=True)
"""


@unittest.skipIf(NATIVE_MISSING, f"atenrt's compiled module is not available: {NATIVE_MISSING}")
@unittest.skipIf(torch is None, "PyTorch (Debian python3-torch) is needed to export the model")
@unittest.skipUnless(os.path.exists("/proc/self/smaps"), "needs Linux /proc/self/smaps")
class MappedWeightsAreShared(unittest.TestCase):
    def test_two_processes_share_the_weight_pages(self):
        torch.manual_seed(0)
        model = nn.Sequential(*[nn.Linear(1024, 1024) for _ in range(4)]).eval()  # 16 MiB of weights
        with tempfile.TemporaryDirectory(prefix="atenrt_share_") as folder:
            pt2 = os.path.join(folder, "mlp.pt2")
            path = os.path.join(folder, "mlp.atrt")
            atenrt.save(model, (torch.randn(4, 1024),), pt2)
            atenrt.compile(pt2).save(path)
            env = dict(os.environ)
            env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(atenrt.__path__[0])] +
                                                [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
            children = []
            try:
                for _ in range(2):
                    child = subprocess.Popen([sys.executable, "-c", CHILD, path], stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, text=True, env=env)
                    children.append(child)
                    self.assertEqual(child.stdout.readline().strip(), "ready")
                first = children[0]
                first.stdin.write("report\n")
                first.stdin.flush()
                rss, pss, shared, private = map(int, first.stdout.readline().split())
            finally:
                for child in children:
                    try:
                        child.stdin.write("quit\n")
                        child.stdin.close()
                    except BrokenPipeError:
                        pass
                    child.wait(timeout=60)
            weights_kb = 4 * 1024 * 1024 * 4 // 1024
            self.assertGreaterEqual(rss, 0.9 * weights_kb, f"the file's pages are resident (Rss {rss} kB)")
            self.assertGreaterEqual(shared, 0.9 * rss, f"shared clean {shared} of Rss {rss} kB")
            self.assertEqual(private, 0, "no private (copied or written) page of the engine file")
            self.assertLessEqual(pss, 0.6 * rss, f"Pss {pss} kB: the pages are counted half to each process")



@unittest.skipIf(NATIVE_MISSING, f"atenrt's compiled module is not available: {NATIVE_MISSING}")
@unittest.skipIf(torch is None, "PyTorch (Debian python3-torch) is needed to export the model")
class RuntimeOnlyProcesses(unittest.TestCase):
    def test_loading_and_running_an_engine_never_imports_torch(self):
        """torch costs a serving process over a second and ~150 MB: only the exporter may load it."""
        with tempfile.TemporaryDirectory(prefix="atenrt_notorch_") as folder:
            pt2 = os.path.join(folder, "lin.pt2")
            path = os.path.join(folder, "lin.atrt")
            atenrt.save(nn.Linear(4, 3).eval(), (torch.randn(2, 4),), pt2)
            atenrt.compile(pt2).save(path)
            env = dict(os.environ)
            env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(atenrt.__path__[0])] +
                                                [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
            script = ("import sys, numpy as np, atenrt\n"
                      "engine = atenrt.load(sys.argv[1])\n"
                      "out = engine.create_context().run([np.ones((2, 4), np.float32)])\n"
                      "print(out[0].shape, 'torch' in sys.modules)\n")
            result = subprocess.run([sys.executable, "-c", script, path], capture_output=True, text=True, env=env,
                                    timeout=120)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(result.stdout.split(), ["(2,", "3)", "False"])


if __name__ == "__main__":
    unittest.main()
