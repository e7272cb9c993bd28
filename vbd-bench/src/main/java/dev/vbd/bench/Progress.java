package dev.vbd.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Progress lines on stderr with an estimate of the time left. The estimate prices each remaining
 * invocation at the mean wall time of those already done with the same workload and configuration,
 * else the same workload, else all of them: JVM start and iteration times differ by workload far
 * more than by invocation.
 */
final class Progress {
    private final PrintStream err;
    private final List<Invocation> plan;
    private Map<String, Integer> perLabel;
    private final Map<String, double[]> byPair = new HashMap<>();
    private final Map<String, double[]> byWorkload = new HashMap<>();
    private final double[] all = new double[2];
    private final long start = System.nanoTime();
    private int done;

    Progress(PrintStream err, List<Invocation> plan) {
        this.err = err;
        this.plan = new ArrayList<>(plan);
        this.perLabel = Plan.countsByLabel(plan);
    }

    /** Invocations added to the end of the plan (another round for precision). */
    void extend(List<Invocation> more) {
        plan.addAll(more);
        perLabel = Plan.countsByLabel(plan);
    }

    void note(String line) {
        err.println("vbd bench: " + line);
    }

    /** Records the wall time of the invocation just finished and prints its line. */
    void finished(Invocation inv, String result, double wallS) {
        add(byPair, pairKey(inv), wallS);
        add(byWorkload, inv.workload().id(), wallS);
        all[0] += wallS;
        all[1]++;
        done++;
        err.printf(Locale.ROOT, "[%d/%d] %s invocation %d/%d: %s (%.1f s); elapsed %s, about %s left%n", done, plan.size(),
                inv.label(), inv.index() + 1, perLabel.getOrDefault(inv.label(), 0), result, wallS, duration(elapsedS()), duration(remainingS()));
    }

    /** An invocation that will not run (its workload failed): it no longer counts toward the estimate. */
    void skipped() {
        done++;
    }

    double elapsedS() {
        return (System.nanoTime() - start) / 1e9;
    }

    double remainingS() {
        double s = 0;
        for (int i = done; i < plan.size(); i++) s += estimate(plan.get(i));
        return s;
    }

    private double estimate(Invocation inv) {
        double[] p = byPair.get(pairKey(inv));
        if (p != null) return p[0] / p[1];
        double[] w = byWorkload.get(inv.workload().id());
        if (w != null) return w[0] / w[1];
        return all[1] > 0 ? all[0] / all[1] : 15;
    }

    private static String pairKey(Invocation inv) {
        return inv.workload().id() + "|" + inv.config().id + "|" + inv.threads();
    }

    private static void add(Map<String, double[]> m, String key, double x) {
        double[] a = m.computeIfAbsent(key, k -> new double[2]);
        a[0] += x;
        a[1]++;
    }

    static String duration(double seconds) {
        long s = Math.round(seconds);
        if (s < 60) return s + "s";
        if (s < 3600) return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
    }
}
