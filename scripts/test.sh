#!/usr/bin/env bash
# Runs atenrt's tests. Exits non-zero on the first failure.
#
#   scripts/test.sh          CI's subset (about an hour on 2 cores): the release
#                            build's tests (C++ unit, converter, lowering and model
#                            tests against PyTorch, CLI, hostile resources, the
#                            OpInfo subset, packaging) and the C++ tests, with the
#                            fuzz corpora replayed, under AddressSanitizer +
#                            UndefinedBehaviorSanitizer.
#   scripts/test.sh --full   everything (about 90 minutes): the above, plus the
#                            Python module, the CLI tests and five models under
#                            ASan + UBSan, the threading tests under ThreadSanitizer,
#                            and the three libFuzzer targets on a fixed walk
#                            (scripts/fuzz.sh --ci; scripts/fuzz.sh alone explores
#                            with a random seed). Run it before a release and after
#                            changing memory handling, threading or a parser.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
PY=/usr/bin/python3  # Debian's interpreter: the one that has torch 1.13
export PYTHONPATH="$ROOT/python${PYTHONPATH:+:$PYTHONPATH}"

full=0
case "${1:-}" in
  "") ;;
  --full) full=1 ;;
  *) echo "usage: $0 [--full]" >&2; exit 2 ;;
esac

# Each step says how long the run has taken so far: CI's log then shows where the time goes.
started=$SECONDS
step() { printf '\n==== [%d min] %s\n' $(( (SECONDS - started) / 60 )) "$*"; }

step "dependencies"
scripts/install_deps.sh

step "release build"
scripts/build.sh release

step "generating PyTorch fixtures (exporter + eager outputs)"
FIXTURES="$ROOT/build/fixtures"
rm -rf "$FIXTURES" && mkdir -p "$FIXTURES"
$PY tests/tools/make_fixtures.py "$FIXTURES/models"
$PY tests/converters/make_cases.py "$FIXTURES/converter_cases"
$PY tests/lowering/make_cases.py "$FIXTURES/lowering_cases"
export ATENRT_FIXTURES_DIR="$FIXTURES/models"
export ATENRT_CONVERTER_CASES_DIR="$FIXTURES/converter_cases"
export ATENRT_CONVERTER_CASES_ENGINE=1  # compare every converter case on the optimized engine too
export ATENRT_LOWERING_CASES_DIR="$FIXTURES/lowering_cases"
export ATENRT_CLI="$ROOT/build/atenrt"
export ATENRT_REQUIRE_FIXTURES=1  # a C++ test whose fixture is missing fails instead of skipping

step "python tests: exporter, benchmark table"
$PY -m unittest discover -s tests/tools

step "C++ tests (release), the fuzz corpora replayed among them"
ctest --test-dir build --output-on-failure -j2 --timeout 1500

step "python tests: the atenrt command line"
$PY -m unittest discover -s tests/cli

step "hostile resources: bombs, lying sizes, absurd shapes, deep JSON through the CLI, under ulimit -v"
# The release build (ASan's shadow memory needs far more address space), under
# a 4 GiB address-space limit. The per-file timeout only detects hangs (each
# file ends in well under a second); docs/limits.md lists the limits.
$PY tests/corpus/resources/make_resources.py --large "$ROOT/build/resources-large"
$PY tests/corpus/resources/run_resources.py build/atenrt tests/corpus/resources/small \
  "$ROOT/build/resources-large" --memory-mb 4096 --timeout 120

step "OpInfo subset: PyTorch's op_db samples through atenrt (float32, the first samples of every op)"
# The full run (every sample and dtype, regenerating docs/opinfo.md) is its own command; see
# tests/opinfo/run_opinfo.py.
ATENRT_PYTHON_MODULE_DIR="$ROOT/build/python" $PY tests/opinfo/run_opinfo.py --ci --jobs 2

step "packaging: cmake --install, examples/cpp, examples/c and examples/plugin against the installed copy, the .deb, pip install ."
tests/packaging/test_install.sh build
tests/packaging/test_deb.sh build
tests/packaging/test_python_package.sh build  # reuses the release build (a fresh one: no argument)
# apt install of the .deb on a fresh Debian 12 root: needs root, debootstrap and the
# Debian mirror (about 2 minutes), so only when asked.
if [[ -n "${ATENRT_TEST_FRESH_DEB:-}" ]]; then tests/packaging/test_deb_fresh.sh build; fi

step "model tests: torchvision families and transformer blocks vs PyTorch, fp32 and bf16"
$PY tests/models/make_models.py "$FIXTURES/e2e_models"
ATENRT_MODELS_DIR="$FIXTURES/e2e_models" $PY -m unittest discover -s tests/models -t .

step "C++ tests and the fuzz corpora's replays under AddressSanitizer + UndefinedBehaviorSanitizer"
scripts/build.sh asan
asan_env=(env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1)
# python_runtime (tests/python against build-asan's module, ASan preloaded into
# the interpreter, leak checks off: python/bindings/CMakeLists.txt) is --full's.
asan_skip=(-E '^python_runtime$')
if ((full)); then asan_skip=(); fi
"${asan_env[@]}" ctest --test-dir build-asan --output-on-failure -j2 --timeout 1500 "${asan_skip[@]}"

step "every dependency the builds used is installed by scripts/install_deps.sh"
$PY scripts/check_deps.py build build-asan
# The check can fail: without OpenCL's dev package (which Debian's oneDNN CMake
# config needs) it must name that package.
without_ocl=$(scripts/install_deps.sh --list | grep -vx ocl-icd-opencl-dev | paste -sd,)
if $PY scripts/check_deps.py --packages "$without_ocl" build >/dev/null 2>build/check_deps_negative.txt; then
  echo "check_deps: accepted an install list without ocl-icd-opencl-dev" >&2
  exit 1
fi
grep "package 'ocl-icd-opencl-dev' is needed" build/check_deps_negative.txt

if ((!full)); then
  step "CI's subset passed (scripts/test.sh --full runs the sanitizer, ThreadSanitizer and fuzzing stages too)"
  exit 0
fi

step "the command line and five models under AddressSanitizer + UndefinedBehaviorSanitizer"
# The CLI tests and a model subset that covers oneDNN, own and reference kernels,
# bf16 and attention (ATENRT_ASAN_MODELS= runs every model instrumented: hours).
ATENRT_CLI="$ROOT/build-asan/atenrt" "${asan_env[@]}" $PY -m unittest discover -s tests/cli
"${asan_env[@]}" ATENRT_CLI="$ROOT/build-asan/atenrt" ATENRT_MODELS_DIR="$FIXTURES/e2e_models" \
  ATENRT_MODELS_ONLY="${ATENRT_ASAN_MODELS-squeezenet1_0,shufflenet_v2_x0_5,mobilenet_v3_small,bert_encoder,gpt_decoder}" \
  $PY -m unittest discover -s tests/models -t .

step "threading tests under ThreadSanitizer (one OpenMP thread)"
# Builds only the two test programs that hold the threading tests. Debian's
# oneDNN and libgomp are not instrumented; docs/sanitizers.md says what TSan
# sees here and what it cannot. A renamed test must not leave the step empty.
scripts/build.sh tsan
TSAN_TESTS='Threads\.ContextsOnShared|Api\.ThreadsSharing|DynamicShapes\.ContextsOnThreads'
tsan_count=$(ctest --test-dir build-tsan -N -R "$TSAN_TESTS" | sed -n 's/^Total Tests: //p')
if [ "$tsan_count" != 3 ]; then
  echo "ThreadSanitizer step: expected 3 threading tests matching '$TSAN_TESTS', found ${tsan_count:-none}" >&2
  exit 1
fi
OMP_NUM_THREADS=1 TSAN_OPTIONS="suppressions=$ROOT/tests/tsan.supp:second_deadlock_stack=1" \
  ctest --test-dir build-tsan -R "$TSAN_TESTS" --no-tests=error --output-on-failure --timeout 900

step "fuzzing the .pt2 reader, the engine-file loader and the pipeline (fixed seed and runs)"
scripts/build.sh fuzz
# Each work corpus starts empty so the walk is the same on every machine.
rm -rf build-fuzz/*_fuzz-work
scripts/fuzz.sh --ci

step "every dependency the ThreadSanitizer and fuzz builds used is installed by scripts/install_deps.sh"
$PY scripts/check_deps.py build-tsan build-fuzz

step "all tests passed"
