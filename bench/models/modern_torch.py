#!/usr/bin/env python3
"""atenrt on archives a modern torch writes, beside that torch, in one run.

compare.py needs torch 1.13 (the exporter of this project's tests). This script is for a machine
with a torch >= 2.1: it exports each model with that torch's own `torch.export.export` (training
IR, as users do), saves it with `torch.export.save`, and in one run times PyTorch eager and the
atenrt CLI (fp32, bf16, int8) on that archive at every thread count asked for, checking atenrt's
outputs against PyTorch's. An ONNX Runtime row is added when its Python package is installed, a
torch.compile row with --inductor. Ratios between rows of one run are the result; absolute times across machines or
runs are not.

    python3 bench/models/modern_torch.py --atenrt build/atenrt [--threads 2,16] [--models ...]
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch
import torchvision

sys.path.insert(0, str(Path(__file__).resolve().parent))
from zoo import MODELS, build_model  # noqa: E402

EXTRA = {"efficientnet_b0": lambda: torchvision.models.efficientnet_b0(weights=None)}
PRECISIONS = ("fp32", "bf16", "int8")


def median_ms(fn, warmup, iterations):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(iterations):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return float(np.median(times)), float(np.min(times))


def model_and_input(name):
    torch.manual_seed(0)
    if name in MODELS:
        return build_model(name)
    model = EXTRA[name]().eval()
    x = torch.randn(1, 3, 224, 224)
    with torch.no_grad():  # batch-norm statistics from one random batch, as zoo.py does
        for m in model.modules():
            if isinstance(m, torch.nn.modules.batchnorm._BatchNorm):
                m.reset_running_stats()
                m.momentum = None
        model.train()(torch.randn(4, 3, 224, 224))
    return model.eval(), x


def export_archive(model, x, path):
    """What a user of this torch does: torch.export (training IR by default) and torch.export.save."""
    torch.export.save(torch.export.export(model, (x,)), str(path))


def run(cmd, timeout):
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {result.stderr.strip()[-400:]}")
    return result.stdout


def bench_atenrt(args, work, name, pt2, x, ref, precision, threads):
    row = {"engine": f"atenrt {precision}"}
    settings = ["--threads", str(threads), "--precision", precision]
    if precision == "int8":
        calibration = work / f"{name}.calibration.npz"
        np.savez(calibration, torch.randn(8, *x.shape).numpy())  # 8 batches shaped like the input
        cache = work / f"{name}.int8.cache"
        start = time.perf_counter()
        run([args.atenrt, "compile", str(pt2), "-o", str(work / f"{name}.int8.atrt"), "--calibration", str(calibration),
             "--calibration-cache", str(cache)] + settings, args.timeout)
        row["calibration_ms"] = (time.perf_counter() - start) * 1e3
        settings += ["--calibration-cache", str(cache)]
    data = json.loads(run([args.atenrt, "bench", str(pt2), "--json", "--iterations", str(args.iterations), "--warmup",
                           str(args.warmup)] + settings, args.timeout))
    row.update(median_ms=data["median_ms"], min_ms=data["min_ms"], compile_ms=data["compile_ms"],
               peak_rss_mb=data["peak_rss_mb"], noisy=data["noisy"])
    inputs, outputs = work / f"{name}.in.npz", work / f"{name}.{precision}.out.npz"
    np.savez(inputs, x.numpy())
    run([args.atenrt, "run", str(pt2), "--inputs", str(inputs), "--outputs", str(outputs), "--quiet"] + settings,
        args.timeout)
    got = np.load(outputs)
    out = got[got.files[0]]
    row["rel_err"] = float(np.max(np.abs(out - ref)) / max(np.max(np.abs(ref)), 1e-30))
    row["top1_same"] = bool(out.reshape(out.shape[0], -1).argmax(-1).tolist() == ref.reshape(ref.shape[0], -1).argmax(-1).tolist())
    return row


def bench_onnxruntime(args, work, name, model, x, ref, threads):
    """ONNX Runtime's Python package when installed: torch.onnx.export, then a CPU session with
    `threads` intra-op threads, sequential, all graph optimizations."""
    import onnxruntime as ort
    path = work / f"{name}.onnx"
    if not path.exists():
        try:
            torch.onnx.export(model, (x,), str(path), opset_version=17, dynamo=False)
        except TypeError:  # a torch without the `dynamo` keyword
            torch.onnx.export(model, (x,), str(path), opset_version=17)
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    start = time.perf_counter()
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    load_ms = (time.perf_counter() - start) * 1e3
    feed = {session.get_inputs()[0].name: x.numpy()}
    med, mn = median_ms(lambda: session.run(None, feed), args.warmup, args.iterations)
    out = session.run(None, feed)[0]
    return {"engine": f"ONNX Runtime {ort.__version__}", "median_ms": med, "min_ms": mn, "compile_ms": load_ms,
            "rel_err": float(np.max(np.abs(out - ref)) / max(np.max(np.abs(ref)), 1e-30)),
            "top1_same": bool(out.reshape(out.shape[0], -1).argmax(-1).tolist() == ref.reshape(ref.shape[0], -1).argmax(-1).tolist())}


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--atenrt", default="build/atenrt")
    p.add_argument("--models", default="resnet18,resnet50,mobilenet_v2,efficientnet_b0,encoder")
    p.add_argument("--threads", default="2", help="comma-separated thread counts (default 2)")
    p.add_argument("--precisions", default=",".join(PRECISIONS))
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--iterations", type=int, default=30)
    p.add_argument("--timeout", type=int, default=600)
    p.add_argument("--inductor", action="store_true", help="also time torch.compile (slow to compile)")
    p.add_argument("--out", default="build/bench/modern_torch.json")
    args = p.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="atenrt_modern_"))
    report = {"torch": torch.__version__, "machine": platform.processor() or platform.machine(),
              "cpus": os.cpu_count(), "date": time.strftime("%Y-%m-%d %H:%M:%S"), "rows": []}
    try:
        report["cpu_model"] = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    for name in args.models.split(","):
        model, x = model_and_input(name)
        with torch.no_grad():
            ref = model(x).numpy()
        pt2 = work / f"{name}.pt2"
        try:
            export_archive(model, x, pt2)
        except Exception as e:  # noqa: BLE001 - the row says why
            report["rows"].append({"model": name, "engine": "export", "error": str(e)[:300]})
            continue
        for threads in [int(t) for t in args.threads.split(",")]:
            torch.set_num_threads(threads)
            rows = []
            with torch.no_grad():
                med, mn = median_ms(lambda: model(x), args.warmup, args.iterations)
            rows.append({"engine": "PyTorch eager", "median_ms": med, "min_ms": mn})
            if args.inductor:
                try:
                    compiled = torch.compile(model)
                    start = time.perf_counter()
                    with torch.no_grad():
                        compiled(x)
                        compile_ms = (time.perf_counter() - start) * 1e3
                        med, mn = median_ms(lambda: compiled(x), args.warmup, args.iterations)
                    rows.append({"engine": "torch.compile", "median_ms": med, "min_ms": mn, "compile_ms": compile_ms})
                except Exception as e:  # noqa: BLE001
                    rows.append({"engine": "torch.compile", "error": str(e)[:300]})
            try:
                import onnxruntime  # noqa: F401
                has_ort = True
            except ImportError:
                has_ort = False
            if has_ort:
                try:
                    rows.append(bench_onnxruntime(args, work, name, model, x, ref, threads))
                except Exception as e:  # noqa: BLE001
                    rows.append({"engine": "ONNX Runtime", "error": str(e)[:300]})
            for precision in args.precisions.split(","):
                try:
                    rows.append(bench_atenrt(args, work, name, pt2, x, ref, precision, threads))
                except Exception as e:  # noqa: BLE001
                    rows.append({"engine": f"atenrt {precision}", "error": str(e)[:400]})
            eager = rows[0]["median_ms"]
            for r in rows:
                r.update(model=name, threads=threads)
                if "median_ms" in r:
                    r["vs_eager"] = r["median_ms"] / eager
                report["rows"].append(r)
                print(json.dumps(r), flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(report, f, indent=1)
    print(f"| model | threads | engine | median ms | min ms | ÷ eager | compile ms | rel err | top-1 |")
    print("|---|---:|---|---:|---:|---:|---:|---:|:-:|")
    for r in report["rows"]:
        if "error" in r:
            print(f"| {r['model']} | {r.get('threads', '')} | {r['engine']} | error: {r['error'][:120]} |||||")
            continue
        print(f"| {r['model']} | {r['threads']} | {r['engine']} | {r['median_ms']:.2f} | {r['min_ms']:.2f} | "
              f"{r['vs_eager']:.2f} | {r.get('compile_ms', 0):.0f} | {r.get('rel_err', 0):.1e} | "
              f"{'' if 'top1_same' not in r else ('same' if r['top1_same'] else 'DIFF')} |")
    print(f"torch {report['torch']}, {report.get('cpu_model', '')}, {report['cpus']} CPUs, {report['date']}")


if __name__ == "__main__":
    main(sys.argv[1:])
