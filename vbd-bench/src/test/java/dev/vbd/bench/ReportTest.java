package dev.vbd.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The reports of a run made of invented measurements: their shape, not any timing. */
class ReportTest {

    private static WorkloadSpec spec(String id) {
        return new WorkloadSpec(id, "Main", List.of(), Map.of(), "cp", 100, true, false);
    }

    private static void add(List<Measurement> ms, String w, Config c, int threads, double... scoresMs) {
        for (int i = 0; i < scoresMs.length; i++) {
            double s = scoresMs[i];
            ms.add(new Measurement(w, c.id, threads, i, 100, new double[] {3 * s, s, s}, 1, 2.0));
        }
    }

    static RunRecord record() {
        RunRecord r = new RunRecord();
        r.options = BenchOptions.parse(List.of("--configs", "stock,vbd,vbd+relaxed", "--threads", "1,2",
                "--workloads", "a,b", "--invocations", "3"), List.of("a", "b"), "a", Path.of("/tmp/x"));
        r.date = "2025-01-01T00:00:00Z";
        r.machine = Map.of("cpu", "test cpu", "cores", 2);
        r.jdk = Map.of("java.runtime.version", "17");
        r.workloads.add(spec("a"));
        r.workloads.add(spec("b"));
        r.headline = Config.VBD;
        r.sharedFlags = List.of("-Xms2g", "-Xmx2g", "-XX:+UseG1GC");
        r.configJava.put(Config.STOCK, "java");
        r.configJava.put(Config.VBD, "image/bin/java");
        r.configJava.put(Config.VBD_RELAXED, "image/bin/java");
        r.configFlags.put(Config.STOCK, List.of());
        r.configFlags.put(Config.VBD, List.of());
        r.configFlags.put(Config.VBD_RELAXED, List.of("-Dvbd.options=relaxed=top.relaxed"));
        List<Measurement> ms = new ArrayList<>();
        add(ms, "a", Config.STOCK, 2, 100, 102, 98);
        add(ms, "a", Config.VBD, 2, 150, 155, 145);
        add(ms, "a", Config.VBD_RELAXED, 2, 120, 121, 119);
        add(ms, "a", Config.VBD_ALL_RELAXED, 2, 101, 99, 100);
        add(ms, "b", Config.STOCK, 2, 200, 210, 190);
        add(ms, "b", Config.VBD, 2, 220, 230, 210);
        add(ms, "b", Config.VBD_RELAXED, 2, 205, 215, 195);
        add(ms, "a", Config.STOCK, 1, 180, 182, 178);
        add(ms, "a", Config.VBD, 1, 200, 205, 195);
        add(ms, "b", Config.STOCK, 1, 380, 390, 370);
        add(ms, "b", Config.VBD, 1, 400, 410, 390);
        add(ms, "store-loop", Config.STOCK, 1, 10, 11, 9);
        add(ms, "store-loop", Config.VBD, 1, 100, 110, 90);
        r.analysis = new Analysis(ms);
        r.negative = Controls.negative(r.analysis, "a", 2, null);
        r.positive = Controls.positive(r.analysis, "store-loop", null);
        return r;
    }

    @Test
    void cpuTimeStandsBesideWallTimeWhereTheWorkloadsReportedIt() {
        RunRecord r = record();
        assertFalse(Report.markdown(r).contains("## CPU time"), "no CPU times, no table");
        List<Measurement> ms = new ArrayList<>(r.analysis.measurements());
        for (int i = 0; i < 3; i++) {
            ms.add(new Measurement("c", Config.STOCK.id, 2, i, 100, new double[] {10, 10}, 1, 1.0, new double[] {15, 20 + i}));
            ms.add(new Measurement("c", Config.VBD.id, 2, i, 100, new double[] {10, 10}, 1, 1.0, new double[] {15, 40 + 2 * i}));
        }
        r.workloads.add(spec("c"));
        r.analysis = new Analysis(ms);
        String md = Report.markdown(r);
        assertTrue(md.contains("## CPU time, 2 threads"), md);
        // vbd's CPU time over stock's: 42 / 21
        assertTrue(md.lines().anyMatch(l -> l.startsWith("| c |") && l.contains("2.00 [")), md);
    }

    @Test
    void theQuietMachineCheckIsInTheHeader() {
        RunRecord r = record();
        r.busyBefore = 0.02;
        r.busyBetween = List.of(0.01, 0.30);
        assertEquals("; other work's share of the CPUs: 2.0% before the run, between invocations mean 15.5%, max 30.0%",
                Report.quiet(r));
        assertTrue(Report.markdown(r).contains("max 30.0%"));
    }

    @Test
    void jsonHasTheHeadlineShape() throws Exception {
        JsonNode j = new ObjectMapper().readTree(Json.write(Report.json(record())));
        assertTrue(j.get("geomean").isNumber());
        assertTrue(j.get("max").isNumber());
        double ra = 150.0 / 100;
        double rb = 220.0 / 200;
        assertEquals(Math.sqrt(ra * rb), j.get("geomean").asDouble(), 1e-4);
        assertEquals(ra, j.get("max").asDouble(), 1e-4);
        JsonNode ws = j.get("workloads");
        assertEquals(2, ws.size());
        for (JsonNode w : ws) {
            assertTrue(w.get("name").isTextual());
            assertTrue(w.get("ratio").isNumber());
            assertEquals(2, w.get("ci95").size());
            assertTrue(w.get("ci95").get(0).asDouble() <= w.get("ratio").asDouble());
            assertTrue(w.get("ratio").asDouble() <= w.get("ci95").get(1).asDouble());
            assertTrue(w.get("ratios").has("vbd+relaxed"));
        }
        assertEquals("a", ws.get(0).get("name").asText());
        assertTrue(j.get("controls").get("negative").get("pass").asBoolean());
        assertTrue(j.get("controls").get("positive").get("pass").asBoolean());
        assertTrue(j.get("valid").asBoolean());
        assertEquals(4, j.get("threads_sweep").size());
        assertTrue(j.get("by_config").get("vbd+relaxed").get("geomean").isNumber());
        JsonNode raw = j.get("raw");
        assertEquals(13 * 3, raw.size());
        assertEquals(3, raw.get(0).get("iterations_ms").size());
    }

    @Test
    void markdownHasTheTableAndControls() {
        String md = Report.markdown(record());
        assertTrue(md.contains("| workload | size | stock | vbd | vbd+relaxed | vbd / stock | vbd+relaxed / stock |"), md);
        assertTrue(md.contains("**geometric mean**"));
        assertTrue(md.contains("**max**"));
        assertTrue(md.contains("| negative | a t=2 | vbd+all-relaxed / stock |"));
        assertTrue(md.contains("**PASS**"));
        assertTrue(md.contains("## Threads"));
        assertTrue(md.contains("test cpu"));
    }

    @Test
    void theGeometricMeanCarriesItsInterval() throws Exception {
        JsonNode g = new ObjectMapper().readTree(Json.write(Report.json(record()))).get("by_config").get("vbd");
        double mean = g.get("geomean").asDouble();
        assertTrue(g.get("geomean_ci95").get(0).asDouble() < mean && mean < g.get("geomean_ci95").get(1).asDouble(), g.toString());
        assertTrue(Report.markdown(record()).lines().anyMatch(l -> l.startsWith("| **geometric mean** |")
                && l.contains(String.format(java.util.Locale.ROOT, "**%.2f [", mean))), Report.markdown(record()));
    }

    /** The false-sharing suite: each workload beside its fix by hand, under vbd and with the layout vbd layout wrote. */
    @Test
    void theRepairStandsAgainstTheFixByHand() throws Exception {
        RunRecord r = new RunRecord();
        r.options = BenchOptions.parse(List.of("--configs", "stock,vbd,vbd+layout", "--threads", "2",
                "--workloads", "fs-x,fs-x-fixed,fs-y,fs-y-fixed", "--invocations", "3"),
                List.of("fs-x", "fs-x-fixed", "fs-y", "fs-y-fixed"), "fs-x", Path.of("/tmp/x"));
        r.date = "2025-01-01T00:00:00Z";
        r.machine = Map.of("cpu", "test cpu", "cores", 2);
        r.jdk = Map.of("java.runtime.version", "17");
        for (String w : List.of("fs-x", "fs-x-fixed", "fs-y", "fs-y-fixed")) r.workloads.add(spec(w));
        r.headline = Config.VBD;
        List<Measurement> ms = new ArrayList<>();
        for (String w : List.of("fs-x", "fs-x-fixed", "fs-y", "fs-y-fixed")) add(ms, w, Config.STOCK, 2, 100, 101, 99);
        // fs-x: the fix takes 500 ms to 100, the layout to 140: 90% of the gain
        add(ms, "fs-x", Config.VBD, 2, 500, 510, 490);
        add(ms, "fs-x-fixed", Config.VBD, 2, 100, 102, 98);
        add(ms, "fs-x", Config.VBD_LAYOUT, 2, 140, 141, 139);
        add(ms, "fs-x-fixed", Config.VBD_LAYOUT, 2, 100, 101, 99);
        // fs-y: the fix gains nothing beyond its interval
        add(ms, "fs-y", Config.VBD, 2, 300, 400, 200);
        add(ms, "fs-y-fixed", Config.VBD, 2, 290, 390, 190);
        add(ms, "fs-y", Config.VBD_LAYOUT, 2, 300, 400, 200);
        add(ms, "fs-y-fixed", Config.VBD_LAYOUT, 2, 290, 390, 190);
        r.analysis = new Analysis(ms);
        String md = Report.markdown(r);
        assertTrue(md.contains("| workload | size | stock | vbd | vbd+layout | vbd / stock | vbd+layout / vbd |"), md);
        assertTrue(md.contains("## The layout's repair against the fix by hand, 2 threads"), md);
        String x = md.lines().filter(l -> l.startsWith("| fs-x | 0.500")).findFirst().orElseThrow(() -> new AssertionError(md));
        assertTrue(x.contains("| yes | 90.0% ["), x);
        String y = md.lines().filter(l -> l.startsWith("| fs-y | 0.300")).findFirst().orElseThrow(() -> new AssertionError(md));
        assertTrue(y.contains("| no |"), y);
        JsonNode repair = new ObjectMapper().readTree(Json.write(Report.json(r))).get("repair");
        assertEquals(2, repair.size());
        assertEquals("fs-x", repair.get(0).get("workload").asText());
        assertEquals(0.9, repair.get(0).get("share").asDouble(), 1e-9);
        assertTrue(repair.get(0).get("fix_gains").asBoolean());
        assertFalse(repair.get(1).get("fix_gains").asBoolean());
    }

    @Test
    void precisionIsReportedPerWorkload() throws Exception {
        RunRecord r = record();
        r.options = BenchOptions.parse(List.of("--configs", "stock,vbd,vbd+relaxed", "--threads", "1,2",
                "--workloads", "a,b", "--invocations", "3", "--precision", "5", "--max-invocations", "3"),
                List.of("a", "b"), "a", Path.of("/tmp/x"));
        r.precision = Precision.status(r.analysis, r.completed(), r.compared(), 2, r.options.precision);
        JsonNode p = new ObjectMapper().readTree(Json.write(Report.json(r))).get("precision");
        assertEquals(0.05, p.get("target").asDouble(), 1e-12);
        assertEquals(3, p.get("max_invocations").asInt());
        assertEquals("a", p.get("workloads").get(0).get("workload").asText());
        assertEquals(3, p.get("workloads").get(0).get("invocations").asInt());
        // b's vbd ratio 1.10 from invocations 5% apart is not known to within 5% after 3
        assertFalse(p.get("workloads").get(1).get("reached").asBoolean());
        String md = Report.markdown(r);
        assertTrue(md.contains("- Precision: invocations added round by round until each headline interval is within +-5.0%"), md);
        assertTrue(md.contains("3 or more interleaved invocations"), md);
    }

    @Test
    void aFailedNegativeControlVoidsTheRun() {
        RunRecord r = record();
        List<Measurement> ms = new ArrayList<>(r.analysis.measurements());
        ms.removeIf(m -> m.config().equals(Config.VBD_ALL_RELAXED.id));
        add(ms, "a", Config.VBD_ALL_RELAXED, 2, 130, 131, 129);
        r.analysis = new Analysis(ms);
        r.negative = Controls.negative(r.analysis, "a", 2, null);
        assertEquals(Controls.Verdict.FAIL, r.negative.verdict());
        assertFalse(r.valid());
        assertTrue(r.validity().startsWith("NOT COUNTING"));
        assertTrue(Report.markdown(r).contains("NOT COUNTING"));
    }

    @Test
    void plotsAreWritten(@TempDir Path dir) throws Exception {
        RunRecord r = record();
        Plots.relativeTime(r, dir.resolve("relative-time.png"));
        assertTrue(Plots.threads(r, dir.resolve("threads.png")));
        for (String f : List.of("relative-time.png", "threads.png")) {
            byte[] png = Files.readAllBytes(dir.resolve(f));
            assertTrue(png.length > 1000 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G', f);
        }
    }
}
