#!/usr/bin/python3
"""What a torch segment costs: ResNet-50 fully native beside the same model with supported ops
forced into the libtorch fallback (torch_executed_ops), in one run, as ratios.

  PYTHONPATH=python ATENRT_PYTHON_MODULE_DIR=build/python /usr/bin/python3 bench/hybrid/fallback_cost.py
  flags: --iterations N (20) --warmup N (3) --rounds N (3) --threads N (2) --out-dir DIR (build/bench)

Variants: native; the stem's max pooling in the fallback (one torch segment between the stem and
stage 1: two boundaries); that and the final average pooling (two torch segments, four
boundaries). Each variant is timed in rounds, interleaved with the others, and the median of all
iterations is kept. A boundary's cost is (variant - native) / boundaries: it includes moving the
tensor out of the engine's blocked layout and back and the op's own time in libtorch instead of
oneDNN (the op is measured alone in libtorch for comparison). Results: stdout and
DIR/hybrid_fallback.json.
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np
import torch
import torchvision

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
import atenrt  # noqa: E402

VARIANTS = [
    ("native", [], 0),
    ("maxpool in libtorch", ["aten.max_pool2d_with_indices"], 2),
    ("maxpool + avgpool in libtorch", ["aten.max_pool2d_with_indices", "aten.mean.dim"], 4),
]


def time_context(ctx, x, iterations):
    out = []
    for _ in range(iterations):
        start = time.perf_counter()
        ctx.run([x])
        out.append((time.perf_counter() - start) * 1e3)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out-dir", default=os.path.join(ROOT, "build", "bench"))
    args = ap.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    torch.manual_seed(0)
    torch.set_num_threads(args.threads)
    model = torchvision.models.resnet50().eval()
    x = torch.randn(1, 3, 224, 224)
    pt2 = os.path.join(args.out_dir, "hybrid_resnet50.pt2")
    atenrt.save(model, (x,), pt2)
    with torch.no_grad():
        ref = model(x).numpy()

    engines, contexts, results = {}, {}, {}
    for name, ops, boundaries in VARIANTS:
        start = time.perf_counter()
        engine = atenrt.compile(pt2, torch_executed_ops=ops, min_block_size=1, num_threads=args.threads)
        compile_s = time.perf_counter() - start
        if ops:
            assert sorted(engine.fallback_ops) == sorted(o + (".default" if o.count(".") == 1 else "") for o in ops) \
                or len(engine.fallback_ops) == len(ops), engine.fallback_ops
        engines[name] = engine
        contexts[name] = engine.create_context()
        out = contexts[name].run([x.numpy()])[0]
        err = float(np.max(np.abs(out - ref)) / np.max(np.abs(ref)))
        results[name] = {"torch_executed_ops": ops, "boundaries": boundaries, "compile_s": round(compile_s, 2),
                         "max_rel_error": err, "segments": engine.segments, "times_ms": []}
        time_context(contexts[name], x.numpy(), args.warmup)
    for _ in range(args.rounds):
        for name, _, _ in VARIANTS:
            results[name]["times_ms"] += time_context(contexts[name], x.numpy(), args.iterations)

    # The forced ops alone in libtorch, on the shapes ResNet-50 gives them.
    with torch.no_grad():
        stem = torch.randn(1, 64, 112, 112)
        last = torch.randn(1, 2048, 7, 7)
        alone = {}
        for label, fn, arg in (("max_pool2d 3x3/2 on 1x64x112x112", lambda t: torch.nn.functional.max_pool2d(t, 3, 2, 1), stem),
                               ("mean over 7x7 of 1x2048x7x7", lambda t: t.mean((2, 3), keepdim=True), last)):
            for _ in range(args.warmup):
                fn(arg)
            ts = []
            for _ in range(args.iterations * args.rounds):
                start = time.perf_counter()
                fn(arg)
                ts.append((time.perf_counter() - start) * 1e3)
            alone[label] = statistics.median(ts)

    native = statistics.median(results["native"]["times_ms"])
    print(f"ResNet-50, batch 1, {args.threads} threads, median of {args.rounds} x {args.iterations} runs")
    print("| variant | median ms | ratio to native | per boundary ms | max rel err | segments |")
    print("|---|---:|---:|---:|---:|---|")
    for name, _, boundaries in VARIANTS:
        r = results[name]
        med = statistics.median(r["times_ms"])
        r["median_ms"] = med
        r["ratio"] = med / native
        r["per_boundary_ms"] = (med - native) / boundaries if boundaries else None
        del r["times_ms"]
        per = f"{r['per_boundary_ms']:.3f}" if boundaries else "-"
        print(f"| {name} | {med:.2f} | {r['ratio']:.3f} | {per} | {r['max_rel_error']:.1e} | {r['segments'] or 'one engine'} |")
    for label, ms in alone.items():
        print(f"libtorch alone: {label}: {ms:.3f} ms")
    with open(os.path.join(args.out_dir, "hybrid_fallback.json"), "w") as f:
        json.dump({"variants": results, "libtorch_alone_ms": alone, "threads": args.threads}, f, indent=2)


if __name__ == "__main__":
    main()
