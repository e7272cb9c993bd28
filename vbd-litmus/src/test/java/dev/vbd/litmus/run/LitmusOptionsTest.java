package dev.vbd.litmus.run;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class LitmusOptionsTest {
    @Test
    void quickIsTheDefaultAndStockIsOptIn() throws Exception {
        LitmusOptions o = LitmusOptions.parse(List.of());
        assertEquals(Preset.QUICK, o.preset);
        assertFalse(o.stock);
        assertFalse(o.oversubscribe);
        assertNull(o.json);
    }

    @Test
    void readsEveryOption() throws Exception {
        LitmusOptions o = LitmusOptions.parse(List.of("--full", "--stock", "--json", "r.json", "--tests", "sb\\.", "--java", "/j/bin/java", "--oversubscribe"));
        assertEquals(Preset.FULL, o.preset);
        assertTrue(o.stock);
        assertTrue(o.json.isAbsolute());
        assertTrue(o.json.endsWith("r.json"));
        assertTrue(o.tests.matcher("dev.vbd.litmus.sb.IntField").find());
        assertFalse(o.tests.matcher("dev.vbd.litmus.mp.IntField").find());
        assertEquals("/j/bin/java", o.java);
        assertTrue(o.oversubscribe);
        assertEquals("volatile", o.fields);
        assertEquals("fenced", LitmusOptions.parse(List.of("--fields", "fenced")).fields);
        assertEquals("speculative", LitmusOptions.parse(List.of("--fields", "speculative")).fields);
        assertEquals("volatile", LitmusOptions.parse(List.of("--fields", "volatile")).fields);
    }

    @Test
    void namesTheBadArgument() throws Exception {
        var e = assertThrows(LitmusOptions.UsageException.class, () -> LitmusOptions.parse(List.of("--quik")));
        assertTrue(e.getMessage().contains("--quik"), e.getMessage());
        e = assertThrows(LitmusOptions.UsageException.class, () -> LitmusOptions.parse(List.of("--json")));
        assertEquals("--json needs a value", e.getMessage());
        e = assertThrows(LitmusOptions.UsageException.class, () -> LitmusOptions.parse(List.of("--from", "/nonexistent/run")));
        assertTrue(e.getMessage().contains("holds no results of an earlier run"), e.getMessage());
        e = assertThrows(LitmusOptions.UsageException.class, () -> LitmusOptions.parse(List.of("--tests", "sb(")));
        assertTrue(e.getMessage().startsWith("--tests 'sb(' is not a regular expression"), e.getMessage());
        e = assertThrows(LitmusOptions.UsageException.class, () -> LitmusOptions.parse(List.of("--fields", "plain")));
        assertEquals("--fields takes 'volatile', 'fenced' or 'speculative', got 'plain'", e.getMessage());
        e = assertThrows(LitmusOptions.UsageException.class, () -> LitmusOptions.parse(List.of("--optimise", "some")));
        assertEquals("--optimise takes 'all', 'constructors', 'local-arrays' or 'none', got 'some'", e.getMessage());
        assertEquals("none", LitmusOptions.parse(List.of("--optimise", "none")).optimise);
    }

    @Test
    void aLaterPresetWinsAndSafeConstructionTakesNoFieldMode() throws Exception {
        assertEquals(Preset.QUICK, LitmusOptions.parse(List.of("--full", "--quick")).preset);
        assertEquals("safe-construction", LitmusOptions.parse(List.of("--mode", "safe-construction")).mode);
        var e = assertThrows(LitmusOptions.UsageException.class,
                () -> LitmusOptions.parse(List.of("--mode", "safe-construction", "--fields", "fenced")));
        assertEquals("--fields applies to --mode sc only", e.getMessage());
        e = assertThrows(LitmusOptions.UsageException.class, () -> LitmusOptions.parse(List.of("--mode", "relaxed")));
        assertEquals("--mode takes 'sc' or 'safe-construction', got 'relaxed'", e.getMessage());
        e = assertThrows(LitmusOptions.UsageException.class, () -> LitmusOptions.parse(List.of("sb")));
        assertEquals("unknown option 'sb'", e.getMessage());
        e = assertThrows(LitmusOptions.UsageException.class, () -> LitmusOptions.parse(List.of("--stock=yes")));
        assertEquals("--stock takes no value, got 'yes'", e.getMessage());
    }

    @Test
    void theUsageDescribesEveryOption() throws Exception {
        assertTrue(LitmusOptions.parse(List.of("--help")).help);
        String usage = LitmusOptions.usage();
        for (String option : List.of("--quick", "--full", "--stock", "--agent", "--mode", "--fields", "--optimise", "--json",
                "--tests", "--java", "--oversubscribe", "--out", "--from")) {
            assertTrue(usage.contains(option), option + " in " + usage);
        }
        assertTrue(usage.contains("at least 10^7 samples"), usage);
    }
}
