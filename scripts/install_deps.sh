#!/usr/bin/env bash
# Installs everything atenrt needs to build and test, from Debian's packages.
# Safe to run again: apt-get skips what is already installed. `--list` prints the list.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config git
  # GCC's own headers and libraries the builds resolve (libgomp, the intrinsics
  # headers): named, not left to build-essential's dependencies.
  libgcc-12-dev
  # Debian's oneDNN CMake config calls find_package(OpenCL REQUIRED): its dev package.
  libdnnl-dev ocl-icd-opencl-dev nlohmann-json3-dev libzip-dev libcli11-dev
  # LAPACK (and the BLAS it needs) for the linear-algebra layers: Debian's reference
  # liblapack3, the one python3-torch links, so results and gauges match PyTorch's.
  liblapack-dev
  libgtest-dev libgmock-dev googletest libbenchmark-dev pybind11-dev
  clang libclang-rt-14-dev
  # The libtorch fallback plugin (libatenrt_torch.so, plugins/torch).
  libtorch-dev
  python3 python3-numpy python3-torch python3-torchvision python3-sklearn python3-matplotlib
  # SciPy: the float64 reference where torch 1.13's own kernel is the inaccurate one
  # (tests/opinfo/check.py ACCURATE_FLOAT64).
  python3-scipy
  # Packaging (docs/packaging.md): dpkg-shlibdeps and file (CPack's DEB generator) for the
  # .deb; pip install . into a venv.
  dpkg-dev file python3-dev python3-venv python3-pip python3-setuptools python3-wheel
)

# --list prints the list (scripts/check_deps.py proves it covers what the builds use).
if [[ "${1:-}" == "--list" ]]; then
  printf '%s\n' "${PACKAGES[@]}"
  exit 0
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [[ $(id -u) -eq 0 ]] || SUDO="sudo"
  echo "atenrt: installing ${missing[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
