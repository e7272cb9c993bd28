package dev.vbd.host;

import org.apache.commons.math3.distribution.TDistribution;

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
        return student(df).inverseCumulativeProbability(p);
    }

    /** P(T <= t) for Student's t with df degrees of freedom. */
    public static double tCdf(double t, double df) {
        return student(df).cumulativeProbability(t);
    }

    private static TDistribution student(double df) {
        if (!(df > 0)) throw new IllegalArgumentException("t distribution with df=" + df);
        // no random generator: these distributions are only evaluated, never sampled
        return new TDistribution(null, df, INVERSE_ACCURACY);
    }

    /** Absolute accuracy of a quantile: far below the rounding of any interval vbd reports. */
    private static final double INVERSE_ACCURACY = 1e-12;
}
