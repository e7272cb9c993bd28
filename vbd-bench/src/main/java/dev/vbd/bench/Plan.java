package dev.vbd.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The order of the invocations. Configurations alternate invocation by invocation (stock, vbd,
 * stock-notiered, vbd+relaxed, stock, ...), so that a drift of the machine over the run (other
 * jobs, thermal state) lands on every configuration alike instead of on whichever ran last.
 */
final class Plan {
    private Plan() {}

    /**
     * @param workloads     the workloads, in order
     * @param configs       the configurations of the headline thread count, baseline first
     * @param headline      the configuration of the headline ratio (the other thread counts run it and its baseline)
     * @param threads       the thread counts, ascending; the highest is the headline
     * @param invocations   invocations per configuration at the headline thread count
     * @param sweepInvocations invocations per configuration at the other thread counts
     * @param negative      the workload the negative control runs on, or null for none
     * @param positive      the positive control's workload, or null for none
     * @param positiveInvocations invocations of the positive control per configuration: they take a
     *                      second each, so even a quick run can afford enough for a bounded interval
     */
    static List<Invocation> build(List<WorkloadSpec> workloads, List<Config> configs, Config headline,
                                  List<Integer> threads, int invocations, int sweepInvocations,
                                  WorkloadSpec negative, WorkloadSpec positive,
                                  int positiveInvocations) {
        int top = threads.get(threads.size() - 1);
        List<Invocation> plan = new ArrayList<>();
        if (positive != null) {
            interleave(plan, positive, List.of(Config.STOCK, Config.VBD), 1, positiveInvocations);
        }
        for (WorkloadSpec w : workloads) {
            for (int t : w.threaded() ? threads : List.of(top)) {
                List<Config> cs = new ArrayList<>();
                if (t == top) {
                    cs.addAll(configs);
                    if (w == negative) cs.add(Config.VBD_ALL_RELAXED);
                } else {
                    cs.add(headline.baselineConfig());
                    cs.add(headline);
                }
                interleave(plan, w, cs, t, t == top ? invocations : sweepInvocations);
            }
        }
        return plan;
    }

    private static void interleave(List<Invocation> plan, WorkloadSpec w, List<Config> configs, int threads, int n) {
        for (int i = 0; i < n; i++) {
            for (Config c : configs) plan.add(new Invocation(w, c, threads, i));
        }
    }
}
