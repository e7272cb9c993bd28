package dev.vbd.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunnerTest {

    @Test
    void readsTheTimingLinesAmongOtherOutput() {
        String stderr = """
                WARN something the workload logs
                vbd-apps: h2 iteration 0 time_ms 1200.500
                vbd-apps: h2 iteration 1 time_ms 900.250
                  at some.Stack(Trace.java:1)
                vbd-apps: h2 iteration 2 time_ms 901
                """;
        assertArrayEquals(new double[] {1200.5, 900.25, 901}, Runner.parseTimes(stderr, 3));
    }

    @Test
    void readsEachIterationsCpuTimeWhereEveryLineHasIt() {
        String both = "vbd-apps: h2 iteration 0 time_ms 10.5 cpu_ms 20.25\nvbd-apps: h2 iteration 1 time_ms 9 cpu_ms 17\n";
        assertArrayEquals(new double[] {10.5, 9}, Runner.parseTimes(both, 2));
        assertArrayEquals(new double[] {20.25, 17}, Runner.parseCpu(both, 2));
        String oneWithout = "vbd-apps: h2 iteration 0 time_ms 10.5 cpu_ms 20.25\nvbd-apps: h2 iteration 1 time_ms 9\n";
        assertArrayEquals(new double[] {10.5, 9}, Runner.parseTimes(oneWithout, 2));
        assertNull(Runner.parseCpu(oneWithout, 2));
    }

    @Test
    void missingOrDisorderedLinesFail() {
        String two = "vbd-apps: h2 iteration 0 time_ms 1\nvbd-apps: h2 iteration 1 time_ms 2\n";
        assertTrue(assertThrows(IllegalStateException.class, () -> Runner.parseTimes(two, 3)).getMessage()
                .contains("2 timing lines"));
        String skipped = "vbd-apps: h2 iteration 0 time_ms 1\nvbd-apps: h2 iteration 2 time_ms 2\n";
        assertTrue(assertThrows(IllegalStateException.class, () -> Runner.parseTimes(skipped, 2)).getMessage()
                .contains("iteration 2"));
    }

    @Test
    void briefCommandsShortenClasspaths() {
        String cp = String.join(java.io.File.pathSeparator, java.util.Collections.nCopies(40, "/some/long/path/lib.jar"));
        assertEquals("java --patch-module=... -cp <40 classpath entries> Main",
                Runner.brief(List.of("java", "--patch-module=a=b", "--patch-module=c=d", "-cp", cp, "Main")));
    }
}
