package dev.vbd.host;

import dev.vbd.host.Stats.Estimate;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatsTest {

    @Test
    void studentTQuantilesMatchTheTables() {
        // two-sided 95% critical values of Student's t, from any statistics table
        assertEquals(12.7062, Stats.tQuantile(0.975, 1), 1e-4);
        assertEquals(4.3027, Stats.tQuantile(0.975, 2), 1e-4);
        assertEquals(3.1824, Stats.tQuantile(0.975, 3), 1e-4);
        assertEquals(2.7764, Stats.tQuantile(0.975, 4), 1e-4);
        assertEquals(2.2622, Stats.tQuantile(0.975, 9), 1e-4);
        assertEquals(2.0423, Stats.tQuantile(0.975, 30), 1e-4);
        assertEquals(1.9600, Stats.tQuantile(0.975, 1e7), 1e-4);
        assertEquals(-2.7764, Stats.tQuantile(0.025, 4), 1e-4);
        // one-sided 95%, df 5
        assertEquals(2.0150, Stats.tQuantile(0.95, 5), 1e-4);
    }

    @Test
    void fractionalDegreesOfFreedomLieBetweenTheirNeighbours() {
        double t = Stats.tQuantile(0.975, 4.5);
        assertTrue(t < Stats.tQuantile(0.975, 4) && t > Stats.tQuantile(0.975, 5), "t(4.5) = " + t);
    }

    @Test
    void cdfIsSymmetricAndInvertsTheQuantile() {
        assertEquals(0.5, Stats.tCdf(0, 7), 1e-12);
        assertEquals(1 - Stats.tCdf(1.3, 7), Stats.tCdf(-1.3, 7), 1e-12);
        assertEquals(0.975, Stats.tCdf(Stats.tQuantile(0.975, 3), 3), 1e-9);
    }

    @Test
    void meanIntervalByHand() {
        // mean 3, sample sd sqrt(2.5), standard error sqrt(0.5), t(0.975, 4) = 2.776445
        Estimate e = Stats.meanCi(new double[] {1, 2, 3, 4, 5});
        double half = 2.776445 * Math.sqrt(0.5);
        assertEquals(3, e.value(), 1e-12);
        assertEquals(3 - half, e.lo(), 1e-5);
        assertEquals(3 + half, e.hi(), 1e-5);
    }

    @Test
    void oneValueHasNoInterval() {
        Estimate e = Stats.meanCi(new double[] {4});
        assertEquals(4, e.value());
        assertFalse(e.bounded());
    }

    @Test
    void ratioWithoutNoiseIsExact() {
        Estimate r = Stats.ratioCi(new double[] {2, 2, 2}, new double[] {1, 1, 1});
        assertEquals(2, r.value(), 1e-12);
        assertEquals(2, r.lo(), 1e-12);
        assertEquals(2, r.hi(), 1e-12);
    }

    @Test
    void fiellerBoundsSolveItsQuadratic() {
        double[] num = {10, 12, 11, 13};
        double[] den = {5, 5.5, 4.5, 5.2};
        Estimate r = Stats.ratioCi(num, den);
        double a = Stats.mean(num);
        double b = Stats.mean(den);
        double va = Stats.variance(num) / num.length;
        double vb = Stats.variance(den) / den.length;
        assertEquals(a / b, r.value(), 1e-12);
        assertTrue(r.lo() < r.value() && r.value() < r.hi());
        double rvb = r.value() * r.value() * vb;
        double df = (va + rvb) * (va + rvb) / (va * va / (num.length - 1) + rvb * rvb / (den.length - 1));
        double t = Stats.tQuantile(0.975, df);
        // at each bound rho, (a - rho b)^2 = t^2 (va + rho^2 vb): the definition of Fieller's interval
        for (double rho : new double[] {r.lo(), r.hi()}) {
            double lhs = (a - rho * b) * (a - rho * b);
            double rhs = t * t * (va + rho * rho * vb);
            assertEquals(lhs, rhs, 1e-9 * Math.max(1, lhs));
        }
    }

    /** The share of a gain that a second change brings too, (a - c) / (a - b): the two differences share a. */
    @Test
    void fiellerForTwoDifferencesSharingASample() {
        double[] a = {0.50, 0.58, 0.47, 0.55, 0.52};
        double[] b = {0.12, 0.11, 0.13, 0.12, 0.12};
        double[] c = {0.13, 0.14, 0.12, 0.13, 0.15};
        Estimate r = Stats.linearRatioCi(new double[][] {a, b, c}, new double[] {1, 0, -1}, new double[] {1, -1, 0});
        double ma = Stats.mean(a);
        double mb = Stats.mean(b);
        double mc = Stats.mean(c);
        assertEquals((ma - mc) / (ma - mb), r.value(), 1e-12);
        assertTrue(r.lo() < r.value() && r.value() < r.hi(), r.toString());
        double va = Stats.variance(a) / a.length;
        double vb = Stats.variance(b) / b.length;
        double vc = Stats.variance(c) / c.length;
        double rho = r.value();
        double[] terms = {(1 - rho) * (1 - rho) * va, rho * rho * vb, vc};
        double sum = terms[0] + terms[1] + terms[2];
        double df = sum * sum / (terms[0] * terms[0] / 4 + terms[1] * terms[1] / 4 + terms[2] * terms[2] / 4);
        double t = Stats.tQuantile(0.975, df);
        // at each bound, (a - c - bound (a - b))^2 = t^2 ((1 - bound)^2 va + bound^2 vb + vc)
        for (double bound : new double[] {r.lo(), r.hi()}) {
            double lhs = Math.pow(ma - mc - bound * (ma - mb), 2);
            double rhs = t * t * ((1 - bound) * (1 - bound) * va + bound * bound * vb + vc);
            assertEquals(lhs, rhs, 1e-9 * Math.max(1e-6, lhs));
        }
        // as the plain ratio where the numerator and the denominator share nothing
        Estimate plain = Stats.linearRatioCi(new double[][] {a, b}, new double[] {1, 0}, new double[] {0, 1});
        assertEquals(Stats.ratioCi(a, b), plain);
    }

    @Test
    void geometricMeanOfRatiosWithItsInterval() {
        double[] num = {2.0, 2.2, 1.9, 2.1};
        double[] den = {1.0, 1.05, 0.95, 1.0};
        Estimate one = Stats.geomeanCi(List.of(num), List.of(den));
        double m1 = Stats.mean(num);
        double m2 = Stats.mean(den);
        assertEquals(m1 / m2, one.value(), 1e-12);
        double v1 = Stats.variance(num) / 4 / (m1 * m1);
        double v2 = Stats.variance(den) / 4 / (m2 * m2);
        double df = (v1 + v2) * (v1 + v2) / (v1 * v1 / 3 + v2 * v2 / 3);
        double half = Stats.tQuantile(0.975, df) * Math.sqrt(v1 + v2);
        assertEquals(m1 / m2 * Math.exp(-half), one.lo(), 1e-12);
        assertEquals(m1 / m2 * Math.exp(half), one.hi(), 1e-12);
        // two such ratios: the same mean, known better
        Estimate two = Stats.geomeanCi(List.of(num, num), List.of(den, den));
        assertEquals(one.value(), two.value(), 1e-12);
        assertTrue(two.lo() > one.lo() && two.hi() < one.hi(), two + " within " + one);
        // the mean of 2 and 0.5 is 1
        Estimate even = Stats.geomeanCi(List.of(new double[] {2, 2}, new double[] {1, 1}), List.of(new double[] {1, 1}, new double[] {2, 2}));
        assertEquals(1, even.value(), 1e-12);
        assertFalse(Stats.geomeanCi(List.of(new double[] {2}), List.of(new double[] {1})).bounded());
    }

    @Test
    void ratioOfNoisyDenominatorIsUnbounded() {
        // the stock mean's own interval reaches zero: the ratio can be anything
        Estimate r = Stats.ratioCi(new double[] {1, 1.1}, new double[] {0.1, 5});
        assertFalse(r.bounded());
    }

    @Test
    void geometricMeanAndMax() {
        assertEquals(2, Stats.geomean(List.of(1.0, 4.0)), 1e-12);
        assertEquals(4, Stats.geomean(List.of(2.0, 8.0, 4.0)), 1e-12);
        assertEquals(1.28, Stats.geomean(List.of(1.28)), 1e-12);
        assertEquals(8, Stats.max(List.of(2.0, 8.0, 4.0)));
        assertTrue(Double.isNaN(Stats.geomean(List.of())));
        assertThrows(IllegalArgumentException.class, () -> Stats.geomean(List.of(1.0, 0.0)));
    }
}
