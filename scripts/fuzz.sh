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
  mkdir -p "build-fuzz/$name-work"
  # shellcheck disable=SC2046
  "build-fuzz/tests/fuzz/$name" -dict="$dict" $(limits "$runs") -rss_limit_mb=2048 -timeout="$timeout" \
    "build-fuzz/$name-work" "$@" 2>&1 | tail -n 5
}

run pt2_reader_fuzz tests/fuzz/pt2.dict 10 "$pt2_runs" tests/corpus
run engine_file_fuzz tests/fuzz/engine.dict 10 "$engine_runs" tests/fuzz/engine_corpus
run pipeline_fuzz tests/fuzz/pt2.dict 20 "$pipeline_runs" tests/fuzz/pipeline_corpus
