package dev.vbd.bench;

import dev.vbd.bench.Stats.Estimate;
import dev.vbd.bench.jmh.UnitCosts;
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
 * The JMH microbenchmarks ({@link UnitCosts}) under stock and under vbd. Each JMH fork is one
 * invocation in the sense of the method: forks of the two configurations alternate, the fork's
 * score is JMH's mean over its measurement iterations, and the interval is Student's t over forks.
 */
final class Micro {
    private Micro() {}

    record Settings(int rounds, int warmupIterations, int measurementIterations, int iterationMs) {
        Map<String, Object> toJson() {
            return Report.map("forks_per_config", rounds, "warmup_iterations", warmupIterations,
                    "measurement_iterations", measurementIterations, "iteration_ms", iterationMs,
                    "score", "ns/op, JMH average time of one fork; interval Student-t 95% over forks");
        }
    }

    /**
     * Warm-up long enough for C2: before it compiles them, the plain-mode accesses of a relaxed method
     * under vbd go through a VarHandle in the interpreter and C1, a hundred times slower. One fork
     * per configuration in a quick run: its figures have no interval.
     */
    static final Settings QUICK = new Settings(1, 5, 3, 300);
    static final Settings FULL = new Settings(3, 6, 5, 500);

    record Row(String benchmark, Estimate stock, Estimate vbd, Estimate ratio, double[] stockForks, double[] vbdForks) {}

    /** Benchmark method names of {@link UnitCosts}, in source order where the JVM keeps it. */
    static List<String> benchmarks() {
        List<String> out = new ArrayList<>();
        for (Method m : UnitCosts.class.getDeclaredMethods()) {
            if (m.isAnnotationPresent(Benchmark.class)) out.add(m.getName());
        }
        List<String> order = List.of("fieldStore", "fieldStoreRelaxed", "arrayStore", "fieldLoadLoop", "allocation");
        out.sort((a, b) -> Integer.compare(rank(order, a), rank(order, b)));
        return out;
    }

    private static int rank(List<String> order, String name) {
        int i = order.indexOf(name);
        return i < 0 ? order.size() : i;
    }

    static List<Row> run(Settings s, String java, List<String> shared, List<String> vbdArgs, Progress progress)
            throws RunnerException {
        List<String> names = benchmarks();
        Map<String, List<Double>> stock = new LinkedHashMap<>();
        Map<String, List<Double>> vbd = new LinkedHashMap<>();
        int total = s.rounds * names.size() * 2;
        int done = 0;
        long start = System.nanoTime();
        for (int round = 0; round < s.rounds; round++) {
            for (String name : names) {
                for (boolean underVbd : new boolean[] {false, true}) {
                    ChainedOptionsBuilder ob = new OptionsBuilder()
                            .include("^" + Pattern.quote(UnitCosts.class.getName() + "." + name) + "$")
                            .forks(1)
                            .warmupIterations(s.warmupIterations).warmupTime(TimeValue.milliseconds(s.iterationMs))
                            .measurementIterations(s.measurementIterations).measurementTime(TimeValue.milliseconds(s.iterationMs))
                            .jvm(java)
                            .jvmArgs(shared.toArray(String[]::new))
                            .shouldFailOnError(true)
                            .verbosity(VerboseMode.SILENT);
                    if (underVbd) ob.jvmArgsPrepend(vbdArgs.toArray(String[]::new));
                    Collection<RunResult> results = new Runner(ob.build()).run();
                    if (results.size() != 1) {
                        throw new RunnerException("JMH ran " + results.size() + " benchmarks for " + name + ", expected 1");
                    }
                    double score = results.iterator().next().getPrimaryResult().getScore();
                    (underVbd ? vbd : stock).computeIfAbsent(name, k -> new ArrayList<>()).add(score);
                    done++;
                    double elapsed = (System.nanoTime() - start) / 1e9;
                    progress.note(String.format(Locale.ROOT, "[jmh %d/%d] %s %s fork %d/%d: %.3f ns/op; about %s left",
                            done, total, name, underVbd ? "vbd" : "stock", round + 1, s.rounds, score,
                            Progress.duration(elapsed / done * (total - done))));
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        for (String name : names) {
            double[] st = stock.get(name).stream().mapToDouble(Double::doubleValue).toArray();
            double[] vb = vbd.get(name).stream().mapToDouble(Double::doubleValue).toArray();
            rows.add(new Row(name, Stats.meanCi(st), Stats.meanCi(vb), Stats.ratioCi(vb, st), st, vb));
        }
        return rows;
    }

    static Map<String, Object> json(List<Row> rows, Map<String, Object> settings) {
        List<Object> list = new ArrayList<>();
        for (Row r : rows) {
            list.add(Report.map("benchmark", r.benchmark, "stock_ns", r.stock.value(), "stock_ci95_ns", Report.interval(r.stock),
                    "vbd_ns", r.vbd.value(), "vbd_ci95_ns", Report.interval(r.vbd), "ratio", r.ratio.value(),
                    "ci95", Report.interval(r.ratio), "stock_forks_ns", Arrays.stream(r.stockForks).boxed().toList(),
                    "vbd_forks_ns", Arrays.stream(r.vbdForks).boxed().toList()));
        }
        return Report.map("settings", settings, "benchmarks", list);
    }

    static void markdown(StringBuilder md, List<Row> rows, Map<String, Object> settings) {
        md.append("## Microbenchmarks (JMH)\n\n");
        md.append(String.format(Locale.ROOT, "`dev.vbd.bench.jmh.UnitCosts`; JMH forks per configuration: %s, alternating, each %s x %s ms "
                        + "warm-up and %s x %s ms measured; JMH's own classes relaxed under vbd. ns/op, mean ± half the 95%% interval.%n%n",
                settings.get("forks_per_config"), settings.get("warmup_iterations"), settings.get("iteration_ms"),
                settings.get("measurement_iterations"), settings.get("iteration_ms")));
        md.append("| benchmark | stock ns/op | vbd ns/op | vbd / stock |\n|---|---:|---:|---:|\n");
        for (Row r : rows) {
            md.append("| ").append(r.benchmark).append(" | ").append(ns(r.stock)).append(" | ").append(ns(r.vbd)).append(" | ")
                    .append(Report.ratio(r.ratio)).append(" |\n");
        }
        md.append('\n');
    }

    private static String ns(Estimate e) {
        double half = (e.hi() - e.lo()) / 2;
        return Double.isFinite(half) ? String.format(Locale.ROOT, "%.3f ± %.3f", e.value(), half)
                : String.format(Locale.ROOT, "%.3f", e.value());
    }
}
