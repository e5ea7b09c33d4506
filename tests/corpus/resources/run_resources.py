#!/usr/bin/python3
"""Runs the "resources" family through the `atenrt` CLI the way CI does: every file
of a manifest (make_resources.py) under an address-space limit and a per-file
timeout. By stage: "load" files are inspected, "compile" files compiled, and
"run:MODEL" files (.npz inputs) given to `atenrt run MODEL --inputs FILE`. Each must
end as its manifest says: a clean `atenrt: error:` (exit 1) containing the listed
text (and naming the file, unless the builder or engine refuses a compile), or success for class "none". A crash, a hang past the
timeout or an allocation past the limit is a failure. The timeout is a hang
detector, not a speed assertion; the time and peak RSS printed per file are for
reading, not checked.

  run_resources.py ATENRT_BINARY MANIFEST_DIR... [--memory-mb N] [--timeout S]
"""
import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time


def read_manifest(folder):
    rows = []
    with open(os.path.join(folder, "manifest.tsv")) as f:
        for line in f:
            line = line.rstrip("\n")
            if line and not line.startswith("#"):
                name, stage, cls, substring = (line.split("\t") + [""] * 4)[:4]
                rows.append((folder, name, stage, cls, substring))
    return rows


def command(cli, folder, name, stage, tmp):
    path = os.path.join(folder, name)
    if stage == "load":
        return [cli, "inspect", path]
    if stage == "compile":
        return [cli, "compile", path, "-o", os.path.join(tmp, "e.atrt")]
    if stage.startswith("run:"):
        model = os.path.join(folder, stage[len("run:"):])
        return [cli, "run", model, "--inputs", path, "--outputs", os.path.join(tmp, "o.npz")]
    raise SystemExit(f"{name}: unknown stage {stage!r}")


def run_capped(cmd, limit_bytes, timeout, tmp):
    """(exit code or None on timeout, stderr, seconds, peak RSS in MiB) of cmd under RLIMIT_AS."""
    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))

    with open(os.path.join(tmp, "stderr"), "w+") as err:
        start = time.monotonic()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, preexec_fn=cap)
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - start > timeout:
                p.kill()
                os.wait4(p.pid, 0)
                return None, "", timeout, 0.0
            time.sleep(0.01)
        seconds = time.monotonic() - start
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        return p.returncode, err.read(), seconds, usage.ru_maxrss / 1024.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--memory-mb", type=int, default=4096)
    ap.add_argument("--timeout", type=float, default=120.0)
    args = ap.parse_args()

    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for folder in args.folders:
            for folder, name, stage, cls, substring in read_manifest(folder):
                cmd = command(args.cli, folder, name, stage, tmp)
                code, err, seconds, rss = run_capped(cmd, args.memory_mb << 20, args.timeout, tmp)
                err = err.strip()
                if code is None:
                    ok, why = False, f"no answer within {args.timeout:.0f} s (a hang?)"
                elif cls == "none":
                    ok, why = code == 0, f"exit {code}: {err[:300]}"
                else:
                    # The reader's and the input reader's errors name the file; the builder's
                    # and the engine's name the tensor, its shape and bytes.
                    names_file = stage == "compile" or name in err
                    ok = code == 1 and err.startswith("atenrt: error:") and substring in err and names_file
                    why = f"exit {code}, expected a clean error containing {substring!r}: {err[:300]}"
                measured = f"{seconds:6.2f} s {rss:7.1f} MiB"
                print(("ok   " if ok else "FAIL ") + measured + "  " + name + ("" if ok else ": " + why))
                failures += 0 if ok else 1
    if failures:
        print(f"{failures} resource case(s) failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
