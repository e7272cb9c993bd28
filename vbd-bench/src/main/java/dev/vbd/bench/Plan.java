package dev.vbd.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
     * @param negativeThreads the thread count of the negative control: one of the workload's
     * @param negativeInvocations invocations per configuration at the negative control's point, when
     *                      more than the point would have anyway: the control judges a 1.00, so its
     *                      interval must be narrower than the overheads the run measures
     * @param positive      the positive control's workload, or null for none
     * @param positiveInvocations invocations of the positive control per configuration: they take a
     *                      second each, so even a quick run can afford enough for a bounded interval
     */
    static List<Invocation> build(List<WorkloadSpec> workloads, List<Config> configs, Config headline,
                                  List<Integer> threads, int invocations, int sweepInvocations,
                                  WorkloadSpec negative, int negativeThreads, int negativeInvocations,
                                  WorkloadSpec positive, int positiveInvocations) {
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
                } else {
                    cs.add(headline.baselineConfig());
                    cs.add(headline);
                }
                int n = t == top ? invocations : sweepInvocations;
                if (w == negative && t == negativeThreads) {
                    if (!cs.contains(Config.STOCK)) cs.add(0, Config.STOCK);
                    cs.add(Config.VBD_ALL_RELAXED);
                    n = Math.max(n, negativeInvocations);
                }
                interleave(plan, w, cs, t, n);
            }
        }
        return plan;
    }

    /** Invocations per label (workload, configuration, threads), in plan order. */
    static Map<String, Integer> countsByLabel(List<Invocation> plan) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Invocation inv : plan) counts.merge(inv.label(), 1, Integer::sum);
        return counts;
    }

    private static void interleave(List<Invocation> plan, WorkloadSpec w, List<Config> configs, int threads, int n) {
        for (int i = 0; i < n; i++) {
            for (Config c : configs) plan.add(new Invocation(w, c, threads, i));
        }
    }
}
