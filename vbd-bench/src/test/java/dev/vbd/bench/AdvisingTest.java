package dev.vbd.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An advised configuration's config: the advisor's first rules, each with the comments above it. */
class AdvisingTest {
    @TempDir
    Path tmp;

    private static final String ADVICE = """
            # Relaxed scopes advised by 'vbd advise' for: Main
            # header

            # gain: 9.0%
            # safe: first
            method a.A#one()V

            # gain: 5.0%
            # safe: second
            method a.A#two()V

            # gain: 1.0%
            # safe: third
            method a.A#three()V

            # Costly under vbd but not relaxed:
            #   a.B#racy()V (4.0% of the run): may race: ...
            """;

    @Test
    void theFirstRulesWithTheirComments() throws Exception {
        Path advice = tmp.resolve("w.relaxed");
        Files.writeString(advice, ADVICE);
        String two = Files.readString(Advising.firstRules(advice, 2, tmp.resolve("w-2.relaxed")));
        assertEquals(2, Bench.countRules(tmp.resolve("w-2.relaxed")));
        assertTrue(two.startsWith("# Relaxed scopes advised by 'vbd advise' for: Main\n"), two);
        assertTrue(two.contains("# safe: second\nmethod a.A#two()V\n"), two);
        assertFalse(two.contains("a.A#three"), two);
        assertEquals(3, Bench.countRules(Advising.firstRules(advice, 50, tmp.resolve("w-50.relaxed"))));
        Path none = Advising.firstRules(advice, 0, tmp.resolve("w-0.relaxed"));
        assertEquals(0, Bench.countRules(none));
        assertTrue(Files.readString(none).startsWith("# Relaxed scopes advised"), Files.readString(none));
    }

    @Test
    void theProfilesStartAfterTheLastWarmUpIterationsTimingLine() {
        java.util.regex.Pattern from = java.util.regex.Pattern.compile(Advising.warmedUp(6));
        assertTrue(from.matcher("vbd-apps: javac iteration 5 time_ms 812.250 cpu_ms 1510.000").find());
        assertFalse(from.matcher("vbd-apps: javac iteration 4 time_ms 812.250 cpu_ms 1510.000").find());
        assertFalse(from.matcher("vbd-apps: javac iteration 15 time_ms 812.250").find());
        assertFalse(from.matcher("javac: iteration 5 time_ms 812.250").find());
    }

    @Test
    void fencedAdviceIsTakenAndRunWithFencedFieldsUnderItsOwnName() {
        Config c = Config.byId("vbd-fenced+advised");
        assertEquals(Config.Relaxation.ADVISED, c.relaxation);
        assertEquals(java.util.List.of("--fields", "fenced"), c.vbdOptions(false));
        assertEquals("javac-fenced", Advising.name("javac", c));
        assertEquals("javac", Advising.name("javac", Config.VBD_ADVISED));
        Config classes = Config.byId("vbd-fenced+advised-classes");
        assertEquals("class", classes.adviceScope);
        assertEquals("javac-fenced-classes", Advising.name("javac", classes));
        assertEquals(java.util.List.of("--fields", "fenced"), classes.vbdOptions(false));
        assertEquals("javac-fenced-packages", Advising.name("javac", Config.byId("vbd-fenced+advised-packages")));
    }
}
