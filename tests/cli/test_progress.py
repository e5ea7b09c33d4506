"""Progress lines: a compile that runs past the delay shows one on stderr only when stderr is a
terminal (a pty here) or ATENRT_PROGRESS=1 forces it; captured output never has one.
ATENRT_PROGRESS_DELAY_MS=0 stands in for a compile over a second.

Needs ATENRT_CLI and ATENRT_FIXTURES_DIR (scripts/test.sh sets both).
"""
import os
import pty
import subprocess
import unittest

CLI = os.environ.get("ATENRT_CLI")
FIXTURES = os.environ.get("ATENRT_FIXTURES_DIR")


@unittest.skipUnless(CLI and FIXTURES, "ATENRT_CLI and ATENRT_FIXTURES_DIR are not set (scripts/test.sh sets them)")
class ProgressTest(unittest.TestCase):
    def setUp(self):
        self.model = os.path.join(FIXTURES, "tiny_cnn.pt2.pt2")
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("ATENRT_PROGRESS")}

    def compile(self, **env):
        import tempfile
        with tempfile.TemporaryDirectory() as folder:
            return subprocess.run([CLI, "compile", self.model, "-o", os.path.join(folder, "m.atrt")],
                                  capture_output=True, text=True, env={**self.env, **env}, timeout=600)

    def test_captured_output_has_no_progress_line(self):
        r = self.compile(ATENRT_PROGRESS_DELAY_MS="0")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "")
        self.assertIn("compiling", self.compile(ATENRT_PROGRESS_DELAY_MS="0", ATENRT_PROGRESS="1").stderr)
        r = subprocess.run([CLI, "run", self.model, "--inputs", os.path.join(FIXTURES, "tiny_cnn.inputs.npz")],
                           capture_output=True, text=True, env={**self.env, "ATENRT_PROGRESS_DELAY_MS": "0"},
                           timeout=600)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "")

    def test_forced_progress_is_plain_lines(self):
        r = subprocess.run([CLI, "run", self.model, "--inputs", os.path.join(FIXTURES, "tiny_cnn.inputs.npz")],
                           capture_output=True, text=True, timeout=600,
                           env={**self.env, "ATENRT_PROGRESS": "1", "ATENRT_PROGRESS_DELAY_MS": "0"})
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stderr, r"^atenrt: compiling \S+tiny_cnn.pt2.pt2 \.\.\.\n"
                                   r"atenrt: compiled \S+tiny_cnn.pt2.pt2 in [0-9.]+ s\n$")
        self.assertNotIn("\r", r.stderr)
        # a failing compile ends without the "compiled" line, the error after it
        r = subprocess.run([CLI, "run", self.model, "--inputs", os.path.join(FIXTURES, "tiny_cnn.inputs.npz"),
                            "--torch-executed-ops", "aten.convolution", "--require-full-compilation"],
                           capture_output=True, text=True, timeout=600,
                           env={**self.env, "ATENRT_PROGRESS": "1", "ATENRT_PROGRESS_DELAY_MS": "0"})
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertNotIn("compiled", r.stderr)
        self.assertIn("\natenrt: error: ", r.stderr)
        r = subprocess.run([CLI, "run", self.model, "--inputs", os.path.join(FIXTURES, "tiny_cnn.inputs.npz")],
                           capture_output=True, text=True, timeout=600,
                           env={**self.env, "ATENRT_PROGRESS": "0", "ATENRT_PROGRESS_DELAY_MS": "0"})
        self.assertEqual(r.stderr, "")

    def test_a_terminal_gets_a_line_that_rewrites_itself(self):
        leader, follower = pty.openpty()
        try:
            r = subprocess.run([CLI, "run", self.model, "--inputs", os.path.join(FIXTURES, "tiny_cnn.inputs.npz"),
                                "--quiet"], stdout=subprocess.PIPE, stderr=follower, timeout=600,
                               env={**self.env, "ATENRT_PROGRESS_DELAY_MS": "0"})
            os.close(follower)
            follower = None
            shown = b""
            while True:
                try:
                    chunk = os.read(leader, 4096)
                except OSError:  # EIO: the terminal's other side is closed and drained
                    break
                if not chunk:
                    break
                shown += chunk
        finally:
            if follower is not None:
                os.close(follower)
            os.close(leader)
        self.assertEqual(r.returncode, 0)
        self.assertIn(b"\ratenrt: compiling ", shown)
        self.assertRegex(shown, rb"\ratenrt: compiled \S+ in [0-9.]+ s\x1b\[K\r?\n$")
        self.assertEqual(r.stdout, b"")


if __name__ == "__main__":
    unittest.main()
