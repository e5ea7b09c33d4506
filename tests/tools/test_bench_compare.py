"""bench/models/compare.py's rounds: how an engine's interleaved rounds become one row of the table."""
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "models"))
import compare  # noqa: E402


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


if __name__ == "__main__":
    unittest.main()
