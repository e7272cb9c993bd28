package dev.vbd.cli.advise;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the advice gave back on runs of its own, and how the config and the summary say it. */
class MeasuredTest {
    private static final String HOT = "a.b.Hot#m()V";
    private static final String CALLER = "a.c.Caller#m()V";

    /** One run: {@code hot} samples in a.b.Hot, {@code caller} in a.c.Caller, the rest elsewhere. */
    private static Profile run(long hot, long caller, long total) {
        Profile p = new Profile();
        p.samples.put(HOT, hot);
        p.samples.put(CALLER, caller);
        p.samples.put("a.Other#m()V", total - hot - caller);
        p.program.addAll(p.samples.keySet());
        p.total = total;
        return p;
    }

    private static Advice advised(Cost... rules) {
        Map<String, Map<?, ?>> evidence = new java.util.HashMap<>();
        for (Cost c : rules) evidence.put(c.scope(), Map.of("accesses", 10L, "confined", 2L, "ordered", 0L));
        return Advice.choose(List.of(rules), List.of(), evidence, 20, 1000, 800);
    }

    @Test
    void aRulesGainIsWhatItsOwnCodeLostOnRunsOfTheirOwnAndTheRatioIsOfWholeRuns() {
        Cost pkg = new Cost("a.b.*", 50, 250, true);
        // the rule's code lost 100 of its 200 samples a run; the caller took 40 of them back (the cost moved)
        Measured m = Measured.of(List.of(run(200, 100, 1000), run(200, 100, 1010), run(200, 100, 990)),
                List.of(run(100, 140, 940), run(100, 140, 950), run(100, 140, 945)));
        assertEquals(0.1, m.gain(pkg), 1e-9); // (600 - 300) / 3000
        assertEquals(2 * Math.sqrt(900) / 3000, m.noise(pkg), 1e-9);
        assertEquals(-0.04, m.gain(new Cost(CALLER, 0, 1, true)), 1e-9); // it gained none: it took 120 more
        assertEquals(2835.0 / 3000, m.ratio().value(), 1e-9);
        assertTrue(m.ratio().bounded() && m.ratio().lo() < m.ratio().value() && m.ratio().hi() < 1, m.ratio().toString());

        Advice a = advised(pkg);
        String config = a.config(List.of("Main"), List.of(), "the sampler took 400 rounds a second", m);
        assertTrue(config.contains("# Measured apart, on 3 runs each under vbd and under the advice, alternating, not those the rules\n"
                + "# were chosen on: the run under the advice took 0.95 of its time under vbd (its samples at one\n"
                + "# pace), 95% interval [0.93, 0.96]; the rules' own code gave back 10.0% ± 2.0% of the run under vbd.\n"), config);
        assertTrue(config.contains("# measured apart: 10.0% ± 2.0% of the run under vbd (600 samples under vbd, 300 under the advice)\n"
                + "method a.b.*#*\n"), config);
        assertTrue(a.summary("app.relaxed", m).contains("vbd: advise: Measured apart, on 3 runs each"), a.summary("app.relaxed", m));
    }

    @Test
    void oneRunOfEachGivesNoIntervalAndSaysSo() {
        Measured m = Measured.of(List.of(run(200, 0, 1000)), List.of(run(190, 0, 990)));
        assertFalse(m.ratio().bounded());
        String words = m.inWords(List.of());
        assertTrue(words.contains("took 0.99 of its time under vbd (its samples at one pace), no interval from one run of each"), words);
        assertFalse(advised(new Cost(HOT, 0, 200, true)).config(List.of("Main"), List.of(), "the sampler", null).contains("measured"));
    }
}
