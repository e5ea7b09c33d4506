#!/usr/bin/env python3
"""Runs PyTorch's OpInfo database (torch 1.13's op_db) through atenrt and reports op x dtype.

Every sample of every op, for every dtype atenrt engines take, is exported with atenrt's exporter,
dry-run and compiled with require_full_compilation, run, and compared with PyTorch (see check.py
for the statuses and tolerances). Workers are separate processes, so a crash (a signal) or a hang
is recorded against its sample and the run goes on.

  full run, regenerating the table (docs/opinfo.md) and the expectations CI checks:
    PYTHONPATH=python:build/python /usr/bin/python3 tests/opinfo/run_opinfo.py --full --jobs 2
  the CI subset (fp32, the first samples of every op, checked against tests/opinfo/expected.json):
    PYTHONPATH=python:build/python /usr/bin/python3 tests/opinfo/run_opinfo.py --ci
  one op, every dtype, keeping what fails under /tmp/opinfo:
    ... run_opinfo.py --ops index_copy --dtypes all --keep /tmp/opinfo
  the crash hunt: the same under the ASan/UBSan build (scripts/build.sh asan), a sanitizer report
  ending its sample as a crash (the workers' stderr, with the reports, goes to --sanitizer-log):
    PYTHONPATH=python /usr/bin/python3 tests/opinfo/run_opinfo.py --asan build-asan --dtypes all --jobs 2
  the full run in pieces (one dtype at a time, or again for the ops a change touched), then the
  table and expectations from their --json files (a later file's op x dtype replaces an earlier's):
    ... run_opinfo.py --dtypes bfloat16 --json /tmp/opinfo/bfloat16.json
    ... run_opinfo.py --from-json /tmp/opinfo/*.json --full
"""
import argparse
import json
import os
import queue
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXPECTED = os.path.join(HERE, "expected.json")
TABLE = os.path.join(ROOT, "docs", "opinfo.md")
# Hand-written notes on particular rows (comparison rules, why an excused row is excused), put into
# the table after its legend.
TABLE_NOTES = os.path.join(HERE, "table_notes.md")
SAMPLE_TIMEOUT_S = 300  # one sample (export, compile, run); longer is a hang
CI_SAMPLES = 3


# ---------------------------------------------------------------------------------------- worker

def worker_main():
    """Reads tasks (JSON lines) on stdin; answers one JSON line per sample, then {"done": ...}.
    Protocol lines go to the original stdout; anything else printed goes to stderr."""
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.path.insert(0, HERE)
    import warnings
    warnings.filterwarnings("ignore")
    import torch
    torch.set_num_threads(1)
    import samples as S
    from check import run_sample
    ops = S.all_ops()
    with tempfile.TemporaryDirectory(prefix="atenrt_opinfo_") as workdir:
        for line in sys.stdin:
            task = json.loads(line)
            op = ops[task["op"]]
            try:
                items = S.samples(op, task["dtype"])
            except Exception as e:  # noqa: BLE001 - PyTorch's sample generator failing
                proto.write(json.dumps({"done": True, "error": f"sample_inputs raises: {e}"}) + "\n")
                continue
            limit = task.get("max_samples") or len(items)
            for k in range(task.get("start", 0), min(limit, len(items))):
                keep = os.path.join(task["keep"], f"{task['op']}.{task['dtype']}.{k}") if task.get("keep") else None
                try:
                    status, detail = run_sample(op, items[k], workdir, keep)
                except Exception as e:  # noqa: BLE001 - a bug of this harness, reported as such
                    status, detail = "error", f"harness: {type(e).__name__}: {e}"
                proto.write(json.dumps({"sample": k, "status": status, "detail": detail}) + "\n")
            proto.write(json.dumps({"done": True, "total": len(items)}) + "\n")


# ---------------------------------------------------------------------------------------- parent

WORKER_ENV = {}  # set by --asan
WORKER_LOG = None  # --asan: the file the workers' stderr (the sanitizers' reports) is appended to


def asan_env(build_dir):
    """The environment that runs workers on an ASan/UBSan build's module: Debian's python3 is not
    instrumented, so ASan's runtime is preloaded, with libstdc++ (ASan wraps its throws only when
    it is there from the start), leak checks off (CPython and torch keep memory by design), the
    first report aborting its worker; as ctest's python_runtime runs."""
    def lib(name):
        return subprocess.run(["c++", f"-print-file-name={name}"], capture_output=True, text=True,
                              check=True).stdout.strip()
    module = os.path.join(os.path.abspath(build_dir), "python")
    if not os.path.isdir(module):
        sys.exit(f"run_opinfo: {module} does not exist (build it: scripts/build.sh asan)")
    return {"ATENRT_PYTHON_MODULE_DIR": module, "LD_PRELOAD": f"{lib('libasan.so')}:{lib('libstdc++.so.6')}",
            "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1",
            "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1"}


class Worker:
    def __init__(self):
        env = dict(os.environ, **WORKER_ENV)
        err = open(WORKER_LOG, "a") if WORKER_LOG else subprocess.DEVNULL  # noqa: SIM115 - the child keeps it
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker"], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=err, text=True, bufsize=1)
        if WORKER_LOG:
            err.close()
        self.buffer = ""

    def send(self, task):
        self.proc.stdin.write(json.dumps(task) + "\n")
        self.proc.stdin.flush()

    def read(self, timeout):
        """The next protocol line as a dict; None at EOF; 'timeout' when nothing came in time."""
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while "\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return "timeout"
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 65536).decode()
                if not chunk:
                    return None
                self.buffer += chunk
        line, self.buffer = self.buffer.split("\n", 1)
        return json.loads(line)

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        return self.proc.returncode


def run_task(slot, task, timeout):
    """Runs one (op, dtype) task on the slot's worker, restarting it after a crash or a hang.
    Returns {"samples": [...], "total": n}."""
    results = []
    start = 0
    while True:
        if slot.get("worker") is None:
            slot["worker"] = Worker()
        worker = slot["worker"]
        worker.send(dict(task, start=start))
        while True:
            msg = worker.read(timeout)
            if isinstance(msg, dict) and "sample" in msg:
                results.append(msg)
                start = msg["sample"] + 1
                continue
            if isinstance(msg, dict):  # done
                return {"samples": results, "total": msg.get("total", len(results)), "error": msg.get("error")}
            rc = worker.kill()
            slot["worker"] = None
            if msg == "timeout":
                results.append({"sample": start, "status": "timeout", "detail": f"no answer in {timeout} s"})
            else:
                sig = -rc if rc is not None and rc < 0 else None
                name = signal.Signals(sig).name if sig else f"exit {rc}"
                results.append({"sample": start, "status": "crash", "detail": f"worker died: {name}"})
            start += 1
            break


def aggregate(result):
    """(status, detail) of an op x dtype from its samples' statuses."""
    samples = result["samples"]
    if result.get("error") and not samples:
        return "skip", result["error"]
    by = {}
    for s in samples:
        by.setdefault(s["status"], s)
    for status, label in (("crash", "crash"), ("timeout", "crash"), ("wrong", "fails"), ("error", "fails"),
                          ("random-wrong", "fails"), ("refused", "refused")):
        if status in by:
            s = by[status]
            return label, f"{status} (sample {s['sample']}): {s['detail']}"
    exported = [s for s in samples if s["status"] in ("pass", "random-pass")]
    if not exported:
        if "export" in by:
            return "export", by["export"]["detail"]
        return "skip", by["skip"]["detail"] if "skip" in by else "no samples"
    label = "random" if "random-pass" in by else "pass"
    not_run = [s for s in samples if s["status"] in ("export", "skip")]
    return label, f"{len(exported)} of {len(samples)} samples run" if not_run else ""


def run_all(tasks, jobs, timeout, progress=True):
    todo = queue.Queue()
    for t in tasks:
        todo.put(t)
    results = {}
    lock = threading.Lock()
    started = time.monotonic()

    def loop():
        slot = {}
        while True:
            try:
                task = todo.get_nowait()
            except queue.Empty:
                break
            res = run_task(slot, task, timeout)
            with lock:
                results[(task["op"], task["dtype"])] = res
                if progress:
                    status, _ = aggregate(res)
                    print(f"[{len(results)}/{len(tasks)} {time.monotonic() - started:.0f}s] "
                          f"{task['op']} {task['dtype']}: {status}", file=sys.stderr, flush=True)
        if slot.get("worker"):
            slot["worker"].proc.stdin.close()
            slot["worker"].kill()

    threads = [threading.Thread(target=loop) for _ in range(max(1, jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


# ---------------------------------------------------------------------------------------- report

ORDER = ("pass", "random", "refused", "fails", "crash", "export", "skip")


def summarize(statuses, dtypes):
    """{dtype: {label: count}} over the ops that support the dtype."""
    out = {d: {k: 0 for k in ORDER} for d in dtypes}
    for (op, d), (label, _) in statuses.items():
        out[d][label] += 1
    return out


def write_table(statuses, dtypes, path, command):
    ops = sorted({op for op, _ in statuses})
    summary = summarize(statuses, dtypes)
    lines = [
        "# OpInfo conformance",
        "",
        "PyTorch's own operator test database (torch 1.13's `op_db`, the samples PyTorch tests every operator",
        "with) run through atenrt: each sample exported with atenrt's exporter, compiled with",
        "`require_full_compilation` (converters only; the libtorch fallback is counted apart, docs/fallback.md), run, and compared",
        "with PyTorch. Float32 outputs pass when max|out - ref| <= 1e-4 * max|ref| (no absolute floor) with NaN",
        "and inf where PyTorch has them; other dtypes use `torch.testing.assert_close`'s defaults.",
        "",
        f"Regenerated by {command} (`tests/opinfo/run_opinfo.py`; its docstring has the CI subset and one-op runs).",
        "",
        "Labels: **pass** every sample matches; **random** the op draws random numbers, checked by dtype, shape",
        "and moments against PyTorch's draws; **refused** a validator refuses a node at compile time (reason",
        "below, also in `atenrt compile --dryrun`); **fails** a wrong result or an error after the dry run",
        "accepted the graph; **crash** the process died or hung; **export** torch 1.13's tracer cannot export",
        "the op; **skip** PyTorch gives no usable sample; `-` the op does not support the dtype.",
        "",
    ]
    if os.path.exists(TABLE_NOTES):
        with open(TABLE_NOTES) as f:
            lines += [f.read().rstrip("\n"), ""]
    lines += [
        "| dtype | " + " | ".join(ORDER) + " | ops |",
        "|---|" + "---|" * (len(ORDER) + 1),
    ]
    for d in dtypes:
        row = summary[d]
        lines.append(f"| {d} | " + " | ".join(str(row[k]) for k in ORDER) + f" | {sum(row.values())} |")
    lines += ["", "## By op", "", "| op | " + " | ".join(dtypes) + " |", "|---|" + "---|" * len(dtypes)]
    for op in ops:
        cells = [statuses[(op, d)][0] if (op, d) in statuses else "-" for d in dtypes]
        lines.append(f"| `{op}` | " + " | ".join(cells) + " |")
    lines += ["", "## Why not", "", "The first sample that is not a pass, per op and dtype (dtypes with the same",
              "reason share a line).", ""]
    for op in ops:
        reasons = {}
        for d in dtypes:
            label, detail = statuses.get((op, d), ("-", ""))
            if label in ("pass", "random", "-") or not detail:
                continue
            reasons.setdefault((label, detail), []).append(d)
        for (label, detail), ds in reasons.items():
            text = detail.replace("|", "\\|")
            lines.append(f"- `{op}` ({', '.join(ds)}): {label}: {text}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def check_expected(statuses, expected):
    """CI: an op x dtype recorded as pass (or random) must still pass on the samples run; nothing may
    crash. Returns the problems."""
    problems = []
    for (op, d), (label, detail) in sorted(statuses.items()):
        want = expected.get(op, {}).get(d)
        if label == "crash":
            problems.append(f"{op} {d}: crash: {detail}")
        elif want in ("pass", "random") and label not in ("pass", "random", "export", "skip"):
            problems.append(f"{op} {d}: recorded {want}, now {label}: {detail}")
    return problems


def load_results(paths):
    """{(op, dtype): result} from --json files; a later file's entry replaces an earlier's."""
    results = {}
    for path in paths:
        with open(path) as f:
            for r in json.load(f):
                results[(r["op"], r["dtype"])] = {k: r[k] for k in ("samples", "total", "error") if k in r}
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--full", action="store_true", help="every op, dtype and sample; rewrites the table and "
                    "tests/opinfo/expected.json")
    ap.add_argument("--ci", action="store_true", help=f"float32, the first {CI_SAMPLES} samples of every op, "
                    "checked against tests/opinfo/expected.json")
    ap.add_argument("--ops", help="comma-separated op ids (name or name.variant); default every op")
    ap.add_argument("--dtypes", help="comma-separated, or 'all' (default: float32; all with --full)")
    ap.add_argument("--max-samples", type=int, default=0, help="samples per op and dtype (0: all)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=SAMPLE_TIMEOUT_S, help="seconds per sample")
    ap.add_argument("--keep", help="folder for the .pt2 and tensors of every sample that does not pass")
    ap.add_argument("--json", help="write the per-sample results here")
    ap.add_argument("--table", help="write the markdown table here")
    ap.add_argument("--from-json", nargs="+", metavar="JSON", help="run nothing: the results of earlier --json "
                    "files (a later file's op x dtype replaces an earlier's), for --full or --table")
    ap.add_argument("--asan", metavar="BUILD_DIR", help="run the workers on this ASan/UBSan build's module "
                    "(the crash hunt); their stderr, the sanitizers' reports, goes to --sanitizer-log")
    ap.add_argument("--sanitizer-log", default="/tmp/atenrt_opinfo_sanitizer.log", help="with --asan: the file "
                    "the workers' stderr is appended to")
    args = ap.parse_args()
    if args.worker:
        return worker_main()
    if args.asan:
        global WORKER_LOG
        WORKER_ENV.update(asan_env(args.asan))
        WORKER_LOG = args.sanitizer_log

    sys.path.insert(0, HERE)
    import samples as S
    all_ops = S.all_ops()
    chosen = args.dtypes or ("all" if args.full else "float32")
    dtypes = list(S.DTYPES) if chosen == "all" else chosen.split(",")
    unknown = [d for d in dtypes if d not in S.DTYPES]
    if unknown:
        ap.error(f"unknown dtype {unknown[0]}; the engine's dtypes are {', '.join(S.DTYPES)}")
    names = list(all_ops) if not args.ops else args.ops.split(",")
    missing = [n for n in names if n not in all_ops]
    if missing:
        ap.error(f"no OpInfo named {missing[0]!r}")
    max_samples = CI_SAMPLES if args.ci else args.max_samples
    if args.ci:
        dtypes = ["float32"]
    if args.from_json:
        results = load_results(args.from_json)
        dtypes = [d for d in S.DTYPES if any(rd == d for _, rd in results)]
        command = ("the per-sample results of `PYTHONPATH=python:build/python /usr/bin/python3 "
                   "tests/opinfo/run_opinfo.py --dtypes <dtype> --json <file>` over every sample, one run per "
                   "dtype (plus `--ops` reruns of what a later change touched, if any), merged by `run_opinfo.py "
                   "--from-json <files> --full`")
    else:
        tasks = [{"op": n, "dtype": d, "max_samples": max_samples, "keep": args.keep}
                 for d in dtypes for n in names if d in S.supported_dtypes(all_ops[n])]
        results = run_all(tasks, args.jobs, args.timeout)
        command = ("`PYTHONPATH=python:build/python /usr/bin/python3 tests/opinfo/run_opinfo.py --full --jobs 2`"
                   if args.full else "`" + " ".join(["run_opinfo.py"] + sys.argv[1:]) + "`")
    statuses = {k: aggregate(v) for k, v in results.items()}

    if args.json:
        with open(args.json, "w") as f:
            json.dump([dict(op=op, dtype=d, **r) for (op, d), r in sorted(results.items())], f, indent=1)
    summary = summarize(statuses, dtypes)
    for d in dtypes:
        print(d + ": " + ", ".join(f"{v} {k}" for k, v in summary[d].items() if v), flush=True)
    if args.full:
        write_table(statuses, dtypes, TABLE, command)
        expected = {}
        for (op, d), (label, _) in sorted(statuses.items()):
            expected.setdefault(op, {})[d] = label
        with open(EXPECTED, "w") as f:
            json.dump(expected, f, indent=1, sort_keys=True)
            f.write("\n")
    elif args.table:
        write_table(statuses, dtypes, args.table, command)
    if args.ci:
        with open(EXPECTED) as f:
            problems = check_expected(statuses, json.load(f))
        for p in problems:
            print("opinfo: " + p, file=sys.stderr)
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
