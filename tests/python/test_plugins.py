#!/usr/bin/python3
"""atenrt.load_plugin from Python: the test plugins of tests/plugins (built into
<build>/tests/plugins) load into the compiled module, and a broken one raises atenrt.FormatError
naming the file. The example plugin is run end to end against PyTorch by tests/packaging/test_install.sh."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from native import NATIVE_MISSING, atenrt  # noqa: E402

MODULE_DIR = os.environ.get("ATENRT_PYTHON_MODULE_DIR", "")
PLUGINS = os.path.join(MODULE_DIR, "..", "tests", "plugins") if MODULE_DIR else ""


def plugin(name):
    return os.path.join(PLUGINS, f"lib{name}.so")


@unittest.skipIf(NATIVE_MISSING and not os.environ.get("ATENRT_REQUIRE_PYTHON_MODULE"), f"{NATIVE_MISSING}")
@unittest.skipUnless(PLUGINS and os.path.exists(plugin("override_test")),
                     "the test plugins are built with the C++ tests (<build>/tests/plugins)")
class PluginTest(unittest.TestCase):
    def test_load_plugin_adds_its_converters_once(self):
        info = atenrt.load_plugin(plugin("override_test"))
        self.assertEqual((info["name"], info["converters"]), ("override_test", 2))
        self.assertEqual(atenrt.load_plugin(plugin("override_test")), info)
        self.assertEqual([p["name"] for p in atenrt.loaded_plugins()].count("override_test"), 1)

    def test_a_kernel_plugin_reports_its_kernels(self):
        info = atenrt.load_plugin(plugin("kernel_test"))
        self.assertEqual((info["name"], info["converters"], info["kernels"]), ("kernel_test", 2, 2))
        self.assertEqual(atenrt.load_plugin(plugin("override_test"))["kernels"], 0)

    def test_broken_plugins_raise_naming_the_file(self):
        path = plugin("wrong_abi")
        with self.assertRaisesRegex(atenrt.FormatError, f"plugin {path}: built for atenrt extension ABI version"):
            atenrt.load_plugin(path)
        with self.assertRaisesRegex(atenrt.FormatError, "not an atenrt plugin: it has no entry point"):
            atenrt.load_plugin(plugin("no_entry"))
        with self.assertRaisesRegex(atenrt.FormatError, "no such file"):
            atenrt.load_plugin(plugin("not_built"))
        self.assertNotIn("wrong_abi", [p["name"] for p in atenrt.loaded_plugins()])


if __name__ == "__main__":
    unittest.main()
