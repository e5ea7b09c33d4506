#!/usr/bin/env bash
# Installs atenrt from a build tree into a temporary prefix, checks what was
# installed, then builds examples/cpp (find_package) and examples/c
# (find_package, and pkg-config) against that prefix -- never the build tree --
# and runs both on an engine the installed CLI compiled.
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
libdir=$(cd "$P" && dirname "$(find . -name "libatenrt.so.$version" | head -1)")
libdir=${libdir#./}
[[ $libdir != . ]] || fail "libatenrt.so.$version not installed"
for f in bin/atenrt "$libdir/libatenrt.so.$version" "$libdir/libatenrt.so.$soversion" "$libdir/libatenrt.so" \
         include/atenrt/atenrt.h include/atenrt/atenrt_c.h include/atenrt/log.h include/atenrt/export.h \
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
ldd "$P/bin/atenrt" | grep -q "libatenrt.so.$soversion => $P/" || fail "bin/atenrt does not load $P's library"
"$P/bin/atenrt" --version | head -1 | grep -qx "atenrt $version" || fail "atenrt --version is not $version"
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

# pkg-config, from a prefix moved elsewhere (atenrt.pc finds itself).
mv "$P" "$WORK/moved"
P="$WORK/moved"
PKG_CONFIG_PATH="$P/$libdir/pkgconfig" pkg-config --modversion atenrt | grep -qx "$version" || fail "pkg-config version"
cc examples/c/run_engine.c $(PKG_CONFIG_PATH="$P/$libdir/pkgconfig" pkg-config --cflags --libs atenrt) \
   -o "$WORK/run_engine_pc"
out=$(LD_LIBRARY_PATH="$P/$libdir" "$WORK/run_engine_pc" "$WORK/program.atrt" 2>/dev/null)
[[ "$out" == "$expected" ]] || fail "examples/c through pkg-config printed:"$'\n'"$out"
echo "install tree, examples/cpp, examples/c (CMake and pkg-config): ok ($P)"
