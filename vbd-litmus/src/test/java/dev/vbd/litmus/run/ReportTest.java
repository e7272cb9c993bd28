package dev.vbd.litmus.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.*;

class ReportTest {
    private static final Litmus.Suite.Test SB = new Litmus.Suite.Test("dev.vbd.litmus.sb.IntField", 2, false, 2);
    private static final Litmus.Suite.Test SPIN = new Litmus.Suite.Test("dev.vbd.litmus.spin.StaticFlag", 1, true, 2);
    private static final Litmus.Suite.Test IRIW = new Litmus.Suite.Test("dev.vbd.litmus.iriw.IntField", 4, false, 2);

    private static Tally tally(long samples, long forbidden) {
        Tally t = new Tally();
        t.samples = samples;
        t.forbidden = forbidden;
        t.forks = 2;
        if (forbidden > 0) t.forbiddenOutcomes.put("0, 0", forbidden);
        return t;
    }

    private static Report report(Preset preset, Tally sbVbd, Tally spinVbd, boolean stock) {
        Map<String, Map<String, Tally>> byConfig = new LinkedHashMap<>();
        Map<String, Tally> vbd = new TreeMap<>();
        vbd.put(SB.name(), sbVbd);
        vbd.put(SPIN.name(), spinVbd);
        byConfig.put("vbd", vbd);
        if (stock) {
            Map<String, Tally> s = new TreeMap<>();
            s.put(SB.name(), tally(20_000_000, 1234));
            s.put(SPIN.name(), tally(20_000, 7));
            byConfig.put("stock", s);
        }
        return new Report(preset, "sc", "17.0.15", List.of(SB, SPIN, IRIW), byConfig, 1.5);
    }

    private static JsonNode parse(String json) {
        try {
            return new ObjectMapper().readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode test(String json, String name) {
        for (JsonNode t : parse(json).get("tests")) {
            if (t.get("name").asText().equals(name)) return t;
        }
        return fail("no test " + name + " in " + json);
    }

    @Test
    void jsonHasEveryTestWithIntegerSamplesAndForbiddenPerConfiguration() {
        String json = report(Preset.QUICK, tally(1_000_000, 0), tally(50, 0), true).json();
        JsonNode sb = test(json, "sb.IntField");
        assertEquals(2, sb.get("actors").asInt());
        assertFalse(sb.get("termination").asBoolean());
        assertEquals(parse("{\"samples\": 1000000, \"forbidden\": 0, \"interesting\": 0, \"forks\": 2}"), sb.get("vbd"));
        assertEquals(parse("{\"samples\": 20000000, \"forbidden\": 1234, \"interesting\": 0, \"forks\": 2, "
                + "\"forbiddenOutcomes\": {\"0, 0\": 1234}}"), sb.get("stock"));
        assertTrue(sb.get("vbd").get("samples").isIntegralNumber(), json);
        JsonNode iriw = test(json, "iriw.IntField");
        assertEquals(4, iriw.get("actors").asInt());
        assertEquals("not run: 4 actors need 4 CPUs, this machine has 2 (--oversubscribe runs it)", iriw.get("notRun").asText());
    }

    @Test
    void stockIsNullWhenNotRun() {
        String json = report(Preset.QUICK, tally(1_000_000, 0), tally(50, 0), false).json();
        JsonNode sb = test(json, "sb.IntField");
        assertTrue(sb.has("stock"), json);
        assertTrue(sb.get("stock").isNull(), json);
    }

    @Test
    void anyForbiddenOutcomeUnderVbdFailsTheRun() {
        Report r = report(Preset.QUICK, tally(1_000_000, 3), tally(50, 0), true);
        assertEquals(1, r.exitStatus());
        assertTrue(r.table().contains("vbd: FAILED in 1 tests"), r.table());
        assertTrue(r.table().contains("sb.IntField: 3 forbidden {0, 0=3}"), r.table());
    }

    @Test
    void anErrorUnderVbdFailsTheRun() {
        Tally broken = tally(0, 0);
        broken.addError("VM_ERROR: fork crashed");
        assertEquals(1, report(Preset.QUICK, broken, tally(50, 0), false).exitStatus());
    }

    @Test
    void aRunnableTestWithoutResultsFailsTheRun() {
        Tally none = new Tally();
        assertEquals(1, report(Preset.QUICK, tally(10, 0), none, false).exitStatus());
    }

    @Test
    void aFullRunShortOfSamplesSaysSo() {
        Report r = report(Preset.FULL, tally(9_999_999, 0), tally(20_000, 0), false);
        assertEquals(3, r.exitStatus());
        assertTrue(r.table().contains("sb.IntField (vbd): 9999999 < 10000000"), r.table());
        assertEquals(0, report(Preset.FULL, tally(10_000_000, 0), tally(20_000, 0), false).exitStatus());
    }

    @Test
    void aTestThatAlreadyShowedItsWeakOutcomeNeedsNoMoreSamples() {
        Tally stale = tally(40, 0);
        stale.interesting = 25;
        assertEquals(0, report(Preset.FULL, tally(10_000_000, 0), stale, false).exitStatus());
        assertFalse(stale.needsSamples(1_000));
        assertTrue(tally(40, 0).needsSamples(1_000));
    }

    @Test
    void theTableShowsBothConfigurationsAndWhatCouldNotRun() {
        String table = report(Preset.QUICK, tally(1_000_000, 0), tally(50, 0), true).table();
        assertTrue(table.contains("sb.IntField"), table);
        assertTrue(table.contains("20,000,000"), table);
        assertTrue(table.contains("1,234"), table);
        assertTrue(table.contains("not run: 4 actors need 4 CPUs"), table);
        assertTrue(table.contains("stock: forbidden outcomes seen in 2 tests"), table);
        assertTrue(table.contains("vbd: no forbidden outcome in any test"), table);
    }

    @Test
    void weakOutcomesUnderVbdNameWhyTheyAreAllowedAndNeverFailTheRun() {
        Litmus.Suite.Test relaxed = new Litmus.Suite.Test("dev.vbd.litmus.spin.RelaxedSpin", 1, true, 2, Litmus.Suite.Weak.RELAXED, false);
        Litmus.Suite.Test hole = new Litmus.Suite.Test("dev.vbd.litmus.hole.ReflectiveFinalSpin", 1, true, 2, Litmus.Suite.Weak.HOLE, false);
        Tally stale = tally(40, 0);
        stale.interesting = 25;
        Map<String, Tally> vbd = new TreeMap<>();
        vbd.put(relaxed.name(), stale);
        vbd.put(hole.name(), stale);
        Report r = new Report(Preset.QUICK, "sc", "17.0.15", List.of(relaxed, hole), Map.of("vbd", vbd), 1.0);
        assertEquals(0, r.exitStatus());
        assertTrue(r.table().contains("vbd: 25 weak (allowed: relaxed)"), r.table());
        assertTrue(r.table().contains("vbd: 25 weak (allowed: a known hole)"), r.table());
        assertEquals("hole", test(r.json(), "hole.ReflectiveFinalSpin").get("weak").asText(), r.json());
        assertEquals("relaxed", test(r.json(), "spin.RelaxedSpin").get("weak").asText(), r.json());
    }

    @Test
    void underSafeConstructionOnlyTheOutcomesItForbidsFailTheRun() {
        Litmus.Suite.Test sb = new Litmus.Suite.Test("dev.vbd.litmus.sb.IntField", 2, false, 2, Litmus.Suite.Weak.NOT_PROMISED, false);
        Litmus.Suite.Test pub = new Litmus.Suite.Test("dev.vbd.litmus.construction.PlainFields", 2, false, 2, Litmus.Suite.Weak.NONE, false);
        Map<String, Tally> vbd = new TreeMap<>();
        vbd.put(sb.name(), tally(100_000, 1_234));
        vbd.put(pub.name(), tally(100_000, 0));
        Report r = new Report(Preset.QUICK, "safe-construction", "17.0.15", List.of(sb, pub), Map.of("vbd", vbd), 1.0);
        assertEquals(0, r.exitStatus(), r.table());
        assertTrue(r.table().contains("vbd: 1,234 not SC (safe construction does not promise SC)"), r.table());
        assertTrue(r.table().contains("vbd in safe construction"), r.table());
        JsonNode json = parse(r.json());
        assertEquals("safe-construction", json.findValue("vbdMode").asText(), r.json());
        assertEquals(0, json.findValue("vbdForbidden").asInt(), r.json());
        assertEquals("not-promised", test(r.json(), "sb.IntField").get("weak").asText(), r.json());
        vbd.put(pub.name(), tally(100_000, 3));
        Report bad = new Report(Preset.QUICK, "safe-construction", "17.0.15", List.of(sb, pub), Map.of("vbd", vbd), 1.0);
        assertEquals(1, bad.exitStatus(), bad.table());
        assertTrue(bad.table().contains("construction.PlainFields: 3 forbidden"), bad.table());
    }

    @Test
    void anOversubscribedTestRunsAndSaysSo() {
        Litmus.Suite.Test iriw = new Litmus.Suite.Test("dev.vbd.litmus.iriw.IntField", 4, false, 2, Litmus.Suite.Weak.NONE, true);
        Map<String, Tally> vbd = new TreeMap<>();
        vbd.put(iriw.name(), tally(100_000, 0));
        Report r = new Report(Preset.QUICK, "sc", "17.0.15", List.of(iriw), Map.of("vbd", vbd), 1.0);
        assertEquals(0, r.exitStatus());
        assertTrue(r.table().contains("oversubscribed: 4 actors on 2 CPUs"), r.table());
        assertFalse(r.table().contains("not run"), r.table());
        assertTrue(test(r.json(), "iriw.IntField").get("oversubscribed").asBoolean(), r.json());
        assertTrue(r.table().contains("1 tests (1 run here)"), r.table());
    }
}
