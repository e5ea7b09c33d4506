"""The `atenrt` command line, driven as a user would: exit codes, outputs and messages.

Needs ATENRT_CLI (the binary) and ATENRT_FIXTURES_DIR (tests/tools/make_fixtures.py output);
scripts/test.sh sets both.
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

CLI = os.environ.get("ATENRT_CLI")
FIXTURES = os.environ.get("ATENRT_FIXTURES_DIR")
CORPUS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "corpus")


def fixture(name, suffix):
    return os.path.join(FIXTURES, f"{name}.{suffix}")


@unittest.skipUnless(CLI and FIXTURES, "ATENRT_CLI and ATENRT_FIXTURES_DIR are not set (scripts/test.sh sets them)")
class CliTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def atenrt(self, *args, ok=True):
        result = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=600)
        if ok:
            self.assertEqual(result.returncode, 0, f"atenrt {' '.join(args)} failed:\n{result.stderr}")
        else:
            self.assertNotEqual(result.returncode, 0, f"atenrt {' '.join(args)} should have failed")
            self.assertIn("atenrt: error:", result.stderr)
        return result

    def path(self, name):
        return os.path.join(self.dir, name)

    def assert_outputs_match(self, got_path, want_path):
        got, want = np.load(got_path), np.load(want_path)
        self.assertEqual(got.files, want.files)
        for k in want.files:
            self.assertEqual(got[k].dtype, want[k].dtype, k)
            self.assertEqual(got[k].shape, want[k].shape, k)
            if want[k].dtype.kind == "f":
                np.testing.assert_allclose(got[k], want[k], rtol=1e-4, atol=1e-4, err_msg=k)
            else:
                np.testing.assert_array_equal(got[k], want[k], err_msg=k)

    def test_inspect_text_and_json(self):
        text = self.atenrt("inspect", fixture("tiny_cnn", "pt2.pt2")).stdout
        for needle in ("producer:", "torch 1.13", "layout:", "inputs:", "aten.convolution.default"):
            self.assertIn(needle, text)
        # Every layout's --json says what the exporter wrote (expected.json holds the graph).
        with open(fixture("tiny_cnn", "expected.json")) as f:
            expected = json.load(f)
        targets = [n["target"] for n in expected["nodes"]]
        specs = expected["signature"]["input_specs"]
        params = [s["parameter"]["parameter_name"] for s in specs if "parameter" in s]
        buffers = [s["buffer"]["buffer_name"] for s in specs if "buffer" in s]
        weights = expected["weights"]
        itemsize = {"float32": 4, "int64": 8}
        numel = lambda w: int(np.prod(w["sizes"], dtype=np.int64))
        x = np.load(fixture("tiny_cnn", "inputs.npz"))["arr_0"]
        y = np.load(fixture("tiny_cnn", "outputs.npz"))["arr_0"]
        for layout in ("pt2", "pt2-pickle", "legacy"):
            data = json.loads(self.atenrt("inspect", fixture("tiny_cnn", f"{layout}.pt2"), "--json").stdout)
            self.assertEqual(data["kind"], "pt2")
            self.assertEqual(data["node_count"], len(targets), layout)
            self.assertEqual({o["op"]: o["count"] for o in data["ops"]},
                             {t: targets.count(t) for t in set(targets)}, layout)
            self.assertEqual(data["parameters"]["tensors"], len(params), layout)
            self.assertEqual(data["parameters"]["count"], sum(numel(weights[p]) for p in params), layout)
            self.assertEqual(data["buffers_and_constants"]["tensors"], len(buffers), layout)
            self.assertEqual(data["buffers_and_constants"]["bytes"],
                             sum(numel(weights[b]) * itemsize[weights[b]["dtype"]] for b in buffers), layout)
            self.assertEqual([(i["name"], i["dtype"], i["shape"]) for i in data["inputs"]],
                             [("x", "float32", list(x.shape))], layout)
            self.assertEqual([(o["dtype"], o["shape"]) for o in data["outputs"]], [("float32", list(y.shape))], layout)

    def test_inspect_lowered_shows_the_lowering(self):
        text = self.atenrt("inspect", fixture("transformer", "pt2.pt2"), "--lowered").stdout
        self.assertIn("Lowering:", text)

    def test_run_matches_pytorch_for_every_layout(self):
        for layout in ("pt2", "pt2-pickle", "legacy"):
            out = self.path(f"out_{layout}.npz")
            self.atenrt("run", fixture("int_bool", f"{layout}.pt2"), "--inputs", fixture("int_bool", "inputs.npz"),
                        "--outputs", out)
            self.assert_outputs_match(out, fixture("int_bool", "outputs.npz"))

    def test_compile_then_run_the_engine_file(self):
        engine = self.path("cnn.atrt")
        msg = self.atenrt("compile", fixture("tiny_cnn", "pt2.pt2"), "-o", engine).stdout
        self.assertIn("compiled", msg)
        out = self.path("out.npz")
        self.atenrt("run", engine, "--inputs", fixture("tiny_cnn", "inputs.npz"), "--outputs", out)
        self.assert_outputs_match(out, fixture("tiny_cnn", "outputs.npz"))

    def test_hybrid_engine_compiles_runs_and_says_what_runs_in_libtorch(self):
        if "fallback executor on" not in self.atenrt("--version").stdout:
            self.skipTest("atenrt was built without the libtorch fallback")
        model = fixture("tiny_cnn", "pt2.pt2")
        dry = self.atenrt("compile", model, "--dryrun", "--torch-executed-ops", "aten.relu.default",
                          "--min-block-size", "1").stdout
        self.assertIn("libtorch fallback", dry)
        self.assertIn("relu (aten.relu.default): listed in torch_executed_ops", dry)
        engine = self.path("hybrid.atrt")
        msg = self.atenrt("compile", model, "-o", engine, "--torch-executed-ops", "aten.relu.default",
                          "--min-block-size", "1", "--verbose").stdout
        self.assertIn("libtorch", msg)
        out = self.path("out.npz")
        self.atenrt("run", engine, "--inputs", fixture("tiny_cnn", "inputs.npz"), "--outputs", out)
        self.assert_outputs_match(out, fixture("tiny_cnn", "outputs.npz"))
        inspect = json.loads(self.atenrt("inspect", engine, "--json").stdout)
        self.assertEqual(inspect["fallback_ops"], ["aten.relu.default"])
        self.assertIn("torch segment", inspect["segments"])
        # Without the plugin (as in a build without it), loading names the ops the file needs.
        env = dict(os.environ, ATENRT_TORCH_PLUGIN=self.path("no_such_plugin.so"))
        r = subprocess.run([CLI, "run", engine, "--inputs", fixture("tiny_cnn", "inputs.npz")],
                           capture_output=True, text=True, timeout=600, env=env)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("libtorch fallback (aten.relu.default)", r.stderr)
        self.assertIn("was not found", r.stderr)

    def test_bench_memory_breakdown_of_an_engine_file(self):
        engine = self.path("tiny.atrt")
        self.atenrt("compile", fixture("tiny_cnn", "pt2.pt2"), "-o", engine)
        data = json.loads(self.atenrt("bench", engine, "--json", "--iterations", "2", "--memory").stdout)
        mem = data["memory"]
        self.assertGreater(mem["weights_packed"], 0)
        # Loaded from the file: every weight is a view of the mapping (shared between processes).
        self.assertEqual(mem["weights_mapped"], mem["weights_plain"] + mem["weights_packed"])
        inspected = json.loads(self.atenrt("inspect", engine, "--json").stdout)["memory"]
        self.assertEqual(inspected["weight_packed_bytes"], mem["weights_packed"])
        self.assertEqual(inspected["weight_mapped_bytes"], mem["weights_mapped"])
        self.assertEqual(inspected["scratch_bytes"], mem["scratch"])
        text = self.atenrt("bench", engine, "--iterations", "2", "--memory").stdout
        self.assertIn("memory (MiB): weights", text)
        self.assertIn("mapped from the engine file, shared by processes", text)
        self.assertRegex(text, r"peak RSS [0-9.]+ = engine [0-9.]+ \+ [0-9.]+ process")

    def test_running_an_engine_file_costs_its_weights_plan_and_40_mib(self):
        """The memory bound of issue 16, as RSS (not time): running ResNet-18 from its engine file
        peaks at most at weights + activations + scratch + outputs + 40 MiB for the process."""
        if "sanitizers off" not in self.atenrt("--version").stdout:
            self.skipTest("sanitizer builds carry shadow memory")
        engine = self.path("resnet18.atrt")
        self.atenrt("compile", fixture("resnet18", "pt2.pt2"), "-o", engine)
        data = json.loads(self.atenrt("bench", engine, "--json", "--iterations", "3", "--warmup", "1").stdout)
        mem = data["memory"]
        engine_mb = (mem["weights_plain"] + mem["weights_packed"] + mem["activations"] + mem["scratch"] +
                     mem["outputs"]) / 2 ** 20
        self.assertGreater(engine_mb, 40.0)  # 45 MiB of weights: a bound that means something
        self.assertLessEqual(data["peak_rss_mb"], engine_mb + 40.0,
                             f"peak {data['peak_rss_mb']:.1f} MiB for an engine of {engine_mb:.1f} MiB")

    def test_compiling_from_a_pt2_costs_at_most_one_and_a_half_archives_and_40_mib(self):
        """Issue 16's bound for compiling, as RSS (not time): the archive is mapped and each entry's
        pages dropped once copied out, the program lets go of weights the network holds, folds free
        what they replace and packing frees each plain weight (ResNet-18: 156 MiB before)."""
        if "sanitizers off" not in self.atenrt("--version").stdout:
            self.skipTest("sanitizer builds carry shadow memory")
        archive = fixture("resnet18", "pt2.pt2")
        measure = ("import resource, subprocess, sys\n"
                   "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)\n"
                   "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
        peak_kib = int(subprocess.run([sys.executable, "-c", measure, CLI, "compile", archive, "-o",
                                       self.path("r18.atrt")], check=True, capture_output=True,
                                      text=True).stdout)
        archive_mib = os.path.getsize(archive) / 2 ** 20
        self.assertGreater(archive_mib, 40.0)  # a bound that means something
        self.assertLessEqual(peak_kib / 1024, 1.5 * archive_mib + 40.0,
                             f"peak {peak_kib / 1024:.1f} MiB compiling a {archive_mib:.1f} MiB archive")

    def test_bench_profile_and_trace(self):
        trace = self.path("trace.json")
        data = json.loads(self.atenrt("bench", fixture("tiny_cnn", "pt2.pt2"), "--json", "--iterations", "4",
                                      "--warmup", "1", "--profile", "--trace", trace).stdout)
        for key in ("min_ms", "mean_ms", "median_ms", "p90_ms", "p99_ms", "stddev_ms", "throughput_per_s"):
            self.assertGreaterEqual(data[key], 0.0, key)
        self.assertLessEqual(data["median_ms"], data["p99_ms"] + 1e-9)
        profile = data["profile"]
        self.assertEqual(profile["runs"], 4)
        steps = profile["steps"]
        self.assertGreater(len(steps), 1)
        self.assertTrue(all(s["mean_ms"] >= 0 and s["implementation"] for s in steps))
        self.assertGreater(sum(s["mean_ms"] for s in steps), 0.0)
        # conv 3->8, 3x3, stride 2, pad 1 on [2, 3, 16, 16]: [2, 8, 8, 8] outputs of 27 multiply-adds each.
        convs = [s for s in steps if s["kind"] == "Convolution"]
        self.assertEqual([s["flops"] for s in convs], [2 * 2 * 8 * 8 * 8 * 27])
        self.assertTrue(all(s["flops"] == 0 for s in steps if s["kind"] not in ("Convolution", "MatMul")))
        with open(trace) as f:
            events = json.load(f)["traceEvents"]
        self.assertEqual([e["name"] for e in events], [s["name"] for s in steps])
        for a, b in zip(events, events[1:]):  # one after another, in run order
            self.assertLessEqual(a["ts"] + a["dur"], b["ts"] + 1e-3)
        out = self.path("profile.json")
        text = self.atenrt("bench", fixture("tiny_cnn", "pt2.pt2"), "--iterations", "2", "--profile-out", out).stdout
        self.assertIn("profile: %d steps over 2 runs" % len(steps), text)
        with open(out) as f:
            written = json.load(f)
        self.assertEqual(written["runs"], 2)
        self.assertEqual([s["name"] for s in written["steps"]], [s["name"] for s in steps])
        self.assertIn("GFLOP/s", text)

    def test_bench_streams(self):
        # --streams N: N contexts on N threads, each run timed; each gets cores/N threads (at least 1)
        # unless --threads is given. A static engine refuses --batch other than its own.
        data = json.loads(self.atenrt("bench", fixture("tiny_cnn", "pt2.pt2"), "--json", "--iterations", "4",
                                      "--warmup", "1", "--streams", "3").stdout)
        self.assertEqual((data["streams"], data["runs"], data["batch"]), (3, 12, 1))
        self.assertEqual(data["threads"], max(1, os.cpu_count() // 3))
        self.assertAlmostEqual(data["throughput_per_s"], 12 * 1000.0 / data["wall_ms"], delta=1e-6 * data["throughput_per_s"])
        data = json.loads(self.atenrt("bench", fixture("tiny_cnn", "pt2.pt2"), "--json", "--iterations", "2",
                                      "--streams", "2", "--threads", "1").stdout)
        self.assertEqual((data["threads"], data["runs"]), (1, 4))
        text = self.atenrt("bench", fixture("tiny_cnn", "pt2.pt2"), "--iterations", "2", "--streams", "2").stdout
        self.assertIn("runs/s on 2 streams", text)
        bad = self.atenrt("bench", fixture("tiny_cnn", "pt2.pt2"), "--batch", "3", ok=False)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("is static", bad.stderr)
        self.assertEqual(self.atenrt("bench", fixture("tiny_cnn", "pt2.pt2"), "--streams", "0", ok=False).returncode, 2)

    def test_openmp_threads_spin_briefly_then_sleep_unless_the_user_says_otherwise(self):
        # libgomp's default spins for milliseconds (runs stalled 3-8x whenever another process held
        # a core); the CLI starts itself again with a short spin count unless the user set a policy.
        env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
        args = [CLI, "bench", fixture("tiny_cnn", "pt2.pt2"), "--json", "--iterations", "1", "--warmup", "0"]
        policy = lambda extra: json.loads(subprocess.run(args, env={**env, **extra}, capture_output=True, text=True,
                                                          check=True, timeout=600).stdout)["omp_wait_policy"]
        self.assertEqual(policy({}), "spin then sleep (GOMP_SPINCOUNT=10000)")
        self.assertEqual(policy({"OMP_WAIT_POLICY": "passive"}), "passive")
        self.assertEqual(policy({"GOMP_SPINCOUNT": "0"}), "spin then sleep (GOMP_SPINCOUNT=0)")

    def test_openmp_binding_keeps_every_core(self):
        # With OMP_PROC_BIND libgomp pins the first thread to one CPU before main; the CLI's restart
        # (for the short spin) inherited that mask and ran every engine on one thread. Binding now
        # skips the restart: all the cores this process may use, libgomp's own wait policy.
        cores = len(os.sched_getaffinity(0))
        if cores < 2:
            self.skipTest("one CPU: nothing to lose")
        env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "OMP_NUM_THREADS")}
        args = [CLI, "bench", fixture("tiny_cnn", "pt2.pt2"), "--json", "--iterations", "1", "--warmup", "0"]
        for binding in ({"OMP_PROC_BIND": "true"}, {"OMP_PLACES": "cores"}, {"OMP_PROC_BIND": "close", "OMP_PLACES": "threads"}):
            with self.subTest(**binding):
                data = json.loads(subprocess.run(args, env={**env, **binding}, capture_output=True, text=True,
                                                 check=True, timeout=600).stdout)
                self.assertEqual((data["threads"], data["omp_wait_policy"]), (cores, "default"))

    def test_bench_json_has_the_promised_fields(self):
        data = json.loads(self.atenrt("bench", fixture("tiny_cnn", "pt2.pt2"), "--json", "--iterations", "3",
                                      "--warmup", "1", "--threads", "1").stdout)
        for key in ("median_ms", "p90_ms", "compile_ms"):
            self.assertGreaterEqual(data[key], 0.0, key)
        self.assertLessEqual(data["min_ms"], data["median_ms"] + 1e-9)
        self.assertLessEqual(data["median_ms"], data["p90_ms"] + 1e-9)
        # The values say what was asked for and what the model is.
        self.assertEqual((data["iterations"], data["warmup"], data["threads"]), (3, 1, 1))
        self.assertEqual(data["inputs"], ["x: float32[2, 3, 16, 16]"])
        self.assertEqual(data["precision"], "fp32")
        with open(fixture("tiny_cnn", "expected.json")) as f:
            expected = json.load(f)
        param_bytes = sum(4 * int(np.prod(w["sizes"])) for w in expected["weights"].values() if w["dtype"] == "float32")
        # Folded batch norm leaves fewer plain weights than the archive holds, never more; the
        # convolution's weight is pre-packed (blocked layouts pad 3 and 8 channels to 16).
        mem = data["memory"]
        self.assertLessEqual(mem["weights_plain"], param_bytes)
        self.assertGreater(mem["weights_packed"], 0)
        self.assertEqual(data["weight_bytes"], mem["weights_plain"] + mem["weights_packed"] + mem["weights_torch"])
        self.assertEqual(mem["weights_mapped"], 0)  # compiled here, not mapped from a file
        self.assertEqual(data["activation_bytes"], mem["activations"])
        self.assertGreaterEqual(mem["overhead_mb"], 0.0)
        self.assertGreater(data["activation_bytes"], 0)
        self.assertGreater(data["peak_rss_mb"], 1.0)

    def test_dryrun_prints_the_partition_report(self):
        text = self.atenrt("compile", fixture("resnet18", "pt2.pt2"), "--dryrun").stdout
        self.assertIn("operators supported (100.0%)", text)
        # A fully supported graph is one engine whatever min_block_size says: no suggestion.
        self.assertNotIn("Suggested min_block_size", text)
        self.assertNotIn("_weight", text)  # weights are counted, not listed
        self.assertRegex(text, r"and [0-9]+ weights")

    def test_torch_executed_ops_refuse_with_the_report_under_require_full_compilation(self):
        r = self.atenrt("compile", fixture("tiny_cnn", "pt2.pt2"), "-o", self.path("x.atrt"),
                        "--torch-executed-ops", "aten.relu.default", "--require-full-compilation", ok=False)
        self.assertIn("listed in torch_executed_ops", r.stderr)

    def test_missing_and_corrupt_archives_name_the_file(self):
        missing = self.path("nope.pt2")
        r = self.atenrt("inspect", missing, ok=False)
        self.assertIn(missing, r.stderr)
        corrupt = self.path("corrupt.pt2")
        with open(fixture("tiny_cnn", "pt2.pt2"), "rb") as f:
            data = f.read()
        with open(corrupt, "wb") as f:
            f.write(data[: len(data) // 2])
        r = self.atenrt("compile", corrupt, "-o", self.path("x.atrt"), ok=False)
        self.assertIn(corrupt, r.stderr)

    def test_absurd_activation_sizes_are_an_error_not_a_signal(self):
        # Regression (issue 17): a valid archive patched to 2^36 rows made oneDNN raise SIGFPE
        # (exit 136) in compile and bench.
        model = os.path.join(CORPUS, "resources", "small", "linear_2_36_rows.pt2")
        for cmd in (["compile", model, "-o", self.path("x.atrt")], ["bench", model]):
            with self.subTest(cmd[0]):
                r = self.atenrt(*cmd, ok=False)
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertIn("tensor 'x' (float32[68719476736, 4]) needs 1.0 TiB", r.stderr)
                self.assertIn("more than the memory limit", r.stderr)

    def test_max_memory_refuses_a_larger_plan_with_its_sizes(self):
        model = fixture("tiny_cnn", "pt2.pt2")
        # 2 KiB: under what tiny_cnn's engine needs with any CPU's blocked layouts
        # (about 5 KiB with AVX2's 8-channel blocks, more with AVX-512's 16: the
        # 16 KiB this test used was enough on AVX2).
        engine = self.path("m.atrt")
        self.atenrt("compile", model, "-o", engine, "--max-memory", "1G")
        # compile: the reader's share of the limit runs out first (its JSON alone needs more).
        r = self.atenrt("compile", model, "-o", self.path("n.atrt"), "--max-memory", "2K", ok=False)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("memory limit", r.stderr)
        for cmd in (["run", engine, "--inputs", fixture("tiny_cnn", "inputs.npz"), "--outputs", self.path("o.npz")],
                    ["bench", engine]):
            with self.subTest(cmd[0]):
                r = self.atenrt(*cmd, "--max-memory", "2K", ok=False)
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertIn(engine, r.stderr)
                self.assertIn("more than the memory limit of 2.0 KiB", r.stderr)
        r = self.atenrt("compile", model, "-o", engine, "--max-memory", "12Q", ok=False)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("byte size '12Q'", r.stderr)
        self.assertIn("--max-memory SIZE", self.atenrt("compile", "--help").stdout)

    def test_corrupt_engine_file_is_refused(self):
        engine = self.path("e.atrt")
        self.atenrt("compile", fixture("tiny_cnn", "pt2.pt2"), "-o", engine)
        with open(engine, "r+b") as f:
            f.seek(100)
            byte = f.read(1)
            f.seek(100)
            f.write(bytes([byte[0] ^ 0xFF]))
        self.atenrt("run", engine, "--inputs", fixture("tiny_cnn", "inputs.npz"), "--outputs", self.path("o.npz"),
                    ok=False)

    def test_wrong_inputs_name_what_the_model_expects(self):
        x = np.load(fixture("tiny_cnn", "inputs.npz"))["arr_0"]
        model = fixture("tiny_cnn", "pt2.pt2")
        cases = {
            "count": [x, x],
            "shape": [x[:, :, :2]],
            "dtype": [x.astype(np.int64)],
        }
        for what, arrays in cases.items():
            with self.subTest(what):
                bad = self.path(f"bad_{what}.npz")
                np.savez(bad, *arrays)
                r = self.atenrt("run", model, "--inputs", bad, "--outputs", self.path("o.npz"), ok=False)
                self.assertIn("float32" + str(list(x.shape)).replace(" ", "").replace(",", ", "), r.stderr)

    def test_bad_flag_values_are_usage_errors(self):
        r = subprocess.run([CLI, "run", fixture("tiny_cnn", "pt2.pt2"), "--inputs", "a", "--outputs", "b",
                            "--precision", "fp8"], capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)


if __name__ == "__main__":
    unittest.main()
