package dev.vbd.bench;

import dev.vbd.bench.jmh.ConstructionControls;
import dev.vbd.bench.jmh.UnitCosts;
import dev.vbd.host.Stats.Estimate;
import dev.vbd.host.Stats;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The JMH microbenchmarks ({@link UnitCosts}, and when asked for Shipilev's controls of safe
 * construction, {@link ConstructionControls}) under stock and under vbd, in each of HotSpot's
 * execution tiers: the interpreter, C1 alone and the default tiered C2, because start-up and short
 * programs run where C2 has not yet compiled. Each JMH fork is one invocation in the sense of the
 * method: forks of the two configurations alternate, the fork's score is JMH's mean over its
 * measurement iterations, and the interval is Student's t over forks.
 */
final class Micro {
    private Micro() {}

    /** {@code benchmarks} and {@code tiers}: those to run, in the order of {@link #benchmarks()} and {@link Tier}. */
    record Settings(int rounds, int warmupIterations, int measurementIterations, int iterationMs,
                    List<String> benchmarks, List<Tier> tiers) {
        Map<String, Object> toJson() {
            return Report.map("forks_per_config", rounds, "warmup_iterations", warmupIterations,
                    "measurement_iterations", measurementIterations, "iteration_ms", iterationMs,
                    "benchmarks", benchmarks, "tiers", tiers.stream().map(t -> t.label).toList(),
                    "score", "ns/op, JMH average time of one fork; interval Student-t 95% over forks");
        }

        /** These settings with {@code forks} forks per configuration (null: as they are), of only these benchmarks and tiers. */
        Settings only(Integer forks, List<String> names, List<Tier> inTiers) {
            List<String> b = new ArrayList<>(known());
            b.retainAll(names);
            List<Tier> t = new ArrayList<>(tiers);
            t.retainAll(inTiers);
            return new Settings(forks != null ? forks : rounds, warmupIterations, measurementIterations, iterationMs,
                    List.copyOf(b), List.copyOf(t));
        }
    }

    /**
     * Warm-up long enough for C2 to compile the benchmark body in the C2 tier. One fork per
     * configuration and tier in a quick run: its figures have no interval.
     */
    static final Settings QUICK = new Settings(1, 5, 3, 300, benchmarks(), List.of(Tier.values()));
    static final Settings FULL = new Settings(3, 6, 5, 500, benchmarks(), List.of(Tier.values()));

    /** Where the benchmark body runs: the flags that confine the JVM to one tier. */
    enum Tier {
        INTERPRETER("interpreter", List.of("-Xint")),
        C1("C1", List.of("-XX:TieredStopAtLevel=1")),
        C2("C2", List.of());

        final String label;
        final List<String> flags;

        Tier(String label, List<String> flags) {
            this.label = label;
            this.flags = flags;
        }

        /** The tier labelled {@code label}, in any case; null if none is. */
        static Tier byLabel(String label) {
            for (Tier t : values()) if (t.label.equalsIgnoreCase(label)) return t;
            return null;
        }

        static List<String> labels() {
            List<String> out = new ArrayList<>();
            for (Tier t : values()) out.add(t.label);
            return out;
        }
    }

    record Row(String benchmark, Tier tier, Estimate stock, Estimate vbd, Estimate ratio, double[] stockForks, double[] vbdForks) {}

    /** Benchmark method names of {@link UnitCosts}, in source order where the JVM keeps it. */
    static List<String> benchmarks() {
        List<String> out = new ArrayList<>();
        for (Method m : UnitCosts.class.getDeclaredMethods()) {
            if (m.isAnnotationPresent(Benchmark.class)) out.add(m.getName());
        }
        List<String> order = List.of("fieldStore", "fieldStoreRelaxed", "arrayStore", "arrayLoad", "fieldLoadLoop",
                "fieldLoadLoopRelaxed", "localArray", "allocation", "jdkMethodRelaxed");
        out.sort((a, b) -> Integer.compare(rank(order, a), rank(order, b)));
        return out;
    }

    /** Every benchmark a run may select: {@link #benchmarks()}, then the construction controls, {@code final_NN} and {@code plain_NN}. */
    static List<String> known() {
        List<String> out = new ArrayList<>(benchmarks());
        List<String> controls = new ArrayList<>();
        for (Method m : ConstructionControls.class.getDeclaredMethods()) {
            if (m.isAnnotationPresent(Benchmark.class)) controls.add(m.getName());
        }
        controls.sort(null);
        out.addAll(controls);
        return out;
    }

    private static Class<?> benchmarkClass(String name) {
        return name.startsWith("final_") || name.startsWith("plain_") ? ConstructionControls.class : UnitCosts.class;
    }

    private static int rank(List<String> order, String name) {
        int i = order.indexOf(name);
        return i < 0 ? order.size() : i;
    }

    static int forks(Settings s) {
        return s.rounds * s.benchmarks.size() * s.tiers.size() * 2;
    }

    /** {@code vbdLaunch}: the java and options {@code bin/vbd run} starts a program with. */
    static List<Row> run(Settings s, String java, List<String> shared, List<String> vbdLaunch, Progress progress)
            throws RunnerException {
        List<String> names = s.benchmarks;
        Map<String, List<Double>> stock = new LinkedHashMap<>();
        Map<String, List<Double>> vbd = new LinkedHashMap<>();
        int total = forks(s);
        int done = 0;
        long start = System.nanoTime();
        for (int round = 0; round < s.rounds; round++) {
            for (Tier tier : s.tiers) for (String name : names) {
                String key = name + ' ' + tier.label;
                List<String> jvmArgs = new ArrayList<>(shared);
                jvmArgs.addAll(tier.flags);
                for (boolean underVbd : new boolean[] {false, true}) {
                    ChainedOptionsBuilder ob = new OptionsBuilder()
                            .include("^" + Pattern.quote(benchmarkClass(name).getName() + "." + name) + "$")
                            .forks(1)
                            .warmupIterations(s.warmupIterations).warmupTime(TimeValue.milliseconds(s.iterationMs))
                            .measurementIterations(s.measurementIterations).measurementTime(TimeValue.milliseconds(s.iterationMs))
                            .jvm(underVbd ? vbdLaunch.get(0) : java)
                            .jvmArgs(jvmArgs.toArray(String[]::new))
                            .shouldFailOnError(true)
                            .verbosity(VerboseMode.SILENT);
                    if (underVbd) ob.jvmArgsPrepend(vbdLaunch.subList(1, vbdLaunch.size()).toArray(String[]::new));
                    Collection<RunResult> results = new Runner(ob.build()).run();
                    if (results.size() != 1) {
                        throw new RunnerException("JMH ran " + results.size() + " benchmarks for " + name + ", expected 1");
                    }
                    double score = results.iterator().next().getPrimaryResult().getScore();
                    (underVbd ? vbd : stock).computeIfAbsent(key, k -> new ArrayList<>()).add(score);
                    done++;
                    double elapsed = (System.nanoTime() - start) / 1e9;
                    progress.note(String.format(Locale.ROOT, "[jmh %d/%d] %s %s %s fork %d/%d: %.3f ns/op; about %s left",
                            done, total, name, tier.label, underVbd ? "vbd" : "stock", round + 1, s.rounds, score,
                            Progress.duration(elapsed / done * (total - done))));
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        for (Tier tier : s.tiers) for (String name : names) {
            String key = name + ' ' + tier.label;
            double[] st = stock.get(key).stream().mapToDouble(Double::doubleValue).toArray();
            double[] vb = vbd.get(key).stream().mapToDouble(Double::doubleValue).toArray();
            rows.add(new Row(name, tier, Stats.meanCi(st), Stats.meanCi(vb), Stats.ratioCi(vb, st), st, vb));
        }
        return rows;
    }

    /**
     * Shipilev's controls, judged where both the all-final and the all-plain benchmark of a size ran
     * in a tier. Negative: {@code final_NN} under vbd against stock, whose interval must hold 1.00.
     * Positive: {@code plain_NN} against {@code final_NN}, both under vbd, whose interval must hold
     * 1.00 too; on stock Java the same ratio is given for what there is to close.
     */
    record Control(String size, Tier tier, Estimate negative, Estimate positive, Estimate stockPlainOverFinal) {
        boolean negativePasses() { return negative.bounded() && negative.contains(1.0); }
        boolean positivePasses() { return positive.bounded() && positive.contains(1.0); }
    }

    static List<Control> controls(List<Row> rows) {
        List<Control> out = new ArrayList<>();
        for (Row f : rows) {
            if (!f.benchmark.startsWith("final_")) continue;
            String size = f.benchmark.substring("final_".length());
            for (Row p : rows) {
                if (p.tier != f.tier || !p.benchmark.equals("plain_" + size)) continue;
                out.add(new Control(size, f.tier, f.ratio, Stats.ratioCi(p.vbdForks, f.vbdForks),
                        Stats.ratioCi(p.stockForks, f.stockForks)));
            }
        }
        return out;
    }

    static Map<String, Object> json(List<Row> rows, Map<String, Object> settings) {
        List<Object> list = new ArrayList<>();
        for (Row r : rows) {
            list.add(Report.map("benchmark", r.benchmark, "tier", r.tier.label, "stock_ns", r.stock.value(), "stock_ci95_ns", Report.interval(r.stock),
                    "vbd_ns", r.vbd.value(), "vbd_ci95_ns", Report.interval(r.vbd), "ratio", r.ratio.value(),
                    "ci95", Report.interval(r.ratio), "stock_forks_ns", Arrays.stream(r.stockForks).boxed().toList(),
                    "vbd_forks_ns", Arrays.stream(r.vbdForks).boxed().toList()));
        }
        List<Object> controls = new ArrayList<>();
        for (Control c : controls(rows)) {
            controls.add(Report.map("fields", c.size, "tier", c.tier.label,
                    "negative", Report.map("ratio", c.negative.value(), "ci95", Report.interval(c.negative),
                            "expectation", "final_" + c.size + " under vbd / stock: 1.00 within the 95% interval", "pass", c.negativePasses()),
                    "positive", Report.map("ratio", c.positive.value(), "ci95", Report.interval(c.positive),
                            "expectation", "plain_" + c.size + " / final_" + c.size + " under vbd: 1.00 within the 95% interval",
                            "pass", c.positivePasses()),
                    "stock_plain_over_final", c.stockPlainOverFinal.value(), "stock_plain_over_final_ci95", Report.interval(c.stockPlainOverFinal)));
        }
        return controls.isEmpty() ? Report.map("settings", settings, "benchmarks", list)
                : Report.map("settings", settings, "benchmarks", list, "construction_controls", controls);
    }

    static void markdown(StringBuilder md, List<Row> rows, Map<String, Object> settings) {
        md.append("## Microbenchmarks (JMH)\n\n");
        md.append(String.format(Locale.ROOT, "`dev.vbd.bench.jmh.UnitCosts` (`final_NN`, `plain_NN`: `ConstructionControls`); JMH forks per configuration: %s, alternating, each %s x %s ms "
                        + "warm-up and %s x %s ms measured; JMH's own classes relaxed under vbd. ns/op, mean ± half the 95%% interval.%n%n",
                settings.get("forks_per_config"), settings.get("warmup_iterations"), settings.get("iteration_ms"),
                settings.get("measurement_iterations"), settings.get("iteration_ms")));
        md.append("Tiers: `interpreter` runs with -Xint, `C1` with -XX:TieredStopAtLevel=1, `C2` with HotSpot's defaults; "
                + "in the first two JMH's own loop runs in the same tier, which adds the same time to stock and vbd.\n\n");
        md.append("| benchmark | tier | stock ns/op | vbd ns/op | vbd / stock |\n|---|---|---:|---:|---:|\n");
        for (Row r : rows) {
            md.append("| ").append(r.benchmark).append(" | ").append(r.tier.label).append(" | ").append(ns(r.stock)).append(" | ").append(ns(r.vbd)).append(" | ")
                    .append(Report.ratio(r.ratio)).append(" |\n");
        }
        md.append('\n');
        List<Control> controls = controls(rows);
        if (controls.isEmpty()) return;
        md.append("### Safe construction: Shipilev's controls\n\n");
        md.append("Negative: `final_NN` (all-final fields) under vbd against stock must hold 1.00 in its 95% interval. "
                + "Positive: `plain_NN` (all-plain fields) against `final_NN`, both under vbd, must hold 1.00 too: the plain "
                + "classes come to cost what the final ones do. Stock's plain / final is given for what there is to close.\n\n");
        md.append("| fields | tier | negative: final vbd / stock | pass | positive: plain / final under vbd | pass | stock plain / final |\n"
                + "|---:|---|---:|---|---:|---|---:|\n");
        for (Control c : controls) {
            md.append("| ").append(c.size).append(" | ").append(c.tier.label).append(" | ").append(Report.ratio(c.negative))
                    .append(" | ").append(c.negativePasses() ? "yes" : "NO").append(" | ").append(Report.ratio(c.positive))
                    .append(" | ").append(c.positivePasses() ? "yes" : "NO").append(" | ").append(Report.ratio(c.stockPlainOverFinal)).append(" |\n");
        }
        md.append('\n');
    }

    private static String ns(Estimate e) {
        double half = (e.hi() - e.lo()) / 2;
        return Double.isFinite(half) ? String.format(Locale.ROOT, "%.3f ± %.3f", e.value(), half)
                : String.format(Locale.ROOT, "%.3f", e.value());
    }
}
