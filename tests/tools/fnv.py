"""FNV-1a 64-bit hash (offset basis 0xcbf29ce484222325, prime 0x100000001b3) of a byte string.

Pure Python needs ~0.6 s per MB, too slow for resnet-sized fixtures, so a 10-line C version is
compiled with the system C compiler on first use (cached in the temp folder); without a compiler
the pure-Python loop is used.
"""
import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile

_OFFSET = 0xcbf29ce484222325
_PRIME = 0x100000001b3
_MASK = (1 << 64) - 1
_C_SOURCE = b"""
#include <stddef.h>
#include <stdint.h>
uint64_t atenrt_fnv1a64(const unsigned char* p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; ++i) { h ^= p[i]; h *= 0x100000001b3ULL; }
    return h;
}
"""
_lib = None


def _load_c():
    global _lib
    if _lib is not None:
        return _lib or None
    _lib = False
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        return None
    tag = hashlib.sha1(_C_SOURCE).hexdigest()[:12]
    so = os.path.join(tempfile.gettempdir(), f"atenrt_fnv_{os.getuid()}_{tag}.so")
    try:
        if not os.path.exists(so):
            with tempfile.TemporaryDirectory() as tmp:
                src = os.path.join(tmp, "fnv.c")
                with open(src, "wb") as f:
                    f.write(_C_SOURCE)
                out = os.path.join(tmp, "fnv.so")
                subprocess.run([cc, "-O2", "-shared", "-fPIC", src, "-o", out], check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                os.replace(out, so)
        lib = ctypes.CDLL(so)
        lib.atenrt_fnv1a64.restype = ctypes.c_uint64
        lib.atenrt_fnv1a64.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
        _lib = lib
    except (OSError, subprocess.CalledProcessError):
        return None
    return _lib


def fnv1a64_python(data):
    h = _OFFSET
    for b in data:
        h = ((h ^ b) * _PRIME) & _MASK
    return h


def fnv1a64(data):
    """Hash of `data` (bytes) as an int."""
    lib = _load_c()
    if lib is None:
        return fnv1a64_python(data)
    return lib.atenrt_fnv1a64(data, len(data))


def fnv1a64_hex(data):
    return f"{fnv1a64(data):016x}"
