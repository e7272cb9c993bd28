package dev.vbd.bench;

import dev.vbd.host.Stats.Estimate;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The two controls of the method, judged from the run's own measurements.
 * <ul>
 *   <li>Negative: vbd with everything relaxed against stock on one workload must come out at 1.00
 *       within its 95% interval. If it does not, the harness measures something besides the cost of
 *       sequential consistency, and no figure of the run counts.</li>
 *   <li>Positive: the store loop under vbd against stock must have its whole interval above 1: a
 *       harness that cannot see that cost cannot see any.</li>
 * </ul>
 */
final class Controls {
    private Controls() {}

    enum Verdict { PASS, FAIL, INCONCLUSIVE, NOT_RUN }

    record Result(String name, String workload, Config config, int threads, Estimate ratio, Verdict verdict,
                  String expectation, String note) {

        Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("workload", workload);
            m.put("config", config.id);
            m.put("baseline", config.baseline);
            m.put("threads", threads);
            m.put("ratio", ratio == null ? null : ratio.value());
            m.put("ci95", ratio == null ? null : java.util.Arrays.asList(ratio.lo(), ratio.hi()));
            m.put("expectation", expectation);
            m.put("verdict", verdict.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '));
            m.put("pass", verdict == Verdict.PASS);
            if (note != null) m.put("note", note);
            return m;
        }
    }

    static final String NEGATIVE_EXPECTATION = "1.00 within the 95% interval";
    /**
     * The widest interval that can still judge the negative control: wider than this (about ±25%),
     * it would contain 1.00 as readily as the overheads the run is there to measure.
     */
    static final double NEGATIVE_MAX_WIDTH = 0.5;
    static final String POSITIVE_EXPECTATION = "95% interval above 1";

    static Result negative(Analysis a, String workload, int threads, String whyNotRun) {
        Config c = Config.VBD_ALL_RELAXED;
        if (whyNotRun != null) return new Result("negative", workload, c, threads, null, Verdict.NOT_RUN, NEGATIVE_EXPECTATION, whyNotRun);
        Estimate r = workload == null ? null : a.ratio(workload, c, threads);
        if (r == null) return new Result("negative", workload, c, threads, null, Verdict.NOT_RUN, NEGATIVE_EXPECTATION, "no complete invocations");
        if (!r.bounded()) {
            return new Result("negative", workload, c, threads, r, Verdict.INCONCLUSIVE, NEGATIVE_EXPECTATION,
                    "the interval is unbounded: too few or too noisy invocations to judge");
        }
        if (r.hi() - r.lo() > NEGATIVE_MAX_WIDTH) {
            return new Result("negative", workload, c, threads, r, Verdict.INCONCLUSIVE, NEGATIVE_EXPECTATION,
                    String.format(java.util.Locale.ROOT, "the interval is wider than %.2f: too few or too noisy invocations to judge",
                            NEGATIVE_MAX_WIDTH));
        }
        return new Result("negative", workload, c, threads, r, r.contains(1.0) ? Verdict.PASS : Verdict.FAIL,
                NEGATIVE_EXPECTATION, null);
    }

    static Result positive(Analysis a, String workload, String whyNotRun) {
        Config c = Config.VBD;
        if (whyNotRun != null) return new Result("positive", workload, c, 1, null, Verdict.NOT_RUN, POSITIVE_EXPECTATION, whyNotRun);
        Estimate r = a.ratio(workload, c, 1);
        if (r == null) return new Result("positive", workload, c, 1, null, Verdict.NOT_RUN, POSITIVE_EXPECTATION, "no complete invocations");
        if (!r.bounded()) {
            return new Result("positive", workload, c, 1, r, Verdict.INCONCLUSIVE, POSITIVE_EXPECTATION,
                    "the interval is unbounded: too few or too noisy invocations to judge");
        }
        return new Result("positive", workload, c, 1, r, r.lo() > 1 ? Verdict.PASS : Verdict.FAIL, POSITIVE_EXPECTATION, null);
    }
}
