package dev.vbd.bench;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchOptionsTest {
    private static final List<String> KNOWN = List.of("h2", "lucene", "spark");
    private static final Path OUT = Path.of("/tmp/out");

    private static BenchOptions parse(String... args) {
        return BenchOptions.parse(List.of(args), KNOWN, "h2", OUT);
    }

    private static String error(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> parse(args)).getMessage();
    }

    @Test
    void quickIsTheDefault() {
        BenchOptions o = parse();
        assertEquals(BenchOptions.Mode.QUICK, o.mode);
        assertEquals(List.of("h2"), o.workloads);
        assertEquals(List.of(Config.STOCK, Config.VBD), o.configs);
        assertEquals(2, o.invocations);
        assertTrue(o.warmup < o.iterations);
        assertTrue(o.controls);
        assertFalse(o.jmh);
        assertEquals(OUT, o.out);
    }

    @Test
    void fullRunsEverything() {
        BenchOptions o = parse("--full");
        assertEquals(KNOWN, o.workloads);
        assertEquals(List.of(Config.STOCK, Config.VBD, Config.STOCK_NOTIERED, Config.VBD_RELAXED), o.configs);
        assertEquals(List.of(1, 2), o.threads);
        assertEquals(2, o.headlineThreads());
        assertFalse(o.jmh);
    }

    @Test
    void explicitCountsWinOverTheMode() {
        BenchOptions o = parse("--full", "--invocations", "3", "--iterations=6", "--warmup", "2", "--threads", "4,1,2",
                "--workloads", "spark,h2", "--sizes", "h2=10");
        assertEquals(3, o.invocations);
        assertEquals(6, o.iterations);
        assertEquals(2, o.warmup);
        assertEquals(List.of(1, 2, 4), o.threads);
        assertEquals(List.of("spark", "h2"), o.workloads);
        assertEquals(10, o.sizes.get("h2"));
    }

    @Test
    void stockComesFirstAndBaselinesAreAdded() {
        BenchOptions o = parse("--configs", "vbd-notiered,stock");
        assertEquals(List.of(Config.STOCK, Config.VBD_NOTIERED, Config.STOCK_NOTIERED), o.configs);
        assertEquals(List.of(Config.STOCK, Config.VBD), parse("--configs", "vbd").configs);
    }

    @Test
    void errorsNameTheBadArgument() {
        assertTrue(error("--workloads", "h2,nope").contains("'nope'"));
        assertTrue(error("--workloads", "nope").contains("known: [h2, lucene, spark]"));
        assertTrue(error("--configs", "vbd,fast").contains("'fast'"));
        assertTrue(error("--configs", "vbd+all-relaxed").contains("negative control"));
        assertTrue(error("--configs", "stock").contains("besides stock"));
        assertTrue(error("--threads", "0").contains("--threads") && error("--threads", "0").contains("'0'"));
        assertTrue(error("--threads", "1,x").contains("'x'"));
        assertTrue(error("--invocations", "1").contains("--invocations 1"));
        assertTrue(error("--iterations", "abc").contains("--iterations") && error("--iterations", "abc").contains("'abc'"));
        assertTrue(error("--iterations", "3", "--warmup", "3").contains("--warmup 3"));
        assertTrue(error("--frobnicate").contains("'--frobnicate'"));
        assertTrue(error("--out").contains("--out needs a value"));
        assertTrue(error("--quick", "--full").contains("--quick and --full"));
        assertTrue(error("--quick=yes").contains("--quick takes no value"));
        assertTrue(error("--relaxed", "/nonexistent/file.relaxed").contains("'/nonexistent/file.relaxed'"));
        assertTrue(error("--sizes", "h2").contains("'h2'"));
        assertTrue(error("--sizes", "nope=3").contains("'nope'"));
        assertTrue(error("--heap", "lots").contains("'lots'"));
        assertTrue(error("--precision", "tight").contains("'tight'"));
        assertTrue(error("--precision", "0").contains("'0'"));
        assertTrue(error("--precision", "100").contains("'100'"));
        assertTrue(error("--max-invocations", "9").contains("--precision"));
        assertTrue(error("--invocations", "5", "--precision", "5", "--max-invocations", "4").contains("--max-invocations 4"));
    }

    @Test
    void precisionIsAFractionWithACap() {
        BenchOptions fixed = parse("--invocations", "3");
        assertEquals(null, fixed.precision);
        BenchOptions o = parse("--invocations", "3", "--precision", "5");
        assertEquals(0.05, o.precision, 1e-12);
        assertEquals(12, o.maxInvocations);
        BenchOptions capped = parse("--precision=2.5%", "--max-invocations", "30");
        assertEquals(0.025, capped.precision, 1e-12);
        assertEquals(30, capped.maxInvocations);
    }

    @Test
    void jmhRunsTheBenchmarksAndTiersNamedWithTheForksAskedFor() {
        BenchOptions all = parse("--jmh", "--full");
        assertEquals(Micro.benchmarks(), all.jmhSettings.benchmarks());
        assertEquals(List.of(Micro.Tier.values()), all.jmhSettings.tiers());
        assertEquals(Micro.FULL.rounds(), all.jmhSettings.rounds());
        BenchOptions some = parse("--jmh", "--full", "--benchmarks", "allocation,fieldStore", "--tiers", "c1,interpreter",
                "--invocations", "10");
        // the report's order, whatever the order asked for
        assertEquals(List.of("fieldStore", "allocation"), some.jmhSettings.benchmarks());
        assertEquals(List.of(Micro.Tier.INTERPRETER, Micro.Tier.C1), some.jmhSettings.tiers());
        assertEquals(10, some.jmhSettings.rounds());
        assertEquals(Micro.FULL.iterationMs(), some.jmhSettings.iterationMs());
        assertEquals(10 * 2 * 2 * 2, Micro.forks(some.jmhSettings));
        assertTrue(error("--jmh", "--benchmarks", "allocaton").contains("'allocaton'"));
        assertTrue(error("--jmh", "--tiers", "C3").contains("'C3'"));
        assertTrue(error("--benchmarks", "allocation").contains("--jmh"));
        assertTrue(error("--tiers", "C1").contains("--jmh"));
    }

    @Test
    void warmupFollowsAnExplicitIterationCount() {
        BenchOptions o = parse("--iterations", "1");
        assertEquals(0, o.warmup);
    }

    @Test
    void helpIsNotAnErrorAndTheUsageDescribesEveryOption() {
        String usage = assertThrows(CommandLines.HelpRequested.class, () -> parse("--help")).usage;
        assertEquals(BenchOptions.usage(), usage);
        for (String option : List.of("--quick", "--full", "--jmh", "--benchmarks", "--tiers", "--startup", "--dry-run", "--workloads",
                "--configs", "--relaxed", "--invocations", "--iterations", "--warmup", "--threads", "--sizes", "--heap",
                "--precision", "--max-invocations", "--java", "--no-controls", "--out", "--json")) {
            assertTrue(usage.contains(option), option + " in " + usage);
        }
        assertTrue(usage.contains("about 45 minutes on 2 cores"), usage);
        assertTrue(usage.contains("vbd-fenced+advised-classes"), usage);
        assertTrue(usage.contains("headline ratio's 95% interval"), usage);
    }

    @Test
    void aLaterValueWinsAndAFlagTakesNone() {
        assertEquals(5, parse("--invocations", "3", "--invocations=5").invocations);
        assertEquals("--dry-run takes no value, got 'yes'", error("--dry-run=yes"));
        assertEquals("--out needs a non-empty value", error("--out="));
        assertEquals("unknown option 'h2'", error("h2"));
    }
}
