#!/usr/bin/python3
"""The Python examples of docs/python.md and README.md, run as written (in a scratch folder, each
file's blocks in order in one namespace), so the documentation cannot drift from the API."""
import contextlib
import io
import os
import re
import sys
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python"))
from atenrt import runtime  # noqa: E402

try:
    runtime._load_native()
    NATIVE_MISSING = None
except ImportError as e:
    NATIVE_MISSING = str(e)

try:
    import torch  # noqa: F401
    import torchvision  # noqa: F401
    TORCH_MISSING = None
except ImportError as e:
    TORCH_MISSING = str(e)


def python_blocks(path):
    with open(path, encoding="utf-8") as f:
        return re.findall(r"```python\n(.*?)```", f.read(), flags=re.S)


@unittest.skipIf(NATIVE_MISSING and not os.environ.get("ATENRT_REQUIRE_PYTHON_MODULE"), f"{NATIVE_MISSING}")
@unittest.skipIf(TORCH_MISSING, f"the examples use torch and torchvision: {TORCH_MISSING}")
class DocsTest(unittest.TestCase):
    def run_examples(self, name):
        blocks = python_blocks(os.path.join(ROOT, name))
        self.assertTrue(blocks, f"{name} has no python examples")
        namespace = {"__name__": "__docs__"}
        cwd = os.getcwd()
        with tempfile.TemporaryDirectory(prefix="atenrt_docs_") as folder:
            os.chdir(folder)
            try:
                for i, code in enumerate(blocks):
                    with self.subTest(block=i), contextlib.redirect_stdout(io.StringIO()):
                        exec(compile(code, f"{name} block {i}", "exec"), namespace)
            finally:
                os.chdir(cwd)

    def test_python_md(self):
        self.run_examples("docs/python.md")

    def test_readme(self):
        self.run_examples("README.md")


if __name__ == "__main__":
    unittest.main()
