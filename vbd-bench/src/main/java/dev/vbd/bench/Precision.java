package dev.vbd.bench;

import dev.vbd.host.Stats.Estimate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The precision a run aims at ({@code --precision}): a workload whose headline ratios' 95% intervals
 * are wider than the target gets another interleaved round of invocations, every configuration it
 * ran at the headline thread count once more, until the intervals are narrow enough or it reaches
 * the cap. Invocations differ by 10 to 25% on a shared 2-core machine, mostly by where the JIT
 * settles, so more iterations inside one JVM narrow little; more JVMs do. Rounds rather than a
 * batch per workload keep the interleaving: a drift of the machine lands on every configuration
 * alike.
 */
final class Precision {
    private Precision() {}

    /**
     * Where one workload stands: the fewest complete invocations of its configurations at the
     * headline thread count, and its widest headline ratio's half-width relative to the ratio
     * (infinite where an interval is unbounded or missing).
     */
    record Status(String workload, int invocations, double halfWidth, boolean reached) {
        /**
         * About how many invocations per configuration the target would take at the spread seen so
         * far (a half-width shrinks as one over the square root of their number; Student's t
         * shrinks too, so this errs high), or 0 where it is reached or the interval is unbounded.
         */
        int needed(double target) {
            if (reached || !Double.isFinite(halfWidth) || invocations < 2) return 0;
            double ratio = halfWidth / target;
            return (int) Math.ceil(invocations * ratio * ratio - 1e-9);
        }
    }

    /**
     * The larger distance from the ratio to a bound of its interval, as a fraction of the ratio: a
     * Fieller interval is not symmetric, and the wider side is the one that limits a claim.
     */
    static double halfWidth(Estimate e) {
        if (e == null || !e.bounded() || e.value() <= 0) return Double.POSITIVE_INFINITY;
        return Math.max(e.hi() / e.value() - 1, 1 - e.lo() / e.value());
    }

    /** The status of every workload that has not failed. {@code target}: a fraction (0.05 for 5%). */
    static List<Status> status(Analysis a, List<WorkloadSpec> workloads, List<Config> compared, int threads,
                               double target) {
        List<Status> out = new ArrayList<>();
        for (WorkloadSpec w : workloads) {
            double widest = 0;
            int fewest = Integer.MAX_VALUE;
            for (Config c : compared) {
                widest = Math.max(widest, halfWidth(a.ratio(w.id(), c, threads)));
                fewest = Math.min(fewest, Math.min(a.scores(w.id(), c, threads).length,
                        a.scores(w.id(), c.baselineConfig(), threads).length));
            }
            if (compared.isEmpty()) fewest = 0;
            out.add(new Status(w.id(), fewest, widest, widest <= target));
        }
        return out;
    }

    /** The workloads that get another round: not yet precise enough, and below the cap. */
    static List<String> needMore(List<Status> status, int maxInvocations) {
        return status.stream().filter(s -> !s.reached() && s.invocations() < maxInvocations).map(Status::workload).toList();
    }

    /**
     * One more invocation of each configuration {@code plan} ran for the workload at the thread
     * count, in the plan's order, each numbered after the last of its kind.
     */
    static List<Invocation> round(List<Invocation> plan, String workload, int threads) {
        Map<String, Integer> counts = Plan.countsByLabel(plan);
        List<Invocation> out = new ArrayList<>();
        for (Invocation inv : plan) {
            if (!inv.workload().id().equals(workload) || inv.threads() != threads) continue;
            Invocation next = new Invocation(inv.workload(), inv.config(), threads, counts.get(inv.label()));
            if (!out.contains(next)) out.add(next);
        }
        return out;
    }
}
