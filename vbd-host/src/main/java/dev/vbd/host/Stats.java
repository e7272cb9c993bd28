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
        return linearRatioCi(new double[][] {num, den}, new double[] {1, 0}, new double[] {0, 1});
    }

    /**
     * N / D for two linear combinations of the means of independent samples, N = sum n[i] mean(samples[i])
     * and D = sum d[i] mean(samples[i]), with its 95% interval by Fieller's theorem: the values r for which
     * N - r D is not distinguishable from zero, whose variance is sum (n[i] - r d[i])^2 var(mean(samples[i])).
     * The two may share samples, as (a - c) / (a - b) does: the share of a gain b brings that c brings too.
     * Degrees of freedom: Welch-Satterthwaite over that sum at the point estimate. Unbounded (NaN) where D is
     * not distinguishable from zero, or where a sample has fewer than two values.
     */
    public static Estimate linearRatioCi(double[][] samples, double[] n, double[] d) {
        double top = 0;
        double bottom = 0;
        for (int i = 0; i < samples.length; i++) {
            double m = mean(samples[i]);
            top += n[i] * m;
            bottom += d[i] * m;
        }
        double r = top / bottom;
        double[] v = new double[samples.length];
        double num = 0;
        double den = 0;
        for (int i = 0; i < samples.length; i++) {
            if (samples[i].length < 2) return new Estimate(r, Double.NaN, Double.NaN);
            v[i] = variance(samples[i]) / samples[i].length;
            double term = (n[i] - r * d[i]) * (n[i] - r * d[i]) * v[i];
            num += term;
            den += term * term / (samples[i].length - 1);
        }
        int dfAll = -samples.length;
        for (double[] xs : samples) dfAll += xs.length;
        double t = tQuantile(0.975, den == 0 ? dfAll : num * num / den);
        // (top - r bottom)^2 <= t^2 sum (n[i] - r d[i])^2 v[i], a quadratic a r^2 + b r + c <= 0
        double vnn = 0;
        double vnd = 0;
        double vdd = 0;
        for (int i = 0; i < samples.length; i++) {
            vnn += n[i] * n[i] * v[i];
            vnd += n[i] * d[i] * v[i];
            vdd += d[i] * d[i] * v[i];
        }
        double t2 = t * t;
        double a = bottom * bottom - t2 * vdd;
        double b = -2 * (top * bottom - t2 * vnd);
        double c = top * top - t2 * vnn;
        if (a <= 0) return new Estimate(r, Double.NaN, Double.NaN);
        // the quadratic is at most 0 at r itself, so it has real roots: a negative discriminant is rounding
        double root = Math.sqrt(Math.max(0, b * b - 4 * a * c));
        return new Estimate(r, (-b - root) / (2 * a), (-b + root) / (2 * a));
    }

    /**
     * The geometric mean of the ratios mean(nums[k]) / mean(dens[k]) with a 95% interval: the mean of
     * the log ratios, whose variance is sum over k of var(mean) / mean^2 for each of the two samples (the
     * delta method, which on the log scale of a ratio is close to exact once each mean is well away from
     * zero), divided by the number of ratios squared; Student-t with Welch-Satterthwaite's degrees of freedom.
     */
    public static Estimate geomeanCi(List<double[]> nums, List<double[]> dens) {
        int k = nums.size();
        if (k == 0 || k != dens.size()) throw new IllegalArgumentException("geometric mean of " + k + " ratios and " + dens.size() + " baselines");
        double logs = 0;
        double var = 0;
        double df = 0;
        boolean bounded = true;
        for (int i = 0; i < k; i++) {
            for (int side = 0; side < 2; side++) {
                double[] xs = side == 0 ? nums.get(i) : dens.get(i);
                double m = mean(xs);
                if (!(m > 0)) throw new IllegalArgumentException("geometric mean of a ratio with a non-positive mean " + m);
                logs += side == 0 ? Math.log(m) : -Math.log(m);
                if (xs.length < 2) {
                    bounded = false;
                    continue;
                }
                double term = variance(xs) / xs.length / (m * m);
                var += term;
                df += term * term / (xs.length - 1);
            }
        }
        double g = Math.exp(logs / k);
        if (!bounded) return new Estimate(g, Double.NaN, Double.NaN);
        double half = tQuantile(0.975, df == 0 ? 2 * k : var * var / df) * Math.sqrt(var) / k;
        return new Estimate(g, g * Math.exp(-half), g * Math.exp(half));
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
