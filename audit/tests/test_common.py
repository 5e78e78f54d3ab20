"""The shared pieces of the audit: geometry and the way traces reach the checks."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402


class Geometry(unittest.TestCase):
    def test_headings_and_turns(self):
        self.assertAlmostEqual(common.heading_to((0, 0), (1, 0)), 90.0)
        self.assertAlmostEqual(common.heading_to((0, 0), (0, -1)), 180.0)
        self.assertAlmostEqual(common.turn(350.0, 10.0), 20.0)
        self.assertAlmostEqual(common.turn(10.0, 350.0), -20.0)

    def test_polygons(self):
        sq = lambda x, y: [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]  # noqa: E731
        self.assertTrue(common.polygons_overlap(sq(0, 0), sq(0.5, 0.5)))
        self.assertFalse(common.polygons_overlap(sq(0, 0), sq(2, 0)))
        self.assertAlmostEqual(common.polygon_distance(sq(0, 0), sq(2, 0)), 1.0)
        self.assertAlmostEqual(common.overlap_depth(sq(0, 0), sq(0.75, 0)), 0.25)
        self.assertEqual(common.overlap_depth(sq(0, 0), sq(3, 0)), 0.0)
        circle = common.footprint_points({"shape": "circle", "at": [0, 0], "r": 1})
        self.assertTrue(all(abs(common.dist(p, (0, 0)) - 1) < 1e-9 for p in circle))


class Feeding(unittest.TestCase):
    def test_every_action_reaches_every_check_with_the_line_before_it(self):
        seen = []

        class Watch(common.Check):
            name = "watch"

            def start(self, ctx, first):
                seen.append(("start", first["n"]))

            def line(self, prev, cur, ctx):
                seen.append((prev["n"], cur["n"]))
                self.checked()
                if cur["n"] == 2:
                    self.violation(cur, "two")

            def end(self, ctx, last):
                seen.append(("end", last["n"]))

        w = Watch()
        common.run_trace([{"n": 0, "table": {}}, {"n": 1}, {"n": 2}], [w], "s", 7, "a,b")
        self.assertEqual(seen, [("start", 0), (0, 1), (1, 2), ("end", 2)])
        self.assertEqual((w.count, w.violations), (2, 1))
        self.assertIn("s seed 7 a,b, action 2: two", w.examples[0])


if __name__ == "__main__":
    unittest.main()
