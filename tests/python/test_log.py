#!/usr/bin/python3
"""atenrt.set_log_callback: the library's messages reach a Python callable (from the threads that
compile, with the GIL released), levels below min_level are not made, a callback that raises does
not break the call that logged, None silences and reset_log_callback restores the default."""
import os
import sys
import threading
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from native import NATIVE_MISSING, atenrt  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
PROGRAM = os.path.join(ROOT, "tests", "corpus", "valid", "program_raw.pt2")


@unittest.skipIf(NATIVE_MISSING and not os.environ.get("ATENRT_REQUIRE_PYTHON_MODULE"), f"{NATIVE_MISSING}")
class LogCallbackTest(unittest.TestCase):
    def tearDown(self):
        atenrt.reset_log_callback()

    def test_messages_reach_the_callback_from_compiling_threads(self):
        got = []
        atenrt.set_log_callback(lambda level, message: got.append((level, message, threading.get_ident())))
        threads = [threading.Thread(target=atenrt.compile, args=(PROGRAM,)) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        compiled = [g for g in got if g[0] == "info" and g[1].startswith("compiled " + PROGRAM)]
        self.assertEqual(len(compiled), 2, got)
        self.assertEqual({g[2] for g in compiled}, {t.ident for t in threads})

    def test_min_level_filters(self):
        got = []
        atenrt.set_log_callback(lambda level, message: got.append(level), min_level="warning")
        atenrt.compile(PROGRAM)
        self.assertNotIn("info", got)
        with self.assertRaisesRegex(atenrt.SettingsError, "min_level must be one of debug, info, warning, error"):
            atenrt.set_log_callback(print, min_level="loud")
        with self.assertRaises(TypeError):
            atenrt.set_log_callback("not callable")

    def test_a_raising_callback_does_not_break_the_call(self):
        def broken(level, message):
            raise RuntimeError("callback bug")
        atenrt.set_log_callback(broken)
        hooked = []
        old_hook = sys.unraisablehook
        sys.unraisablehook = lambda u: hooked.append(str(u.exc_value))
        try:
            engine = atenrt.compile(PROGRAM)
        finally:
            sys.unraisablehook = old_hook
        self.assertEqual(len(engine.inputs), 1)
        self.assertIn("callback bug", hooked)

    def test_none_silences_and_reset_replaces_the_callback(self):
        got = []
        atenrt.set_log_callback(lambda level, message: got.append(message))
        atenrt.compile(PROGRAM)
        self.assertTrue(got)
        got.clear()
        atenrt.set_log_callback(None)
        atenrt.compile(PROGRAM)
        self.assertEqual(got, [])
        atenrt.set_log_callback(lambda level, message: got.append(message))
        atenrt.reset_log_callback()
        atenrt.compile(PROGRAM)
        self.assertEqual(got, [])

if __name__ == "__main__":
    unittest.main()
