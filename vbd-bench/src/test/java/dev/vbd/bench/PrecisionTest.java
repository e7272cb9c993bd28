package dev.vbd.bench;

import dev.vbd.host.Stats.Estimate;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which workloads get another round of invocations, from invented scores. */
class PrecisionTest {
    private static final WorkloadSpec A = spec("a");
    private static final WorkloadSpec B = spec("b");

    private static WorkloadSpec spec(String id) {
        return new WorkloadSpec(id, "Main", List.of(), Map.of(), "cp", 100, true, false);
    }

    private static void add(List<Measurement> ms, String w, Config c, double... scoresMs) {
        for (int i = 0; i < scoresMs.length; i++) {
            ms.add(new Measurement(w, c.id, 2, i, 100, new double[] {9 * scoresMs[i], scoresMs[i]}, 1, 1.0));
        }
    }

    /** Workload a: invocations within 1% of each other, vbd / stock = 1.50 known to about 1%. */
    private static List<Measurement> narrowA() {
        List<Measurement> ms = new ArrayList<>();
        add(ms, "a", Config.STOCK, 100, 101, 99);
        add(ms, "a", Config.VBD, 150, 151, 149);
        return ms;
    }

    @Test
    void halfWidthIsTheWiderSideOfTheInterval() {
        assertEquals(0.25, Precision.halfWidth(new Estimate(1.0, 0.75, 1.1)), 1e-12);
        assertEquals(0.5, Precision.halfWidth(new Estimate(2.0, 1.8, 3.0)), 1e-12);
        assertEquals(Double.POSITIVE_INFINITY, Precision.halfWidth(new Estimate(1.0, Double.NaN, Double.NaN)));
        assertEquals(Double.POSITIVE_INFINITY, Precision.halfWidth(null));
    }

    @Test
    void onlyWideWorkloadsBelowTheCapGetAnotherRound() {
        List<Measurement> ms = narrowA();
        // b: invocations 30% apart
        add(ms, "b", Config.STOCK, 100, 130, 80);
        add(ms, "b", Config.VBD, 110, 90, 140);
        Analysis an = new Analysis(ms);
        List<Precision.Status> st = Precision.status(an, List.of(A, B), List.of(Config.VBD), 2, 0.05);
        assertTrue(st.get(0).reached(), st.get(0).toString());
        assertFalse(st.get(1).reached(), st.get(1).toString());
        assertEquals(3, st.get(1).invocations());
        assertEquals(List.of("b"), Precision.needMore(st, 10));
        assertEquals(List.of(), Precision.needMore(st, 3), "b is at the cap");
        // the width falls as one over the root of the invocations: four times as wide, sixteen times as many
        Precision.Status wide = new Precision.Status("b", 3, 0.20, false);
        assertEquals(48, wide.needed(0.05));
        assertEquals(0, st.get(0).needed(0.05), "a is there already");
        assertEquals(0, new Precision.Status("b", 3, Double.POSITIVE_INFINITY, false).needed(0.05));
        // a looser target lets b stop too
        assertTrue(Precision.status(an, List.of(B), List.of(Config.VBD), 2, 2.0).get(0).reached());
    }

    @Test
    void theWidestComparedConfigurationDecides() {
        List<Measurement> ms = narrowA();
        add(ms, "a", Config.VBD_FENCED, 100, 160, 130);
        Precision.Status s = Precision.status(new Analysis(ms), List.of(A), List.of(Config.VBD, Config.VBD_FENCED), 2, 0.05).get(0);
        assertFalse(s.reached());
        assertTrue(s.halfWidth() > 0.2, s.toString());
    }

    @Test
    void aConfigurationShortOfInvocationsCountsItsFewest() {
        List<Measurement> ms = new ArrayList<>();
        add(ms, "a", Config.STOCK, 100, 101, 99, 100);
        add(ms, "a", Config.VBD, 150, 151);
        assertEquals(2, Precision.status(new Analysis(ms), List.of(A), List.of(Config.VBD), 2, 0.05).get(0).invocations());
    }

    @Test
    void aRoundRunsEachConfigurationOfTheWorkloadOnceMoreInPlanOrder() {
        List<Invocation> plan = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            plan.add(new Invocation(A, Config.STOCK, 2, i));
            plan.add(new Invocation(A, Config.VBD, 2, i));
            plan.add(new Invocation(A, Config.VBD_ALL_RELAXED, 2, i));
        }
        plan.add(new Invocation(A, Config.STOCK, 1, 0));
        plan.add(new Invocation(B, Config.STOCK, 2, 0));
        List<Invocation> round = Precision.round(plan, "a", 2);
        assertEquals(List.of(new Invocation(A, Config.STOCK, 2, 3), new Invocation(A, Config.VBD, 2, 3),
                new Invocation(A, Config.VBD_ALL_RELAXED, 2, 3)), round);
    }
}
