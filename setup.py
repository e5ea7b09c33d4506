"""Builds the Python package `atenrt` with CMake (pyproject.toml holds the metadata).

The compiled module `atenrt/_atenrt*.so` and the command line (`atenrt/_native/bin/atenrt`
with its `libatenrt.so`, run by `python -m atenrt`) come from one CMake build:

  * a fresh build in `build-python/` (Release, no tests or benchmarks), or
  * an existing, configured build tree named by ATENRT_CMAKE_BUILD_DIR (CI reuses its release
    build this way; it is only built, never reconfigured).

The version is the CMake project version (CMakeLists.txt), the one place it is set.
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def cmake_version():
    text = (ROOT / "CMakeLists.txt").read_text()
    match = re.search(r"^project\(atenrt VERSION ([0-9.]+)", text, re.M)
    if not match:
        raise RuntimeError("CMakeLists.txt: no `project(atenrt VERSION x.y.z` line")
    return match.group(1)


class CMakeBuild(build_ext):
    """Builds the `_atenrt` extension and the CLI with CMake instead of compiling sources itself."""

    def build_extension(self, ext):
        jobs = os.environ.get("ATENRT_JOBS") or str(os.cpu_count() or 1)
        given = os.environ.get("ATENRT_CMAKE_BUILD_DIR")
        build = Path(given).resolve() if given else ROOT / "build-python"
        if given and not (build / "CMakeCache.txt").exists():
            raise RuntimeError(f"ATENRT_CMAKE_BUILD_DIR={given} is not a configured CMake build tree")
        if not given:
            self._run(["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                       "-DATENRT_TESTS=OFF", "-DATENRT_BENCH=OFF", "-DATENRT_PYTHON=ON",
                       "-DCMAKE_INSTALL_LIBDIR=lib",
                       f"-DPython3_EXECUTABLE={sys.executable}"])
        self._run(["cmake", "--build", str(build), "-j", jobs])

        # The compiled module, where the package imports it from (atenrt._atenrt).
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        modules = sorted((build / "python").glob("_atenrt.*.so"))
        if len(modules) != 1:
            raise RuntimeError(f"expected one _atenrt module in {build / 'python'}, found {modules}")
        shutil.copyfile(modules[0], target)

        # The command line and its library (CMake's runtime component; the CLI finds
        # the library through its $ORIGIN/../lib run path).
        native = target.parent / "_native"
        shutil.rmtree(native, ignore_errors=True)
        self._run(["cmake", "--install", str(build), "--component", "runtime", "--prefix", str(native)])
        # The libtorch fallback, when this build has it, beside the library: the command line
        # finds it there, and the compiled module looks in _native/lib beside itself.
        (target.parent / "libatenrt_torch.so").unlink(missing_ok=True)  # where older versions put a copy
        if list(build.glob("libatenrt_torch.so")):
            self._run(["cmake", "--install", str(build), "--component", "torch", "--prefix", str(native)])
        self._keep_one_library_file(native / "lib")
        if not (native / "bin" / "atenrt").exists():
            raise RuntimeError(f"{native}/bin/atenrt was not installed (CMAKE_INSTALL_LIBDIR must be lib)")
        shutil.rmtree(native / "share", ignore_errors=True)  # LICENSE is in the metadata already

    @staticmethod
    def _keep_one_library_file(lib):
        """A wheel stores symbolic links as copies: keep the library once, under its soname
        (libatenrt.so.0.1, what the command line asks for), instead of twice."""
        for link in sorted(lib.glob("libatenrt.so*")):
            if link.is_symlink():
                real = link.resolve()
                link.unlink()
                if real.exists():
                    real.rename(link)

    def _run(self, command):
        print(" ".join(command), flush=True)
        subprocess.run(command, check=True, cwd=ROOT)


setup(
    version=cmake_version(),
    ext_modules=[Extension("atenrt._atenrt", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
