#!/usr/bin/python3
"""Side-by-side model latency: atenrt (fp32, bf16, int8), PyTorch eager, TorchScript-frozen, ONNX Runtime.

Run from anywhere with Debian's Python (the one that has torch 1.13):

    /usr/bin/python3 bench/models/compare.py [--models resnet18,encoder] [--quick]

Every engine runs the same model, at the same batch (1) and thread count (2), one after the other
in this one process tree, so the ratios between them are meaningful; absolute times across runs
are not (shared, noisy machine: see shared/DESIGN.md §6). A failing engine becomes a row with its
error text; the run goes on. Writes build/bench/models.md, models.json and models.png.
"""
import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH_DIR = ROOT / "bench"
ORT_SCRIPT = BENCH_DIR / "models" / "ort_bench.js"

import numpy as np  # noqa: E402
import torch  # noqa: E402

from zoo import MODELS, TORCHVISION_PREFIX, build_model, torchvision_model  # noqa: E402  (bench/models/zoo.py)

ENGINES = ["eager", "torchscript", "onnxruntime", "atenrt-fp32", "atenrt-bf16", "atenrt-int8"]
ENGINE_LABELS = {
    "eager": "PyTorch eager",
    "torchscript": "TorchScript frozen",
    "onnxruntime": "ONNX Runtime",
    "atenrt-fp32": "atenrt fp32",
    "atenrt-bf16": "atenrt bf16",
    "atenrt-int8": "atenrt int8",
}
CALIBRATION_BATCHES = 8  # int8: random draws shaped like the example input, never the timed input


NOISY_CORES = 0.25  # other processes' average busy cores above which a row's timing is suspect
DRIFTING_SPREAD = 0.25  # rounds' medians further apart than this (of their median): the machine's speed drifted


class EngineError(Exception):
    """An engine could not run a model; the message goes into the table."""


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--models", default=",".join(MODELS),
                   help=f"comma-separated subset of: {', '.join(MODELS)} (default: all); also "
                        f"{TORCHVISION_PREFIX}NAME for a torchvision classification, segmentation or video model "
                        f"without pretrained weights ({TORCHVISION_PREFIX}densenet169, {TORCHVISION_PREFIX}swin_t)")
    p.add_argument("--engines", default=",".join(ENGINES),
                   help=f"comma-separated subset of: {', '.join(ENGINES)} (default: all)")
    p.add_argument("--warmup", type=int, default=3, help="untimed runs before timing (default 3)")
    p.add_argument("--iterations", type=int, default=20, help="timed runs (default 20)")
    p.add_argument("--rounds", type=int, default=3,
                   help="times each model's engines are timed, interleaved (A B C A B C ...); a row reports "
                        "the median of its rounds' medians and their spread (default 3; 1 with --quick)")
    p.add_argument("--threads", type=int, default=2, help="intra-op threads for every engine (default 2)")
    p.add_argument("--quick", action="store_true",
                   help="smoke run: warmup 1, iterations 3 (unless given explicitly)")
    p.add_argument("--atenrt", default=str(ROOT / "build" / "atenrt"),
                   help="path of the atenrt CLI (default: build/atenrt)")
    p.add_argument("--out-dir", default=str(ROOT / "build" / "bench"),
                   help="where models.md/.json/.png go (default: build/bench)")
    p.add_argument("--work-dir", default=None,
                   help="where exported .pt2/.onnx/.npz files go (default: OUT_DIR/models-work)")
    p.add_argument("--timeout", type=float, default=900,
                   help="seconds allowed for each external command (default 900)")
    p.add_argument("--wait-quiet", type=float, default=None,
                   help="before each row, wait up to this many seconds for other processes to go idle "
                        "(default 30; 0 with --quick)")
    p.add_argument("--seed", type=int, default=0, help="seed for weights and inputs (default 0)")
    args = p.parse_args(argv)
    if args.quick:
        explicit = set(a.split("=")[0] for a in argv)
        if "--warmup" not in explicit:
            args.warmup = 1
        if "--iterations" not in explicit:
            args.iterations = 3
        if "--rounds" not in explicit:
            args.rounds = 1
    if args.wait_quiet is None:
        args.wait_quiet = 0.0 if args.quick else 30.0
    named = [n.strip() for n in args.models.split(",") if n.strip()]
    extra = [n for n in named if n.startswith(TORCHVISION_PREFIX)]
    for n in extra:
        try:
            torchvision_model(n)
        except KeyError:
            p.error(f"--models: {n} is not a torchvision classification, segmentation or video model")
    own = [n for n in named if n not in extra]
    args.models = (_subset(p, "--models", ",".join(own), list(MODELS)) if own or not extra else []) + extra
    args.engines = _subset(p, "--engines", args.engines, ENGINES)
    if args.warmup < 0 or args.iterations < 1 or args.threads < 1 or args.rounds < 1:
        p.error("--warmup must be >= 0, --iterations, --threads and --rounds >= 1")
    args.out_dir = Path(args.out_dir)
    args.work_dir = Path(args.work_dir) if args.work_dir else args.out_dir / "models-work"
    return args


def _subset(parser, flag, text, allowed):
    names = [n.strip() for n in text.split(",") if n.strip()]
    bad = [n for n in names if n not in allowed]
    if bad or not names:
        parser.error(f"{flag}: unknown {', '.join(bad) or '(empty)'}; choose from {', '.join(allowed)}")
    return [n for n in allowed if n in names]  # canonical order


# ---------------------------------------------------------------- timing helpers

def stats(times_ms):
    t = np.asarray(times_ms, dtype=np.float64)
    return {"median_ms": float(np.median(t)), "p90_ms": float(np.percentile(t, 90)),
            "mean_ms": float(t.mean()), "min_ms": float(t.min())}


def time_callable(fn, x, warmup, iterations):
    with torch.no_grad():
        for _ in range(warmup):
            fn(x)
        times = []
        for _ in range(iterations):
            start = time.perf_counter()
            fn(x)
            times.append((time.perf_counter() - start) * 1e3)
    return stats(times)


def merge_rounds(results):
    """One row from an engine's rounds: the median of the rounds' medians, and how far those spread.

    The first round carries the correctness figures (errors, top-1, compile time); p90 is the median of
    the rounds' p90s, min the smallest run of all; `busy` is the worst round's. A failed round makes the
    row that failure: a number from the rounds that happened to pass would hide it.
    """
    failed = [r for r in results if "error" in r]
    if failed:
        return dict(failed[0])
    row = dict(results[0])
    if len(results) == 1:
        return row
    medians = [r["median_ms"] for r in results]
    row["median_ms"] = float(np.median(medians))
    row["p90_ms"] = float(np.median([r["p90_ms"] for r in results]))
    mins = [r["min_ms"] for r in results if r.get("min_ms") is not None]
    row["min_ms"] = min(mins) if mins else None
    row["round_medians_ms"] = medians
    row["round_spread"] = (max(medians) - min(medians)) / row["median_ms"]
    busy = [r["others_cores"] for r in results if r.get("others_cores") is not None]
    row["others_cores"] = max(busy) if busy else None
    row["wall_s"] = sum(r.get("wall_s", 0.0) for r in results)
    return row


def cpu_snapshot():
    """(wall s, CPU s busy on the whole machine, CPU s of this process and its reaped children)."""
    try:
        with open("/proc/stat") as f:
            fields = [int(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    busy = (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")  # without guest, counted in user
    own = sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
              for f in ("ru_utime", "ru_stime"))
    return time.monotonic(), busy, own


def others_cores(before, after):
    """Average number of cores other processes kept busy between two snapshots."""
    # /proc/stat counts in 10 ms ticks: windows under a second would give wild averages.
    if before is None or after is None or after[0] - before[0] < 1.0:
        return None
    return max(0.0, ((after[1] - before[1]) - (after[2] - before[2])) / (after[0] - before[0]))


def wait_for_quiet(max_wait_s, label):
    """Wait (up to max_wait_s) for a 1-second window in which other processes stay nearly idle."""
    if max_wait_s <= 0:
        return
    deadline = time.monotonic() + max_wait_s
    waited = False
    while True:
        before = cpu_snapshot()
        time.sleep(1.0)
        busy = others_cores(before, cpu_snapshot())
        if busy is None or busy <= NOISY_CORES:
            if waited:
                print(f"  ({label}: machine quiet again)", flush=True)
            return
        if time.monotonic() >= deadline:
            print(f"  ({label}: other processes still use {busy:.1f} cores after {max_wait_s:.0f} s; "
                  "measuring anyway)", flush=True)
            return
        if not waited:
            print(f"  ({label}: other processes use {busy:.1f} cores; waiting up to {max_wait_s:.0f} s)",
                  flush=True)
            waited = True


def errors_vs(reference, outputs):
    """Max abs error, and max abs error relative to the reference's largest magnitude."""
    if len(reference) != len(outputs):
        raise EngineError(f"{len(outputs)} outputs, PyTorch has {len(reference)}")
    max_abs, max_rel = 0.0, 0.0
    for i, (ref, out) in enumerate(zip(reference, outputs)):
        out = np.asarray(out)
        if out.shape != ref.shape:
            raise EngineError(f"output {i} has shape {list(out.shape)}, PyTorch {list(ref.shape)}")
        diff = float(np.max(np.abs(out.astype(np.float64) - ref.astype(np.float64)))) if ref.size else 0.0
        scale = float(np.max(np.abs(ref))) if ref.size else 0.0
        max_abs = max(max_abs, diff)
        max_rel = max(max_rel, diff / scale if scale > 0 else diff)
    return {"max_abs_err": max_abs, "max_rel_err": max_rel}


def top1_agrees(reference, outputs):
    ref, out = reference[0], np.asarray(outputs[0])
    if ref.ndim != 2 or out.shape != ref.shape:
        return None
    return bool(np.array_equal(ref.argmax(axis=1), out.argmax(axis=1)))


def top1_margin(reference):
    """Smallest gap between the reference's best and second-best logit (classifiers only).

    With random weights the gap can be tiny; a different top-1 within that gap is a tie, not a bug.
    """
    ref = reference[0]
    if ref.ndim != 2 or ref.shape[1] < 2:
        return None
    top2 = np.sort(ref, axis=1)[:, -2:]
    return float(np.min(top2[:, 1] - top2[:, 0]))


def run_command(cmd, timeout):
    """Run an external command; return stdout, or raise EngineError with its stderr."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    except FileNotFoundError as e:
        raise EngineError(f"cannot start {cmd[0]}: {e.strerror}") from None
    except subprocess.TimeoutExpired:
        raise EngineError(f"timed out after {timeout:.0f} s: {' '.join(map(str, cmd[:3]))} ...") from None
    if proc.returncode != 0:
        msg = (proc.stderr.strip() or proc.stdout.strip() or "(no output)").splitlines()
        # The last lines carry the reason; keep the message short enough for a table cell.
        raise EngineError(f"exit {proc.returncode}: " + " | ".join(msg[-3:]))
    return proc.stdout


def parse_json_object(text, what):
    for line in reversed(text.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except json.JSONDecodeError:
                pass
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise EngineError(f"{what} printed no JSON object: {text.strip()[:200]!r}") from None


def require_fields(obj, fields, what):
    missing = [f for f in fields if not isinstance(obj.get(f), (int, float))]
    if missing:
        raise EngineError(f"{what} JSON lacks {', '.join(missing)}: {json.dumps(obj)[:200]}")


# ---------------------------------------------------------------- engines

def bench_eager(ctx):
    result = time_callable(ctx["model"], ctx["input"], ctx["args"].warmup, ctx["args"].iterations)
    result.update(errors_vs(ctx["reference"], ctx["reference"]))
    return result


def bench_torchscript(ctx):
    model, x = ctx["model"], ctx["input"]
    note = ""
    start = time.perf_counter()
    with torch.no_grad():
        scripted = torch.jit.freeze(torch.jit.trace(model, (x,)))
        try:
            scripted = torch.jit.optimize_for_inference(scripted)
        except Exception as e:  # keep the frozen module; say why it is not optimized
            note = f"optimize_for_inference failed ({type(e).__name__}: {str(e).splitlines()[0][:80]})"
    compile_ms = (time.perf_counter() - start) * 1e3
    result = time_callable(scripted, x, ctx["args"].warmup, ctx["args"].iterations)
    with torch.no_grad():
        out = scripted(x)
    outs = [t.numpy() for t in flatten(out)]
    result.update(errors_vs(ctx["reference"], outs))
    result["top1_same"] = top1_agrees(ctx["reference"], outs)
    result["compile_ms"] = compile_ms
    if note:
        result["note"] = note
    return result


def bench_onnxruntime(ctx):
    args, work = ctx["args"], ctx["work"]
    if ctx["ort_problem"]:
        raise EngineError(ctx["ort_problem"])
    onnx_path = work / f"{ctx['name']}.onnx"
    if "onnx_exported" not in ctx:  # once per model: later rounds time the same file
        try:
            with torch.no_grad():
                torch.onnx.export(ctx["model"], (ctx["input"],), str(onnx_path), opset_version=13,
                                  input_names=["input"], do_constant_folding=True)
        except Exception as e:
            raise EngineError(f"torch.onnx.export failed: {type(e).__name__}: {str(e).splitlines()[0][:160]}")
        ctx["onnx_exported"] = True
    in_npy, out_npy = work / f"{ctx['name']}.in.npy", work / f"{ctx['name']}.ort-out.npy"
    np.save(in_npy, ctx["input"].numpy())
    out_npy.unlink(missing_ok=True)
    stdout = run_command(["node", str(ORT_SCRIPT), str(onnx_path), "--threads", str(args.threads),
                          "--iterations", str(args.iterations), "--warmup", str(args.warmup),
                          "--input", str(in_npy), "--output", str(out_npy)], args.timeout)
    result = parse_json_object(stdout, "ort_bench.js")
    require_fields(result, ["median_ms", "p90_ms"], "ort_bench.js")
    outs = [np.load(out_npy)]
    result.update(errors_vs(ctx["reference"], outs))
    result["top1_same"] = top1_agrees(ctx["reference"], outs)
    result["compile_ms"] = result.get("load_ms")
    return result


def export_pt2(ctx):
    """Export once per model for both atenrt rows; remember a failure for both."""
    if "pt2" not in ctx:
        path = ctx["work"] / f"{ctx['name']}.pt2"
        try:
            import atenrt
            with torch.no_grad():
                atenrt.save(ctx["model"], (ctx["input"],), str(path))
            ctx["pt2"] = path
        except Exception as e:
            ctx["pt2"] = EngineError(f"atenrt.save failed: {type(e).__name__}: {str(e).splitlines()[0][:160]}")
    if isinstance(ctx["pt2"], EngineError):
        raise ctx["pt2"]
    return ctx["pt2"]


def bench_atenrt(ctx, precision):
    args, work, cli = ctx["args"], ctx["work"], ctx["args"].atenrt
    if not Path(cli).is_file():
        raise EngineError(f"atenrt CLI not found at {cli} (build it, or pass --atenrt PATH)")
    pt2 = export_pt2(ctx)
    settings = ["--threads", str(args.threads), "--precision", precision]
    checked = ctx.setdefault("atenrt_checked", {})
    if precision in checked:  # a later round: calibration and the correctness check are done; time only
        extra, result = checked[precision]
        return _atenrt_timing(cli, pt2, args, settings + extra, dict(result))
    result, extra = {}, []
    if precision == "int8":
        # Calibrated once per model (timed: the compile's cost), then both calls below read the cache.
        calibration = work / f"{ctx['name']}.calibration.npz"
        cache = work / f"{ctx['name']}.calibration.cache"
        gen = torch.Generator().manual_seed(11)
        draws = torch.randn((CALIBRATION_BATCHES,) + tuple(ctx["input"].shape), generator=gen)
        np.savez(calibration, draws.to(ctx["input"].dtype).numpy())
        cache.unlink(missing_ok=True)
        start = time.perf_counter()
        run_command([cli, "compile", str(pt2), "-o", str(work / f"{ctx['name']}.int8.atrt"), "--calibration",
                     str(calibration), "--calibration-cache", str(cache)] + settings, args.timeout)
        result["calibration_ms"] = (time.perf_counter() - start) * 1e3
        extra = ["--calibration-cache", str(cache)]
        settings = settings + extra
    # Correctness first: it is the cheaper call and says more when the converter is missing.
    in_npz, out_npz = work / f"{ctx['name']}.in.npz", work / f"{ctx['name']}.atenrt-{precision}.out.npz"
    np.savez(in_npz, ctx["input"].numpy())
    out_npz.unlink(missing_ok=True)
    try:
        run_command([cli, "run", str(pt2), "--inputs", str(in_npz), "--outputs", str(out_npz)] + settings,
                    args.timeout)
        with np.load(out_npz) as z:
            outs = [z[f"arr_{i}"] for i in range(len(z.files))]
        result.update(errors_vs(ctx["reference"], outs))
        result["top1_same"] = top1_agrees(ctx["reference"], outs)
    except (EngineError, OSError, KeyError, ValueError) as e:
        result["check_error"] = f"run: {e}"
    checked[precision] = (extra, dict(result))
    return _atenrt_timing(cli, pt2, args, settings, result)


def _atenrt_timing(cli, pt2, args, settings, result):
    try:
        stdout = run_command([cli, "bench", str(pt2), "--iterations", str(args.iterations),
                              "--warmup", str(args.warmup), "--json"] + settings, args.timeout)
    except EngineError as e:
        raise EngineError(f"bench: {e}" + (f"; {result['check_error']}" if "check_error" in result else ""))
    timing = parse_json_object(stdout, "atenrt bench")
    require_fields(timing, ["median_ms", "p90_ms"], "atenrt bench")
    timing.update(result)
    return timing


BENCHES = {
    "eager": bench_eager,
    "torchscript": bench_torchscript,
    "onnxruntime": bench_onnxruntime,
    "atenrt-fp32": lambda ctx: bench_atenrt(ctx, "fp32"),
    "atenrt-bf16": lambda ctx: bench_atenrt(ctx, "bf16"),
    "atenrt-int8": lambda ctx: bench_atenrt(ctx, "int8"),
}


def flatten(out):
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in flatten(o)]
    if isinstance(out, dict):
        return [t for k in out for t in flatten(out[k])]
    raise TypeError(f"unsupported output type {type(out).__name__}")


# ---------------------------------------------------------------- setup checks

def check_onnxruntime():
    """Return None when node + onnxruntime-node load, else the reason (installing it if missing)."""
    if shutil.which("node") is None:
        return "node not found on PATH"
    probe = ["node", "-e", "require('onnxruntime-node')"]
    if subprocess.run(probe, cwd=BENCH_DIR, capture_output=True).returncode == 0:
        return None
    if shutil.which("npm") is None:
        return "onnxruntime-node missing and npm not found (cd bench && npm install --ignore-scripts)"
    print("onnxruntime-node not installed: running 'npm ci --ignore-scripts' in bench/ ...", flush=True)
    lock = (BENCH_DIR / "package-lock.json").exists()
    cmd = ["npm", "ci" if lock else "install", "--ignore-scripts", "--no-audit", "--no-fund"]
    try:
        proc = subprocess.run(cmd, cwd=BENCH_DIR, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return "npm install timed out after 600 s (cd bench && npm install --ignore-scripts)"
    if proc.returncode != 0:
        tail = " | ".join((proc.stderr or proc.stdout).strip().splitlines()[-3:])
        return f"npm install failed (exit {proc.returncode}): {tail}"
    load = subprocess.run(probe, cwd=BENCH_DIR, capture_output=True, text=True)
    if load.returncode != 0:
        return "onnxruntime-node installed but does not load: " + " | ".join(load.stderr.strip().splitlines()[-2:])
    return None


def atenrt_importable():
    try:
        import atenrt  # noqa: F401
    except ImportError:
        sys.path.insert(0, str(ROOT / "python"))


# ---------------------------------------------------------------- main

def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    torch.set_num_threads(args.threads)
    atenrt_importable()
    args.work_dir.mkdir(parents=True, exist_ok=True)
    args.out_dir.mkdir(parents=True, exist_ok=True)

    ort_problem = check_onnxruntime() if "onnxruntime" in args.engines else None
    if ort_problem:
        print(f"WARNING: ONNX Runtime rows will be skipped: {ort_problem}", flush=True)
    if any(e.startswith("atenrt") for e in args.engines) and not Path(args.atenrt).is_file():
        print(f"WARNING: atenrt CLI not found at {args.atenrt}; pass --atenrt PATH", flush=True)

    print(f"batch 1, {args.threads} threads, warmup {args.warmup}, iterations {args.iterations}, "
          f"rounds {args.rounds}; "
          f"torch {torch.__version__}; models: {', '.join(args.models)}", flush=True)
    rows = []
    for name in args.models:
        torch.manual_seed(args.seed)
        model, x = build_model(name)
        model.eval()
        with torch.no_grad():
            reference = [t.numpy() for t in flatten(model(x))]
        ctx = {"name": name, "model": model, "input": x, "reference": reference, "args": args,
               "work": args.work_dir, "ort_problem": ort_problem}
        # Rounds interleave the engines (A B C A B C ...): on a shared VM the speed drifts from minute to
        # minute, and a drift then moves every engine's rounds alike instead of one engine's whole row.
        rounds = {engine: [] for engine in args.engines}
        for round_index in range(args.rounds):
            for engine in args.engines:
                if rounds[engine] and "error" in rounds[engine][0]:
                    continue  # an engine that failed once fails again: do not wait for it twice
                wait_for_quiet(args.wait_quiet, f"{name} {ENGINE_LABELS[engine]}")
                start, cpu_before = time.perf_counter(), cpu_snapshot()
                try:
                    result = BENCHES[engine](ctx)
                except EngineError as e:
                    result = {"error": str(e)}
                except Exception as e:  # an engine's bug must not end the whole comparison
                    result = {"error": f"{type(e).__name__}: {e}"}
                    traceback.print_exc()
                result.update(wall_s=time.perf_counter() - start, others_cores=others_cores(cpu_before, cpu_snapshot()))
                rounds[engine].append(result)
                label = f"{ENGINE_LABELS[engine]:19s}" + (f" r{round_index + 1}" if args.rounds > 1 else "")
                print(f"  {name:13s} {label} " + short_line(result), flush=True)
        for engine in args.engines:
            result = merge_rounds(rounds[engine])
            result.update(model=name, engine=engine, top1_margin=top1_margin(reference))
            rows.append(result)

    meta = {"threads": args.threads, "warmup": args.warmup, "iterations": args.iterations, "rounds": args.rounds,
            "batch": 1,
            "torch": torch.__version__, "atenrt_cli": args.atenrt, "seed": args.seed,
            "date": time.strftime("%Y-%m-%d %H:%M:%S"), "load_average": os.getloadavg(),
            "machine": machine_summary()}
    table = markdown_table(rows, args, meta)
    print()
    print(table)
    (args.out_dir / "models.md").write_text(table)
    (args.out_dir / "models.json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=1))
    chart = args.out_dir / "models.png"
    try:
        bar_chart(rows, args, meta, chart)
        print(f"wrote {args.out_dir / 'models.md'}, models.json, {chart.name}")
    except Exception as e:
        print(f"wrote {args.out_dir / 'models.md'}, models.json; chart failed: {e}")
    return 0


def machine_summary():
    """'AMD EPYC, 2 cores, AVX2'-like: the CPU's model name, the cores this process may use, its widest ISA."""
    name, flags = platform.processor() or platform.machine(), set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and value.strip():
                    name = value.strip()
                elif key.strip() == "flags":
                    flags = set(value.split())
                    break
    except OSError:
        pass
    isa = next((label for flag, label in [("amx_tile", "AMX"), ("avx512f", "AVX-512"), ("avx2", "AVX2")]
                if flag in flags), "")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return ", ".join(p for p in [name, f"{cores} cores", isa] if p)


def short_line(r):
    if "error" in r:
        return "ERROR " + r["error"][:150]
    s = f"median {r['median_ms']:8.2f} ms  p90 {r['p90_ms']:8.2f} ms"
    if "max_abs_err" in r:
        s += f"  max abs {r['max_abs_err']:.2e} rel {r['max_rel_err']:.2e}"
    if r.get("others_cores") is not None:
        s += f"  busy {r['others_cores']:.2f}"
    if "check_error" in r:
        s += f"  (check: {r['check_error'][:100]})"
    return s


def fmt(v, spec):
    return format(v, spec) if isinstance(v, (int, float)) else "—"


def cell(text, limit=160):
    text = " ".join(str(text).split()).replace("|", "\\|")
    return text if len(text) <= limit else text[:limit - 1] + "…"


def markdown_table(rows, args, meta):
    by = {(r["model"], r["engine"]): r for r in rows}
    margins = {r["model"]: r.get("top1_margin") for r in rows}
    lines = [
        f"## Model latency, batch 1, {args.threads} threads",
        "",
        f"{meta['machine']}; warmup {args.warmup}, iterations {args.iterations}, "
        + (f"{args.rounds} rounds interleaved (each row: the median of its rounds' medians; `spread`: "
           "their max − min over that median), " if args.rounds > 1 else "")
        + f"torch {meta['torch']}, "
        f"load average {meta['load_average'][0]:.1f} at the end, {meta['date']}. "
        "Ratios are median latency over the baseline's median in this run (< 1 is faster). "
        "Errors are against PyTorch eager fp32; rel = max abs error / max |reference|. "
        "A top-1 DIFF shows the reference's gap between its two best logits: random weights make it small. "
        "`busy` is how many cores other processes kept busy during the row (0 = quiet machine).",
        "",
        "| model | engine | median ms | p90 ms | min ms | spread | ÷ eager | ÷ ORT | compile/load ms | max abs err "
        "| max rel err | top-1 | busy | note |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|:-:|---:|---|",
    ]
    for r in rows:
        eager = by.get((r["model"], "eager"), {}).get("median_ms")
        ort = by.get((r["model"], "onnxruntime"), {}).get("median_ms")
        med = r.get("median_ms")
        top1 = {True: "same", False: "DIFF", None: ""}[r.get("top1_same")]
        margin = margins.get(r["model"])
        if r.get("top1_same") is False and margin is not None:
            top1 += f" (gap {margin:.0e})"
        note = r.get("error") or r.get("check_error") or r.get("note") or ""
        if r.get("calibration_ms") is not None and not note:
            note = f"calibration + compile {r['calibration_ms']:.0f} ms ({CALIBRATION_BATCHES} batches)"
        lines.append("| " + " | ".join([
            r["model"], ENGINE_LABELS[r["engine"]],
            fmt(med, ".2f"), fmt(r.get("p90_ms"), ".2f"), fmt(r.get("min_ms"), ".2f"),
            f"{r['round_spread']:.0%}" if r.get("round_spread") is not None else "—",
            fmt(med / eager, ".2f") if med and eager else "—",
            fmt(med / ort, ".2f") if med and ort else "—",
            fmt(r.get("compile_ms"), ".0f"),
            fmt(r.get("max_abs_err"), ".1e"), fmt(r.get("max_rel_err"), ".1e"),
            top1, fmt(r.get("others_cores"), ".2f"), cell(note)]) + " |")
    means = geomeans_vs_ort(rows, args.models)
    if means:
        lines += ["", "Geometric mean over the models of each engine's median ÷ ONNX Runtime's (< 1 is faster):", "",
                  "| engine | geomean ÷ ORT | models |", "|---|---:|---|"]
        for engine, (mean, models) in means.items():
            lines.append(f"| {ENGINE_LABELS[engine]} | {mean:.2f} | {len(models)} of {len(args.models)}: {', '.join(models)} |")
    noisy = [r for r in rows if (r.get("others_cores") or 0) > NOISY_CORES]
    if noisy:
        worst = max(r["others_cores"] for r in noisy)
        lines += ["", f"**Warning:** other processes kept up to {worst:.1f} cores busy during {len(noisy)} "
                  f"of {len(rows)} rows (`busy` > {NOISY_CORES}); those timings, and ratios against them, "
                  "are not trustworthy. Rerun on a quieter machine."]
    drifting = [r for r in rows if (r.get("round_spread") or 0) > DRIFTING_SPREAD]
    if drifting:
        lines += ["", f"**Note:** the rounds of {len(drifting)} of {len(rows)} rows differ by more than "
                  f"{DRIFTING_SPREAD:.0%} of their median (`spread`): the machine's speed drifted during the run "
                  "(other tenants of a shared host, frequency); the medians over rounds are the figures to compare."]
    return "\n".join(lines) + "\n"


def geomeans_vs_ort(rows, models):
    """engine -> (geometric mean of median / ORT median, the models it covers), for engines other than ORT.

    Only models where both the engine and ONNX Runtime have a time count; the table says which.
    """
    by = {(r["model"], r["engine"]): r.get("median_ms") for r in rows}
    out = {}
    for engine in ENGINES:
        if engine == "onnxruntime":
            continue
        covered = [m for m in models if by.get((m, engine)) and by.get((m, "onnxruntime"))]
        if covered:
            logs = [np.log(by[(m, engine)] / by[(m, "onnxruntime")]) for m in covered]
            out[engine] = (float(np.exp(np.mean(logs))), covered)
    return out


def bar_chart(rows, args, meta, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    models = args.models
    engines = args.engines
    colors = {"eager": "#d62728", "torchscript": "#ff7f0e", "onnxruntime": "#1f77b4",
              "atenrt-fp32": "#2ca02c", "atenrt-bf16": "#98df8a", "atenrt-int8": "#17becf"}
    by = {(r["model"], r["engine"]): r for r in rows}
    # One panel per model: latencies differ by 20x between models, a shared axis hides the small ones.
    # Rows of at most three panels keep the chart readable at README width.
    ncols = min(3, len(models))
    nrows = (len(models) + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.6 * ncols + 1.2, 3.6 * nrows + 1.0), squeeze=False)
    for ax in axes.flat[len(models):]:
        ax.set_visible(False)
    for ax, model in zip(axes.flat, models):
        values = [by.get((model, e), {}).get("median_ms") for e in engines]
        top = max([v for v in values if v] or [1.0])
        for i, (engine, v) in enumerate(zip(engines, values)):
            if v:
                ax.bar(i, v, color=colors[engine], edgecolor="black", linewidth=0.5)
                ax.text(i, v + top * 0.01, f"{v:.1f}", ha="center", va="bottom", fontsize=8)
            else:
                ax.text(i, top * 0.02, "failed" if "error" in by.get((model, engine), {}) else "n/a",
                        ha="center", va="bottom", rotation=90, fontsize=8, color="gray")
        ax.set_title(model, fontsize=11)
        ax.set_xticks(range(len(engines)))
        ax.set_xticklabels([ENGINE_LABELS[e] for e in engines], rotation=40, ha="right", fontsize=8)
        ax.set_ylim(0, top * 1.15)
        ax.grid(axis="y", alpha=0.3)
    for row in axes:
        row[0].set_ylabel("median latency, ms\n(lower is better)")
    runs = f"median of {args.rounds} interleaved rounds" if args.rounds > 1 else "one run"
    title = (f"batch 1, {args.threads} threads, {args.iterations} iterations, {runs} "
             f"({meta['date']}{', ' + meta['machine'] if meta.get('machine') else ''}) — compare within a panel")
    means = geomeans_vs_ort(rows, models)
    if means:
        title += "\ngeometric mean ÷ ONNX Runtime: " + ", ".join(
            f"{ENGINE_LABELS[e]} {m:.2f}x ({len(ms)} models)" for e, (m, ms) in means.items())
    busy = max([r.get("others_cores") or 0 for r in rows] or [0])
    if busy > NOISY_CORES:
        title += f"\nWARNING: other processes kept up to {busy:.1f} cores busy; timings are unreliable"
    fig.suptitle(title, fontsize=10, color="black" if busy <= NOISY_CORES else "darkred")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    sys.exit(main())
