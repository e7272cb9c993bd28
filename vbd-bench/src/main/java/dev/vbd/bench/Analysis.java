package dev.vbd.bench;

import dev.vbd.host.Stats.Estimate;
import dev.vbd.host.Stats;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/** The statistics of a run's measurements, by workload, configuration and thread count. */
final class Analysis {
    private final List<Measurement> measurements;

    Analysis(List<Measurement> measurements) {
        this.measurements = List.copyOf(measurements);
    }

    List<Measurement> measurements() {
        return measurements;
    }

    boolean has(String workload, Config config, int threads) {
        return values(workload, config, threads, Measurement::scoreMs).length > 0;
    }

    /** Invocation scores (ms per iteration after warm-up). */
    double[] scores(String workload, Config config, int threads) {
        return values(workload, config, threads, Measurement::scoreMs);
    }

    Estimate score(String workload, Config config, int threads) {
        double[] xs = scores(workload, config, threads);
        return xs.length == 0 ? null : Stats.meanCi(xs);
    }

    /** The first iteration of each fresh JVM: the start-up figure. */
    Estimate first(String workload, Config config, int threads) {
        double[] xs = values(workload, config, threads, Measurement::firstMs);
        return xs.length == 0 ? null : Stats.meanCi(xs);
    }

    /** CPU ms per iteration after warm-up, all the JVM's threads; null unless every invocation reported it. */
    Estimate cpu(String workload, Config config, int threads) {
        double[] xs = values(workload, config, threads, Measurement::cpuScoreMs);
        for (double x : xs) {
            if (Double.isNaN(x)) return null;
        }
        return xs.length == 0 ? null : Stats.meanCi(xs);
    }

    /** CPU time, config / its baseline; null unless both reported it in every invocation. */
    Estimate cpuRatio(String workload, Config config, int threads) {
        Config base = config.baselineConfig();
        if (base == null || cpu(workload, config, threads) == null || cpu(workload, base, threads) == null) return null;
        return Stats.ratioCi(values(workload, config, threads, Measurement::cpuScoreMs),
                values(workload, base, threads, Measurement::cpuScoreMs));
    }

    /** config / its baseline, or null where either has no complete invocations. */
    Estimate ratio(String workload, Config config, int threads) {
        Config base = config.baselineConfig();
        if (base == null) return null;
        double[] num = scores(workload, config, threads);
        double[] den = scores(workload, base, threads);
        if (num.length == 0 || den.length == 0) return null;
        return Stats.ratioCi(num, den);
    }

    /** The geometric mean of config / its baseline over {@code workloads}, with its interval; null where none has both. */
    Estimate geomean(Config config, List<String> workloads, int threads) {
        Config base = config.baselineConfig();
        if (base == null) return null;
        List<double[]> nums = new ArrayList<>();
        List<double[]> dens = new ArrayList<>();
        for (String w : workloads) {
            double[] num = scores(w, config, threads);
            double[] den = scores(w, base, threads);
            if (num.length == 0 || den.length == 0) continue;
            nums.add(num);
            dens.add(den);
        }
        return nums.isEmpty() ? null : Stats.geomeanCi(nums, dens);
    }

    /**
     * The share of the gain a fix by hand ({@code fixed}, the workload's fixed variant, under {@code base})
     * that {@code repair} brings to the workload itself: (base - repair) / (base - base fixed); null unless
     * all three ran.
     */
    Estimate share(String workload, String fixed, Config repair, Config base, int threads) {
        double[] a = scores(workload, base, threads);
        double[] b = scores(fixed, base, threads);
        double[] c = scores(workload, repair, threads);
        if (a.length == 0 || b.length == 0 || c.length == 0) return null;
        return Stats.linearRatioCi(new double[][] {a, b, c}, new double[] {1, 0, -1}, new double[] {1, -1, 0});
    }

    /** One workload's score under {@code num} over another's under {@code den}; null unless both ran. */
    Estimate across(String numWorkload, Config num, String denWorkload, Config den, int threads) {
        double[] a = scores(numWorkload, num, threads);
        double[] b = scores(denWorkload, den, threads);
        return a.length == 0 || b.length == 0 ? null : Stats.ratioCi(a, b);
    }

    private double[] values(String workload, Config config, int threads, ToDoubleFunction<Measurement> f) {
        return measurements.stream()
                .filter(m -> m.workload().equals(workload) && m.config().equals(config.id) && m.threads() == threads)
                .mapToDouble(f).toArray();
    }
}
