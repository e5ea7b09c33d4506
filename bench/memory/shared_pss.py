#!/usr/bin/python3
"""Memory of N processes serving one engine file: RSS and PSS per process, side by side.

Engine files are mapped, so processes that load the same file share its weight pages: the sum of
their PSS should be about one set of weights plus N x (activations + scratch + the process). This
script compiles a torchvision model once, saves its engine file, starts N processes that load and
run it, and reads each one's /proc/<pid>/smaps_rollup while all of them are alive. Memory, not
time: the figures do not depend on how busy the machine is.

  PYTHONPATH=python ATENRT_PYTHON_MODULE_DIR=build/python /usr/bin/python3 bench/memory/shared_pss.py \\
      [--model resnet50] [--processes 4] [--precision fp32|bf16]
"""
import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python"))

CHILD = r"""
import sys
import numpy as np
import atenrt

engine = atenrt.load(sys.argv[1])
spec = engine.inputs[0]
engine.create_context().run([np.random.rand(*spec.shape).astype(np.float32)])
print("ready", flush=True)
sys.stdin.readline()  # hold everything until the parent has measured
"""


def rollup(pid):
    """Rss and Pss of a process, in MiB (smaps_rollup: every mapping summed)."""
    fields = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2 and parts[0].rstrip(":") in ("Rss", "Pss", "Shared_Clean", "Private_Dirty"):
                fields[parts[0].rstrip(":")] = int(parts[1]) / 1024.0
    return fields


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="resnet50", help="a torchvision classification model")
    ap.add_argument("--processes", type=int, default=4)
    ap.add_argument("--precision", default="fp32", choices=["fp32", "bf16"])
    args = ap.parse_args()

    import atenrt
    import torch
    import torchvision

    with tempfile.TemporaryDirectory(prefix="atenrt_pss_") as folder:
        pt2 = os.path.join(folder, f"{args.model}.pt2")
        path = os.path.join(folder, f"{args.model}.atrt")
        model = getattr(torchvision.models, args.model)(weights=None).eval()
        atenrt.save(model, (torch.randn(1, 3, 224, 224),), pt2)
        engine = atenrt.compile(pt2, precision=args.precision)
        engine.save(path)
        weights = engine.weight_bytes / 2 ** 20
        per_context = engine.activation_bytes / 2 ** 20
        del engine

        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "python")] +
                                            [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
        children = []
        try:
            for _ in range(args.processes):
                child = subprocess.Popen([sys.executable, "-c", CHILD, path], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True, env=env)
                children.append(child)
                if child.stdout.readline().strip() != "ready":
                    raise SystemExit("a child process did not start; run it by hand to see why")
            rows = [rollup(c.pid) for c in children]
        finally:
            for c in children:
                try:
                    c.stdin.write("\n")
                    c.stdin.close()
                except BrokenPipeError:
                    pass
                c.wait(timeout=60)

    print(f"{args.model} {args.precision}: weights {weights:.1f} MiB, activations {per_context:.1f} MiB per context; "
          f"{args.processes} processes, each a Python interpreter with numpy and atenrt")
    print(f"{'process':>8} {'RSS MiB':>9} {'PSS MiB':>9} {'shared clean':>13} {'private dirty':>14}")
    for i, r in enumerate(rows):
        print(f"{i:>8} {r['Rss']:>9.1f} {r['Pss']:>9.1f} {r['Shared_Clean']:>13.1f} {r['Private_Dirty']:>14.1f}")
    total_rss = sum(r["Rss"] for r in rows)
    total_pss = sum(r["Pss"] for r in rows)
    print(f"{'total':>8} {total_rss:>9.1f} {total_pss:>9.1f}")
    print(f"PSS total {total_pss:.1f} MiB vs RSS total {total_rss:.1f} MiB: the weights are counted "
          f"{total_rss / max(total_pss, 1e-9):.2f}x less when shared; without sharing the PSS total would be "
          f"about {total_pss + (args.processes - 1) * weights:.1f} MiB")


if __name__ == "__main__":
    main()
