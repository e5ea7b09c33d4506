#!/usr/bin/env bash
# `apt install ./atenrt_<version>_amd64.deb` on a fresh Debian 12: a minimal
# bookworm root made with debootstrap, the package installed there by apt (which
# fetches its Depends from the Debian archive), then the program run inside it:
# --version, and a compile and run of a small archive.
# Needs root, debootstrap and the Debian mirror (network), so scripts/test.sh does
# not run it; run it by hand or in a CI job that has them.
# Usage: sudo tests/packaging/test_deb_fresh.sh [BUILD_DIR] [MIRROR]
#   (default: build, http://deb.debian.org/debian)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$PWD"
BUILD="$(cd "${1:-build}" && pwd)"
MIRROR="${2:-http://deb.debian.org/debian}"
WORK="$(mktemp -d)"
FRESH="$WORK/root"
cleanup() {
  umount "$FRESH/proc" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "test_deb_fresh: $*" >&2; exit 1; }
[[ $(id -u) == 0 ]] || fail "needs root (debootstrap, chroot)"
command -v debootstrap >/dev/null || fail "needs debootstrap (apt-get install debootstrap)"

version=$(sed -n 's/^project(atenrt VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
deb="atenrt_${version}_$(dpkg --print-architecture).deb"
rm -f "$BUILD/$deb"
(cd "$BUILD" && cpack -G DEB >"$WORK/cpack.log" 2>&1) || { cat "$WORK/cpack.log"; fail "cpack failed"; }

debootstrap --variant=minbase bookworm "$FRESH" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 ||
  { tail -20 "$WORK/debootstrap.log"; fail "debootstrap failed"; }
# Nothing of atenrt's dependencies is there yet: apt has to bring them.
! chroot "$FRESH" dpkg -s libdnnl2 >/dev/null 2>&1 || fail "the fresh root already has libdnnl2"
cp /etc/resolv.conf "$FRESH/etc/resolv.conf"
mount -t proc proc "$FRESH/proc"
cp "$BUILD/$deb" "$FRESH/tmp/"
cp "$ROOT/tests/corpus/valid/program_raw.pt2" "$FRESH/tmp/"
chroot "$FRESH" apt-get update >"$WORK/apt.log" 2>&1 || { cat "$WORK/apt.log"; fail "apt-get update"; }
chroot "$FRESH" sh -c "cd /tmp && DEBIAN_FRONTEND=noninteractive apt-get install -y ./$deb" >>"$WORK/apt.log" 2>&1 ||
  { tail -30 "$WORK/apt.log"; fail "apt install ./$deb failed"; }
chroot "$FRESH" dpkg -s libdnnl2 libzip4 liblapack3 >/dev/null || fail "apt did not install the Depends"
chroot "$FRESH" atenrt --version | sed -n 1p | grep -x "atenrt $version" >/dev/null || fail "atenrt --version in the fresh root"
chroot "$FRESH" atenrt compile /tmp/program_raw.pt2 -o /tmp/program.atrt >/dev/null || fail "compile in the fresh root"
/usr/bin/python3 -c "import numpy as np, sys; np.savez(sys.argv[1], np.ones((2, 4), np.float32))" "$FRESH/tmp/in.npz"
chroot "$FRESH" atenrt run /tmp/program.atrt --inputs /tmp/in.npz --outputs /tmp/out.npz >/dev/null ||
  fail "run in the fresh root"
/usr/bin/python3 - "$FRESH/tmp/out.npz" <<'PYEOF' || fail "wrong results in the fresh root"
import sys, numpy as np
out = np.load(sys.argv[1])
add_1, index = (out[name] for name in out.files)
assert add_1.tolist() == [40.0, 44.0] and index.tolist() == [[115.0, 106.0]] * 2, (add_1, index)
PYEOF
installed=$(sed -n 's/^Setting up \([^ :]*\).*/\1/p' "$WORK/apt.log" | tr '\n' ' ')
echo "apt install ./$deb on a fresh Debian 12 (debootstrap minbase): ok, set up: $installed"
echo "atenrt --version, compile, run (results checked) and inspect in that root: ok"
