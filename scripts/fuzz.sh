#!/usr/bin/env bash
# Runs atenrt's three libFuzzer targets (the .pt2 reader, the engine-file
# loader with checksums fixed up, the whole pipeline past the reader).
#
#   scripts/fuzz.sh --ci          fixed seed and run counts: the same commit
#                                 always explores the same inputs (scripts/test.sh)
#   scripts/fuzz.sh [SECONDS]     exploration: a random seed, SECONDS per target
#                                 (default 600); finds what CI's fixed walk does not
#
# Each run first replays its checked-in corpus (tests/corpus, tests/fuzz/*_corpus).
# A crash leaves crash-<sha1> in the current directory; add it to the target's
# corpus once fixed, so every later run replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -x build-fuzz/tests/fuzz/pt2_reader_fuzz ]] || scripts/build.sh fuzz

if [[ "${1:-}" == "--ci" ]]; then
  # Runs, not seconds: a time budget makes the walk depend on the machine's load.
  limits() { echo "-seed=1 -runs=$1"; }
  pt2_runs=60000 engine_runs=150000 pipeline_runs=30000
else
  seconds="${1:-600}"
  limits() { echo "-seed=0 -max_total_time=$seconds"; }  # seed 0: libFuzzer picks one
  pt2_runs=0 engine_runs=0 pipeline_runs=0
fi

run() {  # name dict timeout runs corpus...
  local name=$1 dict=$2 timeout=$3 runs=$4
  shift 4
  printf '\n== %s\n' "$name"
  touch "build-fuzz/$name.log.start"
  mkdir -p "build-fuzz/$name-work"
  local log="build-fuzz/$name.log" status=0
  # shellcheck disable=SC2046
  "build-fuzz/tests/fuzz/$name" -dict="$dict" $(limits "$runs") -rss_limit_mb=2048 -timeout="$timeout" \
    "build-fuzz/$name-work" "$@" >"$log" 2>&1 || status=$?
  if ((status == 0)); then
    tail -n 5 "$log"
    return 0
  fi
  # A failure: the report with its stack (the uncaught exception's type and
  # message come before it), and each new crash input in base64, so that a CI
  # log alone is enough to replay it: base64 -d > crash && build-fuzz/tests/fuzz/NAME crash
  grep -v '^#[0-9]*[[:space:]]*\(NEW\|REDUCE\|pulse\|RELOAD\)' "$log" | tail -n 80 | cut -c1-400
  local f
  for f in crash-* leak-* timeout-* oom-*; do
    [[ -f "$f" && $(stat -c %s "$f") -le 65536 && "$f" -nt "$log.start" ]] || continue
    printf '\n== %s, base64:\n' "$f"
    base64 -w 120 "$f"
  done
  return "$status"
}

run pt2_reader_fuzz tests/fuzz/pt2.dict 10 "$pt2_runs" tests/corpus
run engine_file_fuzz tests/fuzz/engine.dict 10 "$engine_runs" tests/fuzz/engine_corpus
run pipeline_fuzz tests/fuzz/pt2.dict 20 "$pipeline_runs" tests/fuzz/pipeline_corpus
