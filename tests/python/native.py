"""What the tests in this folder start from: atenrt imported from this checkout's python/,
and its compiled module loaded, or the reason it could not be (NATIVE_MISSING, for skips)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import atenrt  # noqa: E402,F401
from atenrt import runtime  # noqa: E402

try:
    runtime._load_native()
    NATIVE_MISSING = None
except ImportError as e:
    NATIVE_MISSING = str(e)
