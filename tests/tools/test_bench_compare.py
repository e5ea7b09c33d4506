"""bench/models/compare.py's rounds (how an engine's interleaved rounds become one row of the table) and
its tv:NAME models (torchvision models beyond the benchmark's six)."""
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "models"))
import compare  # noqa: E402
import zoo  # noqa: E402


def timing(median, p90=None, minimum=None, busy=0.0, **extra):
    row = {"median_ms": median, "p90_ms": p90 if p90 is not None else median * 1.1,
           "min_ms": minimum if minimum is not None else median * 0.9, "others_cores": busy, "wall_s": 1.0}
    row.update(extra)
    return row


class MergeRounds(unittest.TestCase):
    def test_median_of_medians_and_spread(self):
        rounds = [timing(10.0, max_rel_err=1e-6, top1_same=True), timing(7.0, minimum=6.0), timing(11.0, busy=0.4)]
        row = compare.merge_rounds(rounds)
        self.assertEqual(row["median_ms"], 10.0)
        self.assertEqual(row["round_medians_ms"], [10.0, 7.0, 11.0])
        self.assertAlmostEqual(row["round_spread"], (11.0 - 7.0) / 10.0)
        self.assertEqual(row["min_ms"], 6.0)  # the fastest run of any round
        self.assertAlmostEqual(row["p90_ms"], 11.0)  # median of 11.0, 7.7, 12.1
        self.assertEqual(row["others_cores"], 0.4)  # the worst round's load
        self.assertEqual(row["max_rel_err"], 1e-6)  # correctness comes from the first round
        self.assertTrue(row["top1_same"])
        self.assertEqual(row["wall_s"], 3.0)

    def test_one_round_is_that_round(self):
        only = timing(5.0)
        self.assertEqual(compare.merge_rounds([only]), only)

    def test_a_failed_round_makes_the_row_that_failure(self):
        row = compare.merge_rounds([timing(5.0), {"error": "bench: exit 3", "wall_s": 0.1}, timing(6.0)])
        self.assertEqual(row["error"], "bench: exit 3")
        self.assertNotIn("median_ms", row)

    def test_table_shows_spread_and_notes_drift(self):
        args = compare.parse_args(["--models", "resnet18", "--engines", "onnxruntime,atenrt-fp32", "--rounds", "2"])
        rows = [dict(compare.merge_rounds([timing(10.0), timing(10.5)]), model="resnet18", engine="onnxruntime"),
                dict(compare.merge_rounds([timing(6.0), timing(12.0)]), model="resnet18", engine="atenrt-fp32")]
        meta = {"machine": "test machine", "torch": "1.13", "load_average": (0.0, 0.0, 0.0), "date": "today"}
        table = compare.markdown_table(rows, args, meta)
        self.assertIn("2 rounds interleaved", table)
        self.assertIn("| 5% |", table)   # ORT: (10.5 - 10) / 10.25
        self.assertIn("| 67% |", table)  # atenrt: (12 - 6) / 9
        self.assertIn("rounds of 1 of 2 rows differ by more than 25%", table)
        self.assertIn("| atenrt fp32 | 0.88 |", table)  # geomean: 9 / 10.25

    def test_rounds_must_be_positive_and_quick_means_one(self):
        self.assertEqual(compare.parse_args(["--quick"]).rounds, 1)
        self.assertEqual(compare.parse_args([]).rounds, 3)
        with self.assertRaises(SystemExit):
            compare.parse_args(["--rounds", "0"])


class TorchvisionModels(unittest.TestCase):
    def test_tv_names_follow_the_benchmark_models_in_their_order(self):
        args = compare.parse_args(["--models", "tv:squeezenet1_1,resnet18,tv:r3d_18"])
        self.assertEqual(args.models, ["resnet18", "tv:squeezenet1_1", "tv:r3d_18"])
        self.assertEqual(compare.parse_args(["--models", "tv:swin_t"]).models, ["tv:swin_t"])

    def test_unknown_and_unsupported_names_are_refused(self):
        for bad in ["tv:nosuchnet", "tv:fasterrcnn_resnet50_fpn", "tv:raft_small", "nosuchnet", ""]:
            with self.assertRaises(SystemExit, msg=bad):
                compare.parse_args(["--models", bad])

    def test_inputs_by_family(self):
        for name, shape in [("tv:densenet121", (1, 3, 224, 224)), ("tv:inception_v3", (1, 3, 299, 299)),
                            ("tv:r3d_18", (1, 3, 8, 112, 112)), ("tv:s3d", (1, 3, 16, 224, 224)),
                            ("tv:deeplabv3_mobilenet_v3_large", (1, 3, 224, 224))]:
            _, make_input = zoo.torchvision_model(name)
            self.assertEqual(tuple(make_input().shape), shape, name)

    def test_a_model_builds_without_weights(self):
        model, x = zoo.build_model("tv:squeezenet1_1")
        self.assertFalse(model.training)
        self.assertEqual(tuple(model(x).shape), (1, 1000))


if __name__ == "__main__":
    unittest.main()
