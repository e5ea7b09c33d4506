#!/usr/bin/env bash
# Builds atenrt. Usage: scripts/build.sh [release|asan|tsan|fuzz]  (default: release)
#   release -> build/       (the CLI at build/atenrt)
#   asan    -> build-asan/  (AddressSanitizer + UndefinedBehaviorSanitizer, tests, CLI, Python module)
#   tsan    -> build-tsan/  (ThreadSanitizer; only the test programs with threading tests)
#   fuzz    -> build-fuzz/  (clang, libFuzzer targets)
# The release build turns every optional part on and requires its dependencies
# (ATENRT_REQUIRE_ALL), so scripts/check_deps.py sees everything a build can use.
# The sanitizer and fuzz builds leave the libtorch fallback plugin out: libtorch
# itself is not built with sanitizers, and their tests skip the fallback.
set -euo pipefail
cd "$(dirname "$0")/.."
kind="${1:-release}"
jobs="${ATENRT_JOBS:-$(nproc)}"
case "$kind" in
  release)
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DATENRT_BENCH=ON -DATENRT_PYTHON=ON -DATENRT_REQUIRE_ALL=ON >/dev/null
    cmake --build build -j"$jobs"
    ;;
  asan)
    cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DATENRT_SANITIZE=ON -DATENRT_BENCH=OFF -DATENRT_WITH_TORCH=OFF >/dev/null
    cmake --build build-asan -j"$jobs"
    ;;
  tsan)
    cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DATENRT_TSAN=ON -DATENRT_BENCH=OFF -DATENRT_WITH_TORCH=OFF >/dev/null
    cmake --build build-tsan -j"$jobs" --target atenrt_builder_tests atenrt_api_tests
    ;;
  fuzz)
    cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
      -DATENRT_FUZZ=ON -DATENRT_BENCH=OFF -DATENRT_TESTS=ON -DATENRT_WITH_TORCH=OFF >/dev/null
    cmake --build build-fuzz -j"$jobs" --target pt2_reader_fuzz engine_file_fuzz pipeline_fuzz
    ;;
  *)
    echo "usage: $0 [release|asan|tsan|fuzz]" >&2
    exit 2
    ;;
esac
