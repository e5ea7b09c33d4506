#!/usr/bin/env bash
# Builds the Debian package from a configured, built tree (CPack), then checks
# its name, metadata (Depends worked out by dpkg-shlibdeps), its file list and
# that the program runs from a copy extracted into a scratch root.
# Usage: tests/packaging/test_deb.sh [BUILD_DIR]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD="$(cd "${1:-build}" && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
fail() { echo "test_deb: $*" >&2; exit 1; }

version=$(sed -n 's/^project(atenrt VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
arch=$(dpkg --print-architecture)
deb="$BUILD/atenrt_${version}_${arch}.deb"
rm -f "$deb"
(cd "$BUILD" && cpack -G DEB >"$WORK/cpack.log" 2>&1) || { cat "$WORK/cpack.log"; fail "cpack failed"; }
[[ -f "$deb" ]] || fail "cpack made no $deb: $(ls "$BUILD"/*.deb 2>/dev/null)"

dpkg-deb -I "$deb" >"$WORK/info"
field() { sed -n "s/^ $1: //p" "$WORK/info"; }
[[ $(field Package) == atenrt ]] || fail "Package: $(field Package)"
[[ $(field Version) == "$version" ]] || fail "Version: $(field Version), want $version"
[[ $(field Architecture) == "$arch" ]] || fail "Architecture: $(field Architecture)"
depends=$(field Depends)
# What the library loads (ldd), each as the Debian package that holds it.
ldd "$BUILD/lib/libatenrt.so" | awk '/=> \// {print $3}' >"$WORK/loaded"
for lib in libdnnl.so libzip.so liblapack.so libstdc++.so libc.so.6; do
  path=$(awk -v l="/$lib" '!found && index($0, l) {print; found = 1}' "$WORK/loaded")
  [[ -n "$path" ]] || fail "libatenrt.so does not load $lib"
  if [[ $lib == liblapack.so ]]; then
    # liblapack.so.3 is a Debian alternative (reference LAPACK or OpenBLAS): any provider will do.
    [[ $depends == *liblapack3* || $depends == *liblapack.so.3* ]] || fail "Depends lacks a LAPACK: $depends"
    continue
  fi
  # dpkg may record the /lib or the /usr/lib spelling (merged /usr): search by file name.
  owner=$( (dpkg -S "*/$(basename "$(readlink -f "$path")")" 2>/dev/null || true) | grep -v -e i386 -e lib32 | sed -n 1p |
          cut -d: -f1)
  [[ -n "$owner" ]] || fail "no package owns $path"
  [[ ", $depends," == *", $owner "* || ", $depends," == *", $owner,"* ]] ||
    fail "Depends lacks $owner (for $lib): $depends"
done

dpkg-deb -c "$deb" | awk '{print $6}' >"$WORK/files"
for f in ./usr/bin/atenrt "./usr/lib/libatenrt.so.$version" ./usr/include/atenrt/atenrt.h \
         ./usr/include/atenrt/atenrt_c.h ./usr/lib/cmake/atenrt/atenrtConfig.cmake ./usr/lib/pkgconfig/atenrt.pc \
         ./usr/share/doc/atenrt/LICENSE; do
  grep -qxF "$f" "$WORK/files" || fail "$f is not in the package"
done
! grep -E '_tests$|_bench$|\.a$' "$WORK/files" || fail "test or benchmark files in the package"

# Installed into a scratch root (extracted), the program runs and knows its version.
dpkg-deb -x "$deb" "$WORK/root"
"$WORK/root/usr/bin/atenrt" --version | sed -n 1p | grep -x "atenrt $version" >/dev/null || fail "extracted atenrt --version"
ldd "$WORK/root/usr/bin/atenrt" | grep "libatenrt.so.* => $WORK/root/usr/" >/dev/null || fail "extracted atenrt loads another library"
echo "$(basename "$deb"): Depends: $depends"
