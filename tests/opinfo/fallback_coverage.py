#!/usr/bin/python3
"""How much of the OpInfo table the libtorch fallback adds: the ops that converters refuse
(tests/opinfo/expected.json, fp32 'refused'), run again with the fallback allowed (no
require_full_compilation, min_block_size 1), their first CI samples, compared with PyTorch as
run_opinfo.py compares. Prints the counts beside the table's (docs/opinfo.md), so the converter
coverage stays measurable apart from what the fallback runs.

  PYTHONPATH=python ATENRT_PYTHON_MODULE_DIR=build/python /usr/bin/python3 tests/opinfo/fallback_coverage.py [--ops a,b] [--samples N]

Each op runs in a child process (a crash or a hang is counted, and the run goes on).
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


def child(op_name, samples_per_op):
    """Runs one op's first samples with the fallback allowed; prints one JSON line."""
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
    op = S.all_ops()[op_name]
    statuses = []
    with tempfile.TemporaryDirectory() as work:
        for k, sample in enumerate(S.samples(op, "float32")):
            if k >= samples_per_op:
                break
            status, detail = check.run_sample(op, sample, work)
            statuses.append((status, detail))
    print(json.dumps(statuses))


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
        child(args.child, args.samples)
        return
    with open(os.path.join(HERE, "expected.json")) as f:
        expected = json.load(f)
    ops = args.ops.split(",") if args.ops else [o for o, d in expected.items() if d.get("float32") == "refused"]
    counts = collections.Counter()
    details = {}
    for op in ops:
        try:
            proc = subprocess.run([sys.executable, __file__, "--child", op, "--samples", str(args.samples)],
                                  capture_output=True, text=True, timeout=TIMEOUT_S)
            if proc.returncode != 0:
                status, why = "crash", f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}"
            else:
                statuses = json.loads(proc.stdout.strip().splitlines()[-1])
                status = label(statuses)
                why = "; ".join(d for s, d in statuses if d)[:300]
        except subprocess.TimeoutExpired:
            status, why = "crash", "hang"
        counts[status] += 1
        details[op] = (status, why)
        print(f"{op}: {status}{': ' + why if why and status != 'pass' else ''}", flush=True)
    table = collections.Counter(d.get("float32") for d in expected.values())
    print(f"\nfp32, converters only (docs/opinfo.md): {table['pass']} pass, {table['refused']} refused")
    print(f"the {len(ops)} refused ops with the libtorch fallback allowed: " +
          ", ".join(f"{n} {s}" for s, n in counts.most_common()))


if __name__ == "__main__":
    main()
