#!/usr/bin/env bash
# `pip install .` into a scratch virtual environment (Debian's pip and setuptools,
# no index, no build isolation), then atenrt used from outside the checkout with
# no PYTHONPATH: import, version, metadata, a compile and run through the Python
# API, and the command line through `python -m atenrt` and the `atenrt` script.
# Usage: tests/packaging/test_python_package.sh [BUILD_DIR]
#   BUILD_DIR (optional): reuse this configured build tree (ATENRT_CMAKE_BUILD_DIR)
#   instead of a fresh CMake build in build-python/.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$PWD"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
fail() { echo "test_python_package: $*" >&2; exit 1; }
unset PYTHONPATH ATENRT_PYTHON_MODULE_DIR ATENRT_CLI
if [[ -n "${1:-}" ]]; then export ATENRT_CMAKE_BUILD_DIR="$(cd "$1" && pwd)"; fi

version=$(sed -n 's/^project(atenrt VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
/usr/bin/python3 -m venv --system-site-packages "$WORK/env"
"$WORK/env/bin/python" -m pip install --no-build-isolation --no-index -q . >"$WORK/pip.log" 2>&1 ||
  { tail -40 "$WORK/pip.log"; fail "pip install failed"; }

cd "$WORK"  # away from the checkout: only the installed package can be imported
PY="$WORK/env/bin/python"
"$PY" - "$version" "$ROOT/tests/corpus/valid/program_raw.pt2" <<'PYEOF'
import sys, importlib.metadata, numpy as np
import atenrt
version, program = sys.argv[1], sys.argv[2]
assert "/env/" in atenrt.__file__, atenrt.__file__
assert atenrt.__version__ == version, (atenrt.__version__, version)
meta = importlib.metadata.metadata("atenrt")
assert meta["Version"] == version and "Apache-2.0" in (meta["License"] or ""), dict(meta)
engine = atenrt.compile(program)
add_1, index = engine(np.ones((2, 4), dtype=np.float32))
assert add_1.tolist() == [40.0, 44.0] and index.tolist() == [[115.0, 106.0]] * 2, (add_1, index)
print("python package: import, version, metadata, compile and run ok")
PYEOF
# Each native file once (a wheel turns symbolic links into copies), and the libtorch
# fallback, when the build made it, found by the module and by the command line.
pkg=$("$PY" -c 'import atenrt, os; print(os.path.dirname(atenrt.__file__))')
dups=$(find "$pkg" -name '*.so*' -type f -exec sha256sum {} + | sort | uniq -w64 -D)
[[ -z "$dups" ]] || fail "files carried twice: $dups"
build_dir="${ATENRT_CMAKE_BUILD_DIR:-$ROOT/build-python}"
if [[ -f "$build_dir/libatenrt_torch.so" ]]; then
  "$PY" -c 'import atenrt; print(atenrt.build_info()["options"][-1])' | grep "^fallback executor on ($pkg/_native/lib/libatenrt_torch.so" >/dev/null ||
    fail "the module does not find its libtorch fallback: $("$PY" -c 'import atenrt; print(atenrt.build_info())')"
  "$PY" -m atenrt --version | grep "fallback executor on ($pkg/_native/lib/libatenrt_torch.so" >/dev/null ||
    fail "the command line does not find its libtorch fallback: $("$PY" -m atenrt --version)"
  echo "python package: each file once, libtorch fallback found by the module and the command line"
fi
# A converter plugin (built against the headers alone) loads into the installed module.
if [[ -f "$build_dir/tests/plugins/liboverride_test.so" ]]; then
  "$PY" -c 'import atenrt, sys; p = atenrt.load_plugin(sys.argv[1]); assert p["converters"] == 2, p' \
    "$build_dir/tests/plugins/liboverride_test.so" || fail "atenrt.load_plugin in the installed package"
  echo "python package: atenrt.load_plugin ok"
fi
"$PY" -m atenrt --version | sed -n 1p | grep -x "atenrt $version" >/dev/null || fail "python -m atenrt --version"
"$WORK/env/bin/atenrt" --version | sed -n 1p | grep -x "atenrt $version" >/dev/null || fail "the atenrt script"
"$PY" -m atenrt compile "$ROOT/tests/corpus/bad/truncated_half.pt2" -o x.atrt 2>err.txt && fail "a bad archive compiled"
grep -q "atenrt: error: .*not a valid zip archive" err.txt || fail "python -m atenrt: $(cat err.txt)"
echo "python -m atenrt and the atenrt script: ok"
