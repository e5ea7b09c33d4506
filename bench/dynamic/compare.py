#!/usr/bin/python3
"""One dynamic engine against static engines built for each shape, in one run.

For each model: export once with a dynamic dim (atenrt.save(..., dynamic_shapes=...)), compile one
dynamic engine, and for every shape in the list compile a static engine pinned to it (`shapes=`).
Then, in one process and interleaved, time both on the same input: the first run of the dynamic
engine at a shape it has not seen (it specializes then; the least of --first-runs fresh engines,
and that minus the run itself) against the static engine's compile time (the least as well),
and the median after warm-up as a ratio (dynamic / static; the issue's bar is 1.1). Outputs of
both are checked against PyTorch. Then the memory at the range's max shape: a dynamic engine with
that as its opt shape against a static engine for it. Ratios from one run are the result; absolute times are not.

    PYTHONPATH=python ATENRT_PYTHON_MODULE_DIR=build/python /usr/bin/python3 bench/dynamic/compare.py \
        [--models resnet18,resnet50,encoder] [--iterations 10]
"""
import argparse
import os
import sys
import tempfile
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "models"))
import atenrt  # noqa: E402
from modern_torch import median_ms  # noqa: E402  (median and min of timed runs)
from zoo import build_model  # noqa: E402

# name -> (input maker for a size, dynamic dim, example size, range, sizes to time)
CASES = {
    "resnet18": (lambda n: torch.randn(n, 3, 224, 224), 0, 5, (1, 8), (1, 4, 8)),
    "resnet50": (lambda n: torch.randn(n, 3, 224, 224), 0, 5, (1, 8), (1, 4, 8)),
    "encoder": (lambda n: torch.randn(1, n, 256), 1, 40, (2, 128), (16, 77, 128)),
}


def shape_text(x):
    return "x:" + "x".join(str(d) for d in x.shape)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--models", default="resnet18,encoder")
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--iterations", type=int, default=10)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--first-runs", type=int, default=3,
                   help="fresh dynamic engines whose first run at each shape is timed (and static compiles); "
                        "the least is reported, so that a burst of load on a shared machine does not decide it")
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    work = tempfile.mkdtemp(prefix="atenrt_dynbench_")
    print("| model | shape | dynamic ÷ static (median) | first run at the shape ms | of which specialization ms | "
          "static compile ms | max rel err dyn / static |")
    print("|---|---|---:|---:|---:|---:|---|")
    memory = []
    for name in args.models.split(","):
        make_input, dim, example, (lo, hi), sizes = CASES[name]
        torch.manual_seed(0)
        model, _ = build_model(name)
        path = os.path.join(work, f"{name}.pt2")
        try:
            atenrt.save(model, (make_input(example),), path,
                        dynamic_shapes={"x": {dim: atenrt.Dim("n", min=lo, max=hi)}})
        except atenrt.ExportError as e:  # torch 1.13's symbolic tracing cannot trace every model
            print(f"| {name} | - | export failed: {str(e)[:160]} | | | | |", flush=True)
            continue
        dynamic = atenrt.compile(path, num_threads=args.threads)
        dyn_ctx = dynamic.create_context()
        for n in sizes:
            x = make_input(n)
            with torch.no_grad():
                ref = model(x).numpy()
            xn = x.numpy()
            static_compile, first = [], []
            for _ in range(args.first_runs):
                start = time.perf_counter()
                static = atenrt.compile(path, shapes=shape_text(x), num_threads=args.threads)
                static_compile.append((time.perf_counter() - start) * 1e3)
                fresh = atenrt.compile(path, num_threads=args.threads).create_context()
                start = time.perf_counter()
                fresh.run([xn])
                first.append((time.perf_counter() - start) * 1e3)
            st_ctx = static.create_context()
            got_dyn = dyn_ctx.run([xn])[0]
            got_st = st_ctx.run([xn])[0]
            errs = [float(np.max(np.abs(g - ref)) / np.max(np.abs(ref))) for g in (got_dyn, got_st)]
            # Interleaved: each engine timed twice, the better median kept, so a burst of load on
            # the machine does not land on one side only.
            d = min(median_ms(lambda: dyn_ctx.run([xn]), args.warmup, args.iterations)[0] for _ in range(2))
            s = min(median_ms(lambda: st_ctx.run([xn]), args.warmup, args.iterations)[0] for _ in range(2))
            print(f"| {name} | {list(x.shape)} | {d / s:.2f} ({d:.1f} / {s:.1f} ms) | {min(first):.0f} | "
                  f"{max(min(first) - d, 0.0):.0f} | {min(static_compile):.0f} | {errs[0]:.1e} / {errs[1]:.1e} |",
                  flush=True)
        memory.append((name, path, make_input(hi)))
    # Memory at the max shape: a dynamic engine whose opt shape is the max against a static engine
    # for it (activations are planned per shape held, weights packed once and shared).
    print("\n| model | max shape | activations dynamic / static MiB | weights dynamic / static MiB |")
    print("|---|---|---:|---:|")
    for name, path, x in memory:
        dyn = atenrt.compile(path, opt_shapes=shape_text(x), num_threads=args.threads)
        st = atenrt.compile(path, shapes=shape_text(x), num_threads=args.threads)
        mib = 2.0 ** 20
        print(f"| {name} | {list(x.shape)} | {dyn.activation_bytes / mib:.1f} / {st.activation_bytes / mib:.1f} | "
              f"{dyn.weight_bytes / mib:.1f} / {st.weight_bytes / mib:.1f} |", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
