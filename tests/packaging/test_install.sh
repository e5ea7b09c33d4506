#!/usr/bin/env bash
# Installs atenrt from a build tree into a temporary prefix, checks what was
# installed, then builds examples/cpp (find_package) and examples/c
# (find_package, and pkg-config) against that prefix -- never the build tree --
# and runs both on an engine the installed CLI compiled; builds examples/plugin
# there too and runs its converter through the installed CLI (--plugin,
# ATENRT_PLUGINS) and the build's Python module (atenrt.load_plugin), checked
# against PyTorch: the converter plugin, and the kernel plugin whose engine
# files need it loaded (refused, naming it, where it is not).
# Usage: tests/packaging/test_install.sh [BUILD_DIR]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$PWD"
BUILD="$(cd "${1:-build}" && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
P="$WORK/prefix"
fail() { echo "test_install: $*" >&2; exit 1; }

version=$(sed -n 's/^project(atenrt VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
[[ -n "$version" ]] || fail "no project version in CMakeLists.txt"
IFS=. read -r major minor _ <<<"$version"
soversion=$major
[[ $major == 0 ]] && soversion=$major.$minor

cmake --install "$BUILD" --prefix "$P" >/dev/null
libdir=$(cd "$P" && dirname "$(find . -name "libatenrt.so.$version" -print -quit)")
libdir=${libdir#./}
[[ $libdir != . ]] || fail "libatenrt.so.$version not installed"
for f in bin/atenrt "$libdir/libatenrt.so.$version" "$libdir/libatenrt.so.$soversion" "$libdir/libatenrt.so" \
         include/atenrt/atenrt.h include/atenrt/atenrt_c.h include/atenrt/log.h include/atenrt/export.h \
         include/atenrt/extension.h include/atenrt/plugin_layer.h \
         include/atenrt/version.h "$libdir/cmake/atenrt/atenrtConfig.cmake" \
         "$libdir/cmake/atenrt/atenrtConfigVersion.cmake" "$libdir/cmake/atenrt/atenrtTargets.cmake" \
         "$libdir/pkgconfig/atenrt.pc" share/doc/atenrt/LICENSE; do
  [[ -e "$P/$f" ]] || fail "$f not installed"
done
# Nothing of the build's internals: only the public headers, no room libraries.
extra=$(cd "$P" && find . -type f | grep -v -e '^./include/atenrt/[a-z_]*\.h$' -e "^./$libdir/" -e '^./bin/atenrt$' \
        -e '^./share/doc/atenrt/' || true)
[[ -z "$extra" ]] || fail "unexpected files installed: $extra"
[[ $(readlink "$P/$libdir/libatenrt.so") == "libatenrt.so.$soversion" ]] || fail "libatenrt.so is not the namelink"
grep -q "#define ATENRT_VERSION_STRING \"$version\"" "$P/include/atenrt/version.h" || fail "version.h disagrees"

# The installed CLI runs from the installed library, and says the version.
ldd "$P/bin/atenrt" | grep "libatenrt.so.$soversion => $P/" >/dev/null || fail "bin/atenrt does not load $P's library"
"$P/bin/atenrt" --version | sed -n 1p | grep -x "atenrt $version" >/dev/null || fail "atenrt --version is not $version"
"$P/bin/atenrt" compile tests/corpus/valid/program_raw.pt2 -o "$WORK/program.atrt" >/dev/null

# The examples, against the installed package only (the build tree is not on
# any search path; CMake's package registry is off).
expected=$'add_1: float32[2]: 40 44\nindex: float32[2, 2]: 115 106 115 106'
build_example() {  # SOURCE_DIR BUILD_DIR
  cmake -S "$1" -B "$2" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
        -DCMAKE_BUILD_TYPE=Release >"$2.log" 2>&1 || { cat "$2.log"; fail "configuring $1 failed"; }
  grep -q "$P" "$2/CMakeCache.txt" || fail "$1 did not find atenrt in $P"
  ! grep -q "$BUILD" "$2/CMakeCache.txt" || fail "$1 found the build tree"
  cmake --build "$2" >>"$2.log" 2>&1 || { cat "$2.log"; fail "building $1 failed"; }
}
build_example examples/cpp "$WORK/cpp"
out=$("$WORK/cpp/run_engine" "$WORK/program.atrt" 2>"$WORK/cpp.err")
[[ "$out" == "$expected" ]] || fail "examples/cpp printed:"$'\n'"$out"
grep -q '^\[atenrt info\] loaded ' "$WORK/cpp.err" || fail "examples/cpp: no log message through the callback"
build_example examples/c "$WORK/c"
out=$("$WORK/c/run_engine_c" "$WORK/program.atrt" 2>/dev/null)
[[ "$out" == "$expected" ]] || fail "examples/c printed:"$'\n'"$out"

# examples/plugin: a converter for aten.renorm.default (overriding atenrt's own
# at High priority) built against the installed headers alone; it exports only
# its entry point and links no atenrt library.
build_example examples/plugin "$WORK/plugin"
PLUGIN="$WORK/plugin/librenorm_plugin.so"
exports=$(nm -D --defined-only "$PLUGIN" | awk '{print $3}')
[[ "$exports" == atenrt_plugin_descriptor ]] || fail "the plugin exports: $exports"
! ldd "$PLUGIN" | grep libatenrt >/dev/null || fail "the plugin links libatenrt"
CASE="$WORK/renorm"
mkdir -p "$CASE"
PY=/usr/bin/python3
PYTHONPATH="$ROOT/python" $PY tests/packaging/renorm_plugin_check.py export "$CASE" >/dev/null
"$P/bin/atenrt" --plugin "$PLUGIN" compile "$CASE/model.pt2" -o "$CASE/cli.atrt" --require-full-compilation >/dev/null
"$P/bin/atenrt" run "$CASE/cli.atrt" --inputs "$CASE/inputs.npz" --outputs "$CASE/cli.npz" >/dev/null
$PY tests/packaging/renorm_plugin_check.py compare "$CASE/cli.npz" "$CASE" >/dev/null || fail "--plugin: wrong results"
ATENRT_PLUGINS=":$PLUGIN:$PLUGIN" "$P/bin/atenrt" compile "$CASE/model.pt2" \
  -o "$CASE/env.atrt" --require-full-compilation >/dev/null || fail "ATENRT_PLUGINS did not load the plugin"
"$P/bin/atenrt" ops --family renorm_example --plugin "$PLUGIN" | grep "^aten.renorm.default " >/dev/null ||
  fail "atenrt ops does not list the plugin's converter"
ls "$BUILD"/python/_atenrt*.so >/dev/null 2>&1 || fail "$BUILD has no Python module for atenrt.load_plugin"
ATENRT_PYTHON_MODULE_DIR="$BUILD/python" PYTHONPATH="$ROOT/python" \
  $PY tests/packaging/renorm_plugin_check.py python "$PLUGIN" "$CASE" >/dev/null || fail "atenrt.load_plugin"
# Errors name the plugin file and exit 2 (a bad --plugin or ATENRT_PLUGINS).
plugin_error() {  # EXPECTED_MESSAGE_PART COMMAND...
  local want="$1"; shift
  local rc=0
  "$@" >/dev/null 2>"$WORK/plugin.err" || rc=$?
  [[ $rc == 2 ]] && grep -qF "$want" "$WORK/plugin.err" || fail "exit $rc, wanted 2 and '$want': $(cat "$WORK/plugin.err")"
}
plugin_error "atenrt: error: --plugin: plugin $WORK/none.so: no such file" "$P/bin/atenrt" --plugin "$WORK/none.so" ops
plugin_error "plugin $P/$libdir/libatenrt.so: not an atenrt plugin: it has no entry point atenrt_plugin_descriptor" \
  "$P/bin/atenrt" --plugin "$P/$libdir/libatenrt.so" ops
plugin_error "atenrt: error: ATENRT_PLUGINS: plugin $WORK/none.so: no such file" \
  env ATENRT_PLUGINS="$WORK/none.so" "$P/bin/atenrt" compile "$CASE/model.pt2" --dryrun
echo "examples/plugin against the installed package: CLI --plugin, ATENRT_PLUGINS, atenrt.load_plugin: ok"

# examples/plugin/cummax_plugin.cpp: a kernel for a layer kind atenrt lacks
# (torch.cummax/cummin as a plugin layer). Its engine file names the kernel:
# it runs where the plugin is loaded and is refused, naming it, where not.
KPLUGIN="$WORK/plugin/libcummax_plugin.so"
exports=$(nm -D --defined-only "$KPLUGIN" | awk '{print $3}')
[[ "$exports" == atenrt_plugin_descriptor ]] || fail "the kernel plugin exports: $exports"
! ldd "$KPLUGIN" | grep libatenrt >/dev/null || fail "the kernel plugin links libatenrt"
KCASE="$WORK/cummax"
mkdir -p "$KCASE"
PYTHONPATH="$ROOT/python" $PY tests/packaging/cummax_plugin_check.py export "$KCASE" >/dev/null
# atenrt converts cummax itself; with the plugin its High priority converter wins, so the engine
# needs the plugin (checked below).
"$P/bin/atenrt" --plugin "$KPLUGIN" compile "$KCASE/model.pt2" -o "$KCASE/cli.atrt" --require-full-compilation >/dev/null
"$P/bin/atenrt" run "$KCASE/cli.atrt" --inputs "$KCASE/inputs.npz" --outputs "$KCASE/cli.npz" --plugin "$KPLUGIN" >/dev/null
$PY tests/packaging/cummax_plugin_check.py compare "$KCASE/cli.npz" "$KCASE" >/dev/null || fail "cummax --plugin: wrong results"
ATENRT_PLUGINS="$KPLUGIN" "$P/bin/atenrt" run "$KCASE/cli.atrt" --inputs "$KCASE/inputs.npz" --outputs "$KCASE/env.npz" >/dev/null
$PY tests/packaging/cummax_plugin_check.py compare "$KCASE/env.npz" "$KCASE" >/dev/null || fail "cummax ATENRT_PLUGINS: wrong results"
rc=0
"$P/bin/atenrt" run "$KCASE/cli.atrt" --inputs "$KCASE/inputs.npz" --outputs "$KCASE/none.npz" >/dev/null 2>"$WORK/kernel.err" || rc=$?
[[ $rc == 1 ]] && grep -qF "layer '" "$WORK/kernel.err" && grep -qF "needs plugin 'cummax_example'" "$WORK/kernel.err" &&
  grep -qF -- "--plugin" "$WORK/kernel.err" || fail "an engine needing an unloaded plugin: exit $rc, $(cat "$WORK/kernel.err")"
[[ ! -e "$KCASE/none.npz" ]] || fail "an engine needing an unloaded plugin wrote outputs"
ATENRT_PYTHON_MODULE_DIR="$BUILD/python" PYTHONPATH="$ROOT/python" \
  $PY tests/packaging/cummax_plugin_check.py python "$KPLUGIN" "$KCASE" >/dev/null || fail "cummax: atenrt.load_plugin"
echo "examples/plugin kernel plugin: CLI --plugin, ATENRT_PLUGINS, Python, saved engines with and without it: ok"

# pkg-config, from a prefix moved elsewhere (atenrt.pc finds itself).
mv "$P" "$WORK/moved"
P="$WORK/moved"
PKG_CONFIG_PATH="$P/$libdir/pkgconfig" pkg-config --modversion atenrt | grep -x "$version" >/dev/null || fail "pkg-config version"
cc examples/c/run_engine.c $(PKG_CONFIG_PATH="$P/$libdir/pkgconfig" pkg-config --cflags --libs atenrt) \
   -o "$WORK/run_engine_pc"
out=$(LD_LIBRARY_PATH="$P/$libdir" "$WORK/run_engine_pc" "$WORK/program.atrt" 2>/dev/null)
[[ "$out" == "$expected" ]] || fail "examples/c through pkg-config printed:"$'\n'"$out"
echo "install tree, examples/cpp, examples/c (CMake and pkg-config): ok ($P)"
