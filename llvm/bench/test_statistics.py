"""The bench's statistics: a Student's t 95% confidence interval of a mean."""
import importlib.util
import os
import unittest

spec = importlib.util.spec_from_file_location(
    "run", os.path.join(os.path.dirname(os.path.abspath(__file__)), "run.py"))
run = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run)


class ConfidenceInterval(unittest.TestCase):
    def test_three_invocations(self):
        # mean 2, standard error 1/sqrt(3), t(0.975, 2) = 4.302653 (tables).
        lo, hi = run.ci95([1.0, 2.0, 3.0])
        self.assertAlmostEqual(lo, 2 - 2.484138, places=6)
        self.assertAlmostEqual(hi, 2 + 2.484138, places=6)

    def test_ten_invocations(self):
        # t(0.975, 9) = 2.262157; standard error of 0..9 is sqrt(55/6)/sqrt(10).
        lo, hi = run.ci95([float(x) for x in range(10)])
        self.assertAlmostEqual(hi - 4.5, 2.262157 * (55 / 6 / 10) ** 0.5, places=5)
        self.assertAlmostEqual(lo + hi, 9.0)

    def test_no_spread_gives_the_mean(self):
        self.assertEqual(run.ci95([1.5, 1.5, 1.5]), [1.5, 1.5])
        self.assertEqual(run.ci95([2.0]), [2.0, 2.0])


if __name__ == "__main__":
    unittest.main()
