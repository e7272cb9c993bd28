package dev.vbd.core.stats;

import java.util.List;

/**
 * The statistics of the method: invocation scores summarised by their mean with a Student-t 95%
 * interval, ratios of two such means with an interval, and the geometric mean of ratios.
 *
 * <p>Intervals are over invocations, never over iterations: iterations of one JVM share its JIT
 * decisions, heap layout and code placement, so they are not independent samples of the cost.
 */
public final class Stats {
    private Stats() {}

    /** A point estimate with its 95% interval; the bounds are NaN where no interval exists. */
    public record Estimate(double value, double lo, double hi) {
        public boolean contains(double x) {
            return lo <= x && x <= hi;
        }

        public boolean bounded() {
            return Double.isFinite(lo) && Double.isFinite(hi);
        }
    }

    public static double mean(double[] xs) {
        if (xs.length == 0) throw new IllegalArgumentException("mean of no values");
        double s = 0;
        for (double x : xs) s += x;
        return s / xs.length;
    }

    /** Sample variance (n - 1 in the denominator). */
    public static double variance(double[] xs) {
        if (xs.length < 2) return Double.NaN;
        double m = mean(xs);
        double ss = 0;
        for (double x : xs) ss += (x - m) * (x - m);
        return ss / (xs.length - 1);
    }

    /** Mean with the two-sided 95% Student-t interval of the mean. */
    public static Estimate meanCi(double[] xs) {
        double m = mean(xs);
        if (xs.length < 2) return new Estimate(m, Double.NaN, Double.NaN);
        double half = tQuantile(0.975, xs.length - 1) * Math.sqrt(variance(xs) / xs.length);
        return new Estimate(m, m - half, m + half);
    }

    /**
     * mean(num) / mean(den) with a 95% interval by Fieller's theorem for two independent samples.
     * Fieller rather than the delta method: the delta method's symmetric interval is too narrow when
     * the denominator's interval is wide relative to its mean, which few invocations on a noisy
     * machine produce; Fieller's stays exact for normal means and turns unbounded (NaN here) when
     * the denominator is not distinguishable from zero. Degrees of freedom: Welch-Satterthwaite for
     * the variance of mean(num) - r * mean(den), since the two configurations' variances differ.
     */
    public static Estimate ratioCi(double[] num, double[] den) {
        double a = mean(num);
        double b = mean(den);
        double r = a / b;
        if (num.length < 2 || den.length < 2) return new Estimate(r, Double.NaN, Double.NaN);
        double va = variance(num) / num.length;
        double vb = variance(den) / den.length;
        double df = welchDf(va, num.length, r * r * vb, den.length);
        double t = tQuantile(0.975, df);
        double g = t * t * vb / (b * b);
        if (g >= 1) return new Estimate(r, Double.NaN, Double.NaN);
        double half = (t / Math.abs(b)) * Math.sqrt(va * (1 - g) + r * r * vb);
        return new Estimate(r, (r - half) / (1 - g), (r + half) / (1 - g));
    }

    /** Welch-Satterthwaite degrees of freedom of the sum of two variances of means. */
    static double welchDf(double v1, int n1, double v2, int n2) {
        double num = (v1 + v2) * (v1 + v2);
        double den = v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1);
        if (den == 0) return n1 + n2 - 2;
        return num / den;
    }

    public static double geomean(List<Double> xs) {
        if (xs.isEmpty()) return Double.NaN;
        double s = 0;
        for (double x : xs) {
            if (!(x > 0)) throw new IllegalArgumentException("geometric mean of a non-positive value " + x);
            s += Math.log(x);
        }
        return Math.exp(s / xs.size());
    }

    public static double max(List<Double> xs) {
        double m = Double.NaN;
        for (double x : xs) if (Double.isNaN(m) || x > m) m = x;
        return m;
    }

    /** The p-quantile of Student's t with df (possibly fractional) degrees of freedom. */
    public static double tQuantile(double p, double df) {
        if (!(p > 0 && p < 1)) throw new IllegalArgumentException("quantile of p=" + p);
        if (!(df > 0)) throw new IllegalArgumentException("t quantile with df=" + df);
        if (p < 0.5) return -tQuantile(1 - p, df);
        if (p == 0.5) return 0;
        double lo = 0;
        double hi = 1;
        while (tCdf(hi, df) < p) hi *= 2;
        for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
            double mid = (lo + hi) / 2;
            if (tCdf(mid, df) < p) lo = mid;
            else hi = mid;
        }
        return (lo + hi) / 2;
    }

    /** P(T <= t) for Student's t with df degrees of freedom. */
    public static double tCdf(double t, double df) {
        double x = df / (df + t * t);
        double tail = 0.5 * regularizedBeta(x, df / 2, 0.5);
        return t >= 0 ? 1 - tail : tail;
    }

    /** I_x(a, b), by the continued fraction of Numerical Recipes (betacf) with Lentz's method. */
    static double regularizedBeta(double x, double a, double b) {
        if (x <= 0) return 0;
        if (x >= 1) return 1;
        double front = Math.exp(a * Math.log(x) + b * Math.log1p(-x) - logBeta(a, b));
        // the fraction converges fast only on this side of the mean; use the symmetry otherwise
        if (x > (a + 1) / (a + b + 2)) return 1 - regularizedBeta(1 - x, b, a);
        return front * betaFraction(x, a, b) / a;
    }

    private static double betaFraction(double x, double a, double b) {
        final double tiny = 1e-300;
        double qab = a + b;
        double qap = a + 1;
        double qam = a - 1;
        double c = 1;
        double d = 1 - qab * x / qap;
        if (Math.abs(d) < tiny) d = tiny;
        d = 1 / d;
        double h = d;
        for (int m = 1; m <= 1000; m++) {
            int m2 = 2 * m;
            double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
            d = 1 + aa * d;
            if (Math.abs(d) < tiny) d = tiny;
            c = 1 + aa / c;
            if (Math.abs(c) < tiny) c = tiny;
            d = 1 / d;
            h *= d * c;
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
            d = 1 + aa * d;
            if (Math.abs(d) < tiny) d = tiny;
            c = 1 + aa / c;
            if (Math.abs(c) < tiny) c = tiny;
            d = 1 / d;
            double del = d * c;
            h *= del;
            if (Math.abs(del - 1) < 1e-15) break;
        }
        return h;
    }

    private static double logBeta(double a, double b) {
        return logGamma(a) + logGamma(b) - logGamma(a + b);
    }

    /** ln Γ(x) for x > 0, Lanczos approximation (g = 7, n = 9), about 15 significant digits. */
    static double logGamma(double x) {
        final double[] c = {0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
                -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
                1.5056327351493116e-7};
        if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
        x -= 1;
        double s = c[0];
        for (int i = 1; i < 9; i++) s += c[i] / (x + i);
        double t = x + 7.5;
        return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(s);
    }
}
