#!/usr/bin/python3
"""How much of the OpInfo table the libtorch fallback adds: the ops that converters refuse
(tests/opinfo/expected.json, fp32 'refused'), run again with the fallback allowed (no
require_full_compilation, min_block_size 1), their first CI samples, compared with PyTorch as
run_opinfo.py compares. Prints the counts beside the table's (docs/opinfo.md), so the converter
coverage stays measurable apart from what the fallback runs.

  PYTHONPATH=python ATENRT_PYTHON_MODULE_DIR=build/python /usr/bin/python3 tests/opinfo/fallback_coverage.py [--ops a,b] [--samples N]

Ops run in child processes (a crash or a hang is counted against its op, and the run goes on).
"""
import argparse
import collections
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TIMEOUT_S = 300


def child(op_names, samples_per_op):
    """Runs each op's first samples with the fallback allowed; prints one JSON line per op."""
    import tempfile
    import warnings
    warnings.filterwarnings("ignore")
    sys.path.insert(0, HERE)
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import torch
    torch.set_num_threads(1)
    import atenrt
    import check
    import samples as S

    real_compile, real_dry_run = atenrt.compile, atenrt.dry_run

    def allow(fn):
        def call(path, **settings):
            settings["require_full_compilation"] = False
            settings["min_block_size"] = 1
            return fn(path, **settings)
        return call

    def dry_run(path, **settings):
        # check.py refuses a graph that is not fully supported; here only what the fallback
        # refuses counts as refused.
        report = allow(real_dry_run)(path, **settings)
        if not report._data.get("refused"):
            report.fully_supported = True
        return report

    check.atenrt.compile = allow(real_compile)
    check.atenrt.dry_run = dry_run
    all_ops = S.all_ops()
    for op_name in op_names:
        statuses = []
        with tempfile.TemporaryDirectory() as work:
            for k, sample in enumerate(S.samples(all_ops[op_name], "float32")):
                if k >= samples_per_op:
                    break
                statuses.append(check.run_sample(all_ops[op_name], sample, work))
        print(json.dumps([op_name, statuses]), flush=True)


def label(statuses):
    names = [s for s, _ in statuses]
    if not names:
        return "skip"
    for bad in ("error", "wrong", "random-wrong", "refused", "export"):
        if bad in names:
            return "refused" if bad == "refused" else ("export" if bad == "export" else "fails")
    return "pass" if all(n in ("pass", "random-pass", "skip") for n in names) else "fails"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", help="comma-separated op ids (default: every fp32 'refused' op)")
    ap.add_argument("--samples", type=int, default=3)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child.split(","), args.samples)
        return
    with open(os.path.join(HERE, "expected.json")) as f:
        expected = json.load(f)
    ops = args.ops.split(",") if args.ops else [o for o, d in expected.items() if d.get("float32") == "refused"]
    counts = collections.Counter()

    def record(op, status, why):
        counts[status] += 1
        print(f"{op}: {status}{': ' + why if why and status != 'pass' else ''}", flush=True)

    # One child for many ops (importing op_db is slow); after a crash or a hang, the op it was on
    # is counted as such and a new child takes the rest.
    todo = list(ops)
    while todo:
        try:
            proc = subprocess.run([sys.executable, __file__, "--child", ",".join(todo), "--samples", str(args.samples)],
                                  capture_output=True, text=True, timeout=TIMEOUT_S * len(todo))
            out, failed = proc.stdout, proc.returncode != 0
            why_failed = f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}"
        except subprocess.TimeoutExpired as e:
            out, failed, why_failed = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), True, "hang"
        for line in out.splitlines():
            if not line.startswith("["):
                continue
            op, statuses = json.loads(line)
            record(op, label(statuses), "; ".join(d for _, d in statuses if d)[:300])
            todo.remove(op)
        if failed and todo:
            record(todo.pop(0), "crash", why_failed)
        elif not failed:
            break
    table = collections.Counter(d.get("float32") for d in expected.values())
    print(f"\nfp32, converters only (docs/opinfo.md): {table['pass']} pass, {table['refused']} refused")
    print(f"the {len(ops)} refused ops with the libtorch fallback allowed: " +
          ", ".join(f"{n} {s}" for s, n in counts.most_common()))


if __name__ == "__main__":
    main()
