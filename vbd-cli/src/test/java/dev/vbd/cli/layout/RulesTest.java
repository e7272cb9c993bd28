package dev.vbd.cli.layout;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What {@code vbd layout} makes of the model's pairs: findings merged by what they are between, and padded fields grouped by who writes them. */
class RulesTest {
    private static Map<String, Object> field(String cls, String name, long writes, String... writers) {
        return Map.of("kind", "field", "class", cls, "field", name, "describe", cls + "#" + name, "writes", writes,
                "writers", List.of(writers));
    }

    private static Map<String, Object> pair(String kind, long misses, long distance, Map<String, Object> a, Map<String, Object> b) {
        return Map.of("kind", kind, "misses", misses, "distance", distance, "threads", List.of("w0", "w1"), "a", a, "b", b);
    }

    /** Phoenix's linear regression: each worker's five sums in its own object, the objects allocated one after the other. */
    private static final Map<String, Object> SX = field("Args", "sx", 1_000_000, "w0", "w1");
    private static final Map<String, Object> SY = field("Args", "sy", 1_000_000, "w0", "w1");
    private static final Map<String, Object> SXY = field("Args", "sxy", 1_000_000, "w0", "w1");
    private static final Map<String, Object> POINTS = field("Args", "points", 2, "main");

    @Test
    void theFieldsOfNeighbouringObjectsAreOneFindingAndOnePaddedBlock() {
        List<Map<?, ?>> pairs = List.of(pair("neighbours", 9000, 32, SX, SXY), pair("neighbours", 7000, 24, POINTS, SY),
                pair("neighbours", 5000, 40, SX, SY));
        List<Finding> findings = Finding.merge(pairs, 1.0);
        assertEquals(1, findings.size());
        Finding f = findings.get(0);
        assertEquals(9000, f.misses());
        assertTrue(f.headline().contains("9,000 misses (9,000 a second) in the worst of 3 pairs"), f.headline());
        assertEquals("Args#sx, #sxy, #sy (written by w0, w1) and Args#points (written by main), 24 to 40 bytes apart", f.what());
        // the rarely written field is not padded; the sums share one block
        Rules rules = Rules.of(findings, pairs);
        assertEquals(List.of("Args#sx", "Args#sxy", "Args#sy"), rules.contended());
        assertEquals("contended Args#sx g1\ncontended Args#sxy g1\ncontended Args#sy g1\n", rules.lines());
        assertEquals("@jdk.internal.vm.annotation.Contended on Args#sx, #sxy, #sy as one group (with -XX:-RestrictContended"
                + " outside the JDK), or 128 bytes of padding around them; the layout does the first", f.fix(rules.groups()));
    }

    @Test
    void fieldsThatThreadsWriteInOneObjectLieApart() {
        Map<String, Object> a = field("Pair", "a", 50_000, "w0");
        Map<String, Object> b = field("Pair", "b", 50_000, "w1");
        Map<String, Object> value = field("Counter", "value", 50_000, "w0", "w1");
        List<Map<?, ?>> pairs = List.of(pair("fields", 6000, 8, a, b), pair("neighbours", 5000, 24, value, value));
        List<Finding> findings = Finding.merge(pairs, 1.0);
        assertEquals(2, findings.size());
        assertEquals("Pair#a (written by w0) and Pair#b (written by w1), 8 bytes apart", findings.get(0).what());
        assertEquals("Counter#value (written by w0, w1), in neighbouring objects, 24 bytes apart", findings.get(1).what());
        Rules rules = Rules.of(findings, pairs);
        assertEquals("contended Pair#a\ncontended Pair#b\ncontended Counter#value\n", rules.lines());
        assertTrue(findings.get(0).fix(rules.groups()).startsWith("@jdk.internal.vm.annotation.Contended on Pair#a and on Pair#b (with"
                + " -XX:-RestrictContended outside the JDK), or 128 bytes of padding around each;"), findings.get(0).fix(rules.groups()));
        assertTrue(findings.get(1).fix(rules.groups()).contains("on Counter#value (with -XX:-RestrictContended outside the JDK), or 128"
                + " bytes of padding around it;"), findings.get(1).fix(rules.groups()));
    }

    /** A pair of fields of one object that missed too rarely to be reported still keeps the two out of one block. */
    @Test
    void aRarePairInOneObjectStillKeepsTheFieldsApart() {
        Map<String, Object> s0 = field("Stats", "s0", 80_000, "w0", "w1");
        Map<String, Object> s1 = field("Stats", "s1", 80_000, "w0", "w1");
        Map<String, Object> s2 = field("Stats", "s2", 80_000, "w0", "w1");
        List<Map<?, ?>> reported = List.of(pair("neighbours", 40_000, 16, s0, s1), pair("neighbours", 30_000, 8, s1, s2));
        List<Map<?, ?>> model = List.of(reported.get(0), reported.get(1), pair("fields", 12, 8, s0, s1));
        Rules rules = Rules.of(Finding.merge(reported, 1.0), model);
        // s0 and s1 apart; s2 joins the first block it may share
        assertEquals("contended Stats#s0 g1\ncontended Stats#s1\ncontended Stats#s2 g1\n", rules.lines());
        assertEquals(Map.of("Stats#s0", "g1", "Stats#s2", "g1"), rules.groups());
    }

    @Test
    void arraysAndTrueSharingGiveNoPaddedField() {
        Map<String, Object> slots = Map.of("kind", "array", "describe", "long[] allocated at Slots.<init>(Slots.java:7)",
                "type", "long[]", "storedIn", "Slots#counts", "writes", 90_000L, "writers", List.of("w0", "w1"));
        Map<String, Object> hits = field("Shared", "hits", 90_000, "w0", "w1");
        List<Map<?, ?>> pairs = List.of(pair("elements", 8000, 8, slots, slots), pair("true-sharing", 7000, 0, hits, hits));
        List<Finding> findings = Finding.merge(pairs, 2.0);
        assertEquals(2, findings.size());
        assertEquals("long[] allocated at Slots.<init>(Slots.java:7): elements 8 bytes apart, written by w0, w1", findings.get(0).what());
        assertTrue(findings.get(1).fix(Map.of()).startsWith("no layout helps"), findings.get(1).fix(Map.of()));
        Rules rules = Rules.of(findings, pairs);
        assertEquals(List.of(), rules.contended());
        assertEquals("stride Slots#counts 16\n", rules.lines());
    }
}
