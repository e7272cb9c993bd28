package dev.vbd.bench;

import dev.vbd.host.Stats;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The start-up measurement's arithmetic and report, and its command line's errors. */
class StartupTest {
    @Test
    void pairedRatioIsTheGeometricMeanOfTheRoundsRatiosWithATInterval() {
        Stats.Estimate same = Startup.pairedRatio(new double[]{200, 400, 100}, new double[]{100, 200, 50});
        assertEquals(2.0, same.value(), 1e-12);
        assertEquals(2.0, same.lo(), 1e-12, "every round says 2: no spread");
        assertEquals(2.0, same.hi(), 1e-12);
        Stats.Estimate r = Startup.pairedRatio(new double[]{110, 150, 130, 90}, new double[]{100, 100, 100, 100});
        double gm = Math.exp((Math.log(1.1) + Math.log(1.5) + Math.log(1.3) + Math.log(0.9)) / 4);
        assertEquals(gm, r.value(), 1e-12);
        assertTrue(r.lo() < gm && gm < r.hi() && r.lo() > 0.7 && r.hi() < 1.8, r.toString());
    }

    @Test
    void reportHasOneRowPerProgramWithMediansAndRatiosToStock() {
        Map<String, Map<String, double[]>> ms = new LinkedHashMap<>();
        Map<String, double[]> hello = new LinkedHashMap<>();
        hello.put("stock", new double[]{50, 60, 55});
        hello.put("vbd", new double[]{100, 120, 110});
        ms.put("hello", hello);
        String md = Startup.report(ms, List.of("stock", "vbd"), 3, "Some JDK 17");
        assertTrue(md.contains("| program | stock | vbd | vbd / stock |"), md);
        assertTrue(md.contains("| hello | 55 ms | 110 ms | 2.00 [2.00, 2.00] |"), md);
    }

    @Test
    void everyBenchWorkloadHasAFirstIterationProgram() {
        List<String> known = Startup.knownPrograms();
        assertEquals(Startup.PROGRAMS, known.subList(0, Startup.PROGRAMS.size()));
        for (String w : WorkloadCatalog.names()) assertTrue(known.contains("first-" + w), known.toString());
        assertEquals(Startup.PROGRAMS.size() + WorkloadCatalog.names().size(), known.size());
    }

    @Test
    void badArgumentsAreNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Startup.run(java.nio.file.Path.of("."), List.of("--programs", "hello,nope")));
        assertTrue(e.getMessage().contains("unknown program 'nope'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Startup.run(java.nio.file.Path.of("."), List.of("--invocations", "1")));
        assertTrue(e.getMessage().contains("at least 2"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Startup.run(java.nio.file.Path.of("."), List.of("--fast")));
        assertTrue(e.getMessage().contains("unknown option '--fast'"), e.getMessage());
    }
}
