"""The CLI contract: exit 0 success, 1 runtime or model error, 2 usage error, always
`atenrt: error:` on stderr; --version; --help with defaults; settings checked with suggestions;
engine files take load-time settings only.

Needs ATENRT_CLI and ATENRT_FIXTURES_DIR (scripts/test.sh sets both).
"""
import json
import os
import re
import subprocess
import tempfile
import unittest

CLI = os.environ.get("ATENRT_CLI")
FIXTURES = os.environ.get("ATENRT_FIXTURES_DIR")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fixture(name, suffix):
    return os.path.join(FIXTURES, f"{name}.{suffix}")


@unittest.skipUnless(CLI and FIXTURES, "ATENRT_CLI and ATENRT_FIXTURES_DIR are not set (scripts/test.sh sets them)")
class ContractTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.engine = os.path.join(cls.tmp.name, "cnn.atrt")
        subprocess.run([CLI, "compile", fixture("tiny_cnn", "pt2.pt2"), "-o", cls.engine, "--threads", "1"],
                       check=True, capture_output=True)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def atenrt(self, *args, code=0):
        r = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=600)
        self.assertEqual(r.returncode, code, f"atenrt {' '.join(args)}: exit {r.returncode}\n{r.stdout}\n{r.stderr}")
        if code:
            self.assertTrue(r.stderr.startswith("atenrt: error: "), r.stderr)
        return r

    def usage_error(self, *args):
        return self.atenrt(*args, code=2).stderr

    def test_plugin_takes_one_file_wherever_it_stands(self):
        plugin = os.path.join(os.path.dirname(CLI), "tests", "plugins", "liboverride_test.so")
        if not os.path.exists(plugin):
            self.skipTest("the test plugins are not built")
        # --plugin before the model path takes one file, not the model too.
        for args in (["run", "--plugin", plugin, self.engine], ["run", self.engine, "--plugin", plugin],
                     ["--plugin", plugin, "run", self.engine], ["run", "--plugin", plugin, "--plugin", plugin,
                                                                  self.engine]):
            with self.subTest(args=args):
                self.atenrt(*args, "--inputs", fixture("tiny_cnn", "inputs.npz"), "--quiet")
        self.assertIn("--plugin", self.usage_error("run", self.engine, "--inputs", fixture("tiny_cnn", "inputs.npz"),
                                                   "--plugin"))

    def test_version_is_the_cmake_project_version(self):
        with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
            version = re.search(r"project\(atenrt VERSION ([0-9.]+)", f.read()).group(1)
        out = self.atenrt("--version").stdout
        self.assertIn(f"atenrt {version}", out)
        self.assertRegex(out, r"oneDNN [0-9]+\.[0-9]+\.[0-9]+")
        self.assertIn("build:", out)

    def test_help_shows_defaults_and_the_two_kinds_of_settings(self):
        out = self.atenrt("compile", "--help").stdout
        for needle in ("Compile-time settings", "Load-time settings", "--precision", "fp32|bf16", "--threads",
                       "--min-block-size", "Exit status"):
            self.assertIn(needle, out)
        self.assertRegex(out, r"--optimization-level\s+INT[^\n]*=3|--optimization-level[^\n]*\n?[^\n]*=3|\[3\]")

    def test_usage_errors_exit_2(self):
        model = fixture("tiny_cnn", "pt2.pt2")
        self.usage_error("compile")                                    # missing argument
        self.usage_error("compile", model, "--no-such-flag")
        self.usage_error("frobnicate")
        self.usage_error("compile", model, "--threads", "two")
        self.usage_error("compile", model)                             # no -o, no --dryrun
        self.usage_error()                                             # no command

    def test_runtime_errors_exit_1(self):
        missing = os.path.join(self.tmp.name, "missing.pt2")
        self.assertIn(missing, self.atenrt("inspect", missing, code=1).stderr)
        self.assertIn(missing, self.atenrt("compile", missing, "-o", "x.atrt", code=1).stderr)

    def test_settings_out_of_range_are_usage_errors(self):
        model = fixture("tiny_cnn", "pt2.pt2")
        cases = {
            ("--threads", "-3"): "num_threads must be in 0-1024, got -3",
            ("--min-block-size", "-1"): "min_block_size must be >= 1, got -1",
            ("--optimization-level", "7"): "optimization_level must be in 0-3, got 7",
            ("--precision", "bf61"): "did you mean 'bf16'?",
        }
        for flags, message in cases.items():
            with self.subTest(flags):
                self.assertIn(message, self.usage_error("compile", model, "--dryrun", *flags))

    def test_unknown_names_suggest_the_nearest(self):
        model = fixture("tiny_cnn", "pt2.pt2")
        cases = {
            ("--torch-executed-ops", "aten.reluu"): "did you mean 'aten.relu'?",
            ("--torch-executed-ops", "aten.relu.defalt"): "did you mean 'aten.relu.default'?",
            ("--disable-passes", "dead_cod"): "did you mean 'dead_code'?",
            ("--disable-passes", "foo"): "unknown lowering pass 'foo'",
            ("--disable-decompositions", "aten.addm.default"): "did you mean 'aten.addmm.default'?",
            ("--disable-decomposition-groups", "activation"): "did you mean 'activations'?",
        }
        for flags, message in cases.items():
            with self.subTest(flags):
                err = self.usage_error("compile", model, "--dryrun", *flags)
                self.assertIn(message, err)
        err = self.usage_error("ops", "--family", "activatoin")
        self.assertIn("did you mean 'activation'?", err)

    def test_known_names_pass(self):
        self.atenrt("compile", fixture("tiny_cnn", "pt2.pt2"), "--dryrun", "--disable-passes", "dead_code",
                    "--torch-executed-ops", "aten.sin", "--disable-decomposition-groups", "activations")

    def test_engine_files_refuse_compile_time_flags(self):
        err = self.usage_error("run", self.engine, "--inputs", fixture("tiny_cnn", "inputs.npz"),
                               "--precision", "bf16")
        self.assertIn("--precision", err)
        self.assertIn("built with precision fp32", err)
        self.assertIn("--threads", err)  # what does apply
        self.usage_error("bench", self.engine, "--optimization-level", "1")

    def test_compiling_an_engine_file_is_a_usage_error(self):
        err = self.usage_error("compile", self.engine, "-o", os.path.join(self.tmp.name, "y.atrt"))
        self.assertIn("nothing to compile", err)
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "y.atrt")))

    def test_bench_reports_what_the_engine_really_does(self):
        data = json.loads(self.atenrt("bench", self.engine, "--json", "--iterations", "2", "--warmup", "0",
                                      "--threads", "1").stdout)
        self.assertEqual(data["precision"], "fp32")
        self.assertEqual(data["threads"], 1)
        self.assertEqual(set(data["step_precisions"]), {"fp32"})
        self.assertEqual(len(data["inputs"]), 1)
        bf16 = json.loads(self.atenrt("bench", fixture("tiny_cnn", "pt2.pt2"), "--json", "--iterations", "1",
                                      "--precision", "bf16").stdout)
        self.assertIn(bf16["precision"], ("bf16", "fp32"))  # fp32 where the CPU has no bf16 kernels
        self.assertEqual(bf16["precision"] == "bf16", "bf16" in bf16["step_precisions"])

    def test_dryrun_json_and_require_full_compilation_gate(self):
        model = fixture("tiny_cnn", "pt2.pt2")
        data = json.loads(self.atenrt("compile", model, "--dryrun", "--json").stdout)
        self.assertTrue(data["fully_supported"])
        self.atenrt("compile", model, "--dryrun", "--require-full-compilation")
        r = self.atenrt("compile", model, "--dryrun", "--json", "--require-full-compilation",
                        "--torch-executed-ops", "aten.relu.default", code=1)
        self.assertFalse(json.loads(r.stdout)["fully_supported"])
        self.assertIn("require_full_compilation", r.stderr)

    def test_run_prints_a_line_per_output_unless_quiet(self):
        args = ["run", self.engine, "--inputs", fixture("tiny_cnn", "inputs.npz")]
        out = self.atenrt(*args).stdout.strip().splitlines()
        self.assertEqual(len(out), 1)
        self.assertRegex(out[0], r"float32\[[0-9, ]+\]  min \S+  max \S+  mean \S+")
        self.assertEqual(self.atenrt(*args, "--quiet").stdout, "")
        data = json.loads(self.atenrt(*args, "--json").stdout)
        self.assertEqual(len(data["outputs"]), 1)
        # The summary is of the real output: PyTorch's output has the same statistics.
        import numpy as np
        ref = np.load(fixture("tiny_cnn", "outputs.npz"))["arr_0"].astype(np.float64)
        row = data["outputs"][0]
        self.assertEqual((row["dtype"], row["shape"], row["nan"]), ("float32", list(ref.shape), 0))
        tol = 1e-4 * np.abs(ref).max()
        for key, want in (("min", ref.min()), ("max", ref.max()), ("mean", ref.mean())):
            self.assertLessEqual(abs(row[key] - want), tol, key)

    def test_inspect_an_engine_file(self):
        text = self.atenrt("inspect", self.engine).stdout
        for needle in ("built with:", "precision fp32", "threads:", "inputs:", "outputs:", "kernels:", "memory:",
                       "weights:", "steps ("):
            self.assertIn(needle, text)
        data = json.loads(self.atenrt("inspect", self.engine, "--json").stdout)
        self.assertEqual(data["kind"], "engine")
        self.assertTrue(data["steps"] and data["weights"])
        self.assertIn("--lowered needs the .pt2", self.usage_error("inspect", self.engine, "--lowered"))
        self.usage_error("inspect", self.engine, "--precision", "bf16")

    def test_inspect_lowered_keeps_ops_compile_converts(self):
        model = fixture("transformer", "pt2.pt2")
        data = json.loads(self.atenrt("inspect", model, "--lowered", "--json").stdout)
        # compile keeps addmm for its converter; inspect --lowered says the same
        self.assertNotIn("aten.addmm.default", data["lowering"]["decompositions"])
        self.assertIn("aten.addmm.default", data["lowering"]["not_decomposed"])
        off = json.loads(self.atenrt("inspect", model, "--lowered", "--json", "--no-lowering").stdout)
        self.assertEqual(off["lowering"]["decompositions"], {})
        self.usage_error("inspect", model, "--disable-passes", "dead_code")  # does nothing without --lowered

    def test_run_compare_and_named_outputs(self):
        import numpy as np
        inputs, ref = fixture("tiny_cnn", "inputs.npz"), fixture("tiny_cnn", "outputs.npz")
        out = self.atenrt("run", self.engine, "--inputs", inputs, "--compare", ref).stdout
        self.assertRegex(out, r"\n  \S+ +ok ")
        wrong = os.path.join(self.tmp.name, "wrong.npz")
        np.savez(wrong, np.load(ref)["arr_0"] + 1.0)
        r = self.atenrt("run", self.engine, "--inputs", inputs, "--compare", wrong, code=1)
        self.assertIn("FAIL", r.stdout)
        self.assertIn("beyond rtol", r.stderr)
        self.atenrt("run", self.engine, "--inputs", inputs, "--compare", wrong, "--atol", "1.5")
        data = json.loads(self.atenrt("run", self.engine, "--inputs", inputs, "--compare", ref, "--json").stdout)
        self.assertTrue(all(row["ok"] for row in data["compare"]["outputs"]))
        named = os.path.join(self.tmp.name, "named.npz")
        self.atenrt("run", self.engine, "--inputs", inputs, "--outputs", named, "--named-outputs", "--quiet")
        keys = list(np.load(named).keys())
        self.assertEqual(len(keys), 1)
        self.assertNotEqual(keys[0], "arr_0")
        self.atenrt("run", self.engine, "--inputs", inputs, "--compare", named, "--quiet")  # by name
        positional = os.path.join(self.tmp.name, "positional.npz")
        self.atenrt("run", self.engine, "--inputs", inputs, "--outputs", positional, "--quiet")
        self.assertEqual(list(np.load(positional).keys()), ["arr_0"])
        self.usage_error("run", self.engine, "--inputs", inputs, "--named-outputs")

    def test_messages_escape_untrusted_names(self):
        import zipfile
        hostile = os.path.join(self.tmp.name, "hostile.npz")
        with zipfile.ZipFile(hostile, "w") as z:
            z.writestr("evil\u009b[31m.npy", b"not an npy file")  # a C1 control (CSI) in UTF-8
        r = self.atenrt("run", self.engine, "--inputs", hostile, code=1)
        self.assertNotIn("\u009b", r.stderr)
        self.assertIn("evil\\xC2\\x9B[31m", r.stderr)


if __name__ == "__main__":
    unittest.main()
