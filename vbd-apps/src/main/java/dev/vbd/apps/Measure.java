package dev.vbd.apps;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Benchmark, not a test: the workloads stock and under vbd, in interleaved JVM invocations.
 *
 * <p>Each invocation runs {@code --iterations} iterations; the first {@code --warmup} are discarded and
 * the invocation's score is the mean time of the rest. Per workload it prints the mean score over the
 * invocations with a 95% confidence interval (Student's t over invocations) for stock and vbd, and the
 * ratio vbd/stock. Then JVM startup with a trivial main (wall time of the process, stock vs vbd) and
 * the time to prepare the JDK from an empty cache ({@code bin/vbd prepare --cache DIR -- java}).
 *
 * <p>Usage: {@code Measure REPO [--java J] [--invocations N] [--iterations N] [--warmup N]
 * [--threads N] [--hello-runs N] [--only app,app] [--size-APP N] [--vbd BIN_VBD]}. Raw timings go to
 * stderr. A workload that fails stock or under vbd gets a FAILED row and the others still run.
 */
public final class Measure {

    private final Path repo;
    private final Path classes;
    private final Path lib;
    private Path vbdLauncher;
    private String java = "java";
    private int invocations = 5;
    private int iterations = 8;
    private int warmup = 5;
    private int threads = 2;
    private int helloRuns = 10;
    private final Map<App, Integer> sizes = new LinkedHashMap<>();

    private Measure(Path repo) {
        this.repo = repo;
        this.classes = repo.resolve("vbd-apps/target/classes");
        this.lib = repo.resolve("vbd-apps/target/lib");
        this.vbdLauncher = repo.resolve("bin/vbd");
        // about one second per iteration each on 2 cores, so a full run takes about 40 minutes
        sizes.put(App.H2, 500);
        sizes.put(App.LUCENE, 5_000);
        sizes.put(App.JYTHON, 5_000);
        sizes.put(App.SPARK, 5_000);
        sizes.put(App.LUCENE_INDEX, 4_000);
        sizes.put(App.XALAN, 5_000);
        sizes.put(App.JAVAC, 20);
        sizes.put(App.FOP, 32);
        sizes.put(App.JETTY, 2_500);
        sizes.put(App.SPARK_MLLIB, 5_000);
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: Measure REPO [options]");
            System.exit(2);
        }
        Measure m = new Measure(Path.of(args[0]));
        try {
            for (int i = 1; i < args.length; i += 2) {
                String a = args[i];
                if (i + 1 >= args.length) throw new IllegalArgumentException("missing value after '" + a + "'");
                String v = args[i + 1];
                switch (a) {
                    case "--java" -> m.java = v;
                    case "--vbd" -> m.vbdLauncher = Path.of(v);
                    case "--invocations" -> m.invocations = Integer.parseInt(v);
                    case "--iterations" -> m.iterations = Integer.parseInt(v);
                    case "--warmup" -> m.warmup = Integer.parseInt(v);
                    case "--threads" -> m.threads = Integer.parseInt(v);
                    case "--hello-runs" -> m.helloRuns = Integer.parseInt(v);
                    case "--only" -> {
                        List<App> keep = new ArrayList<>();
                        for (String id : v.split(",")) keep.add(App.byId(id.trim()));
                        m.sizes.keySet().retainAll(keep);
                    }
                    default -> {
                        if (!a.startsWith("--size-")) throw new IllegalArgumentException("unknown option '" + a + "'");
                        m.sizes.put(App.byId(a.substring("--size-".length())), Integer.parseInt(v));
                    }
                }
            }
            if (m.warmup >= m.iterations) {
                throw new IllegalArgumentException("--warmup " + m.warmup + " leaves no measured iteration of "
                        + m.iterations);
            }
            if (m.invocations < 2) throw new IllegalArgumentException("--invocations must be at least 2 for an interval");
        } catch (IllegalArgumentException e) {
            System.err.println("measure: " + e.getMessage());
            System.exit(2);
        }
        m.measure();
    }

    private record Run(int exit, String stdout, String stderr, double wallMs) {}

    private Run launch(List<String> command, Map<String, String> env) throws IOException, InterruptedException {
        Path out = Files.createTempFile("vbd-measure", ".out");
        Path err = Files.createTempFile("vbd-measure", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
            pb.environment().putAll(env);
            long start = System.nanoTime();
            Process p = pb.start();
            if (!p.waitFor(30, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException("no exit within 30 minutes: " + command);
            }
            double wall = (System.nanoTime() - start) / 1e6;
            return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8), wall);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private List<String> vbd(String sub, List<String> options, List<String> javaCommand) {
        List<String> cmd = new ArrayList<>();
        cmd.add(vbdLauncher.toString());
        cmd.add(sub);
        cmd.addAll(options);
        cmd.add("--");
        cmd.addAll(javaCommand);
        return cmd;
    }

    /** The invocation's score: mean of the iteration times after the warm-up ones. */
    private double score(App app, Run run, String label) {
        List<Double> times = new ArrayList<>();
        String prefix = Workload.TIMING_PREFIX + app.id() + " iteration ";
        for (String line : run.stderr().lines().toList()) {
            if (line.startsWith(prefix)) {
                times.add(Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
            }
        }
        if (run.exit() != 0 || times.size() != iterations) {
            throw new IllegalStateException(label + ": exit " + run.exit() + ", " + times.size() + " timing lines of "
                    + iterations + "\n" + run.stderr());
        }
        System.err.println("  " + label + " iterations_ms " + times);
        return mean(times.subList(warmup, times.size()));
    }

    private void measure() throws Exception {
        String cp = App.classpath(classes, lib);
        StringBuilder report = new StringBuilder();
        report.append(String.format(Locale.ROOT, "java: %s; %d invocations x %d iterations (%d warm-up), %d threads%n",
                java, invocations, iterations, warmup, threads));
        report.append(String.format(Locale.ROOT, "%-12s %7s  %22s  %22s  %7s%n", "app", "size", "stock ms (95% CI)",
                "vbd ms (95% CI)", "vbd/stock"));
        // make sure the JDK is prepared before anything is timed
        launch(vbd("run", List.of("--quiet"), List.of(java, "-cp", classes.toString(), Hello.class.getName())), Map.of());

        for (Map.Entry<App, Integer> e : sizes.entrySet()) {
            App app = e.getKey();
            List<String> javaCmd = new ArrayList<>();
            javaCmd.add(java);
            javaCmd.addAll(app.javaArgs(cp, List.of("--size", String.valueOf(e.getValue()), "--threads",
                    String.valueOf(threads), "--iterations", String.valueOf(iterations))));
            List<Double> stock = new ArrayList<>();
            List<Double> vbd = new ArrayList<>();
            String expected = null;
            try {
                for (int i = 0; i < invocations; i++) {
                    Run s = launch(javaCmd, app.environment);
                    stock.add(score(app, s, app.id() + " stock #" + i));
                    Run v = launch(vbd("run", List.of("--quiet"), javaCmd), app.environment);
                    vbd.add(score(app, v, app.id() + " vbd #" + i));
                    if (expected == null) expected = s.stdout();
                    if (!expected.equals(s.stdout()) || !expected.equals(v.stdout())) {
                        throw new IllegalStateException(app.id() + ": stdout differs between runs (invocation " + i + ")");
                    }
                }
                report.append(String.format(Locale.ROOT, "%-12s %7d  %22s  %22s  %7.2f%n", app.id(), e.getValue(),
                        ci(stock), ci(vbd), mean(vbd) / mean(stock)));
            } catch (IllegalStateException failure) {
                String reason = failure.getMessage().lines().filter(l -> l.contains("FAILED")).findFirst()
                        .orElse(failure.getMessage().lines().findFirst().orElse(""));
                System.err.println(failure.getMessage());
                report.append(String.format(Locale.ROOT, "%-12s %7d  FAILED: %s%n", app.id(), e.getValue(), reason));
            }
            System.err.print(report);
        }

        List<Double> helloStock = new ArrayList<>();
        List<Double> helloVbd = new ArrayList<>();
        List<String> hello = List.of(java, "-cp", classes.toString(), Hello.class.getName());
        for (int i = 0; i < helloRuns; i++) {
            Run s = launch(hello, Map.of());
            Run v = launch(vbd("run", List.of("--quiet"), hello), Map.of());
            if (s.exit() != 0 || v.exit() != 0 || !s.stdout().equals(v.stdout())) {
                throw new IllegalStateException("hello: stock exit " + s.exit() + ", vbd exit " + v.exit() + "\n" + v.stderr());
            }
            helloStock.add(s.wallMs());
            helloVbd.add(v.wallMs());
        }
        report.append(String.format(Locale.ROOT, "%-12s %7s  %22s  %22s  %7.2f   (process wall time, %d runs, incl. bin/vbd)%n",
                "hello", "-", ci(helloStock), ci(helloVbd), mean(helloVbd) / mean(helloStock), helloRuns));

        Path cache = Files.createTempDirectory("vbd-measure-cache");
        try {
            Run prep = launch(vbd("prepare", List.of("--cache", cache.toString(), "--quiet"), List.of(java)), Map.of());
            if (prep.exit() != 0) throw new IllegalStateException("vbd prepare failed:\n" + prep.stderr());
            report.append(String.format(Locale.ROOT, "prepare  JDK from an empty cache: %.1f s (wall)%n", prep.wallMs() / 1000));
        } finally {
            try (var walk = Files.walk(cache)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        System.out.print(report);
    }

    static double mean(List<Double> xs) {
        double s = 0;
        for (double x : xs) s += x;
        return s / xs.size();
    }

    /** "mean ± half-width" of the 95% confidence interval of the mean, Student's t. */
    static String ci(List<Double> xs) {
        int n = xs.size();
        double m = mean(xs);
        double ss = 0;
        for (double x : xs) ss += (x - m) * (x - m);
        double half = t975(n - 1) * Math.sqrt(ss / (n - 1)) / Math.sqrt(n);
        return String.format(Locale.ROOT, "%.1f ± %.1f", m, half);
    }

    /** Two-sided 95% quantile of Student's t with {@code df} degrees of freedom. */
    static double t975(int df) {
        double[] table = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
        return df <= table.length ? table[df - 1] : 1.96;
    }
}
