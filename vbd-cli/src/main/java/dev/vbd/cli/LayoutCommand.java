package dev.vbd.cli;

import dev.vbd.agent.VbdAgent;
import dev.vbd.agent.layout.LayoutAgent;
import dev.vbd.cli.layout.Finding;
import dev.vbd.cli.layout.Rules;
import dev.vbd.core.verify.Json;
import dev.vbd.host.Stats;
import dev.vbd.host.Trees;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code vbd layout}: where the program's threads share cache lines falsely, and the layout that
 * pads the fields apart. The program runs once on stock Java with the layout probe in its classes
 * ({@link LayoutAgent}), whose model of the cache lines tallies each coherence miss by what the
 * missing thread touched and what the other thread had written; false sharing is a miss between
 * different bytes. Findings are ranked by their misses; the fields among them go into the layout
 * ({@link dev.vbd.core.layout.Layout}). With {@code --trials}, the program then runs under vbd
 * with the layout and without it, alternating, for the time the layout saves.
 */
final class LayoutCommand {
    static final int DEFAULT_MIN_MISSES = 1000;
    /**
     * Misses a second below which a finding is left out: at 100 to 200 ns a miss, 20,000 a second stall a
     * core for 0.2 to 0.4% of the run, about the least a bench can tell; a real application's shared
     * objects (Xalan's, H2's) miss a few hundred times a second, which no layout would pay back.
     */
    static final int DEFAULT_MIN_RATE = 20_000;

    private final Options o;
    private final Path work;
    private final int minMisses;
    private final int minRate;

    private LayoutCommand(Options o, Path work) {
        this.o = o;
        this.work = work;
        this.minMisses = o.minMisses == null ? DEFAULT_MIN_MISSES : o.minMisses;
        this.minRate = o.minRate == null ? DEFAULT_MIN_RATE : o.minRate;
    }

    static int run(Options o) throws UsageException, IOException {
        if (o.command.size() < 2) throw new UsageException("layout: the java command line needs the program to run, e.g. -- java -jar app.jar");
        Path out = o.out == null ? Path.of("vbd.layout").toAbsolutePath() : o.out;
        Files.createDirectories(o.cache);
        Path work = Files.createTempDirectory(o.cache, "layout-");
        try {
            return new LayoutCommand(o, work).layout(o.javaWord(), o.command.subList(1, o.command.size()), out);
        } finally {
            Trees.delete(work);
        }
    }

    private int layout(String java, List<String> args, Path out) throws UsageException, IOException {
        Path jar = Main.vbdJar();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xbootclasspath/a:" + jar,
                "-javaagent:" + jar + "=" + VbdAgent.LAYOUT + URLEncoder.encode(work.toString(), StandardCharsets.UTF_8)));
        cmd.addAll(args);
        progress("vbd: layout: watching the program's accesses on stock Java ... ");
        long start = System.nanoTime();
        Path stdout = work.resolve("watched.out");
        Path stderr = work.resolve("watched.err");
        int status = Program.run(new ProcessBuilder(cmd), stdout, stderr, null).status();
        progress(String.format(Locale.ROOT, "%.0f s%n", (System.nanoTime() - start) / 1e9));
        if (status != 0) return failed("watched", status, stderr);
        Path lines = work.resolve(LayoutAgent.LINES);
        if (!Files.isRegularFile(lines)) {
            System.err.println("vbd: layout: the watched run ended without the probe's report (halted before its shutdown hooks?)");
            return 1;
        }
        Map<?, ?> report = (Map<?, ?>) Json.parse(Files.readString(lines, StandardCharsets.UTF_8));
        double seconds = ((Number) report.get("seconds")).doubleValue();
        List<Map<?, ?>> pairs = new ArrayList<>();
        for (Object f : (List<?>) report.get("findings")) pairs.add((Map<?, ?>) f);
        List<Map<?, ?>> kept = new ArrayList<>();
        for (Map<?, ?> m : pairs) {
            if (number(m, "misses") >= minMisses && number(m, "misses") >= minRate * seconds) kept.add(m);
        }
        kept.sort(Comparator.comparingLong((Map<?, ?> m) -> -number(m, "misses")));
        List<Finding> findings = Finding.merge(kept, seconds);
        Rules rules = Rules.of(findings, pairs);
        System.out.print(text(report, findings, rules, pairs.size() - kept.size(), seconds));
        Files.writeString(out, layoutFile(args, findings, rules), StandardCharsets.UTF_8);
        System.out.println();
        int fields = rules.contended().size();
        int strides = rules.strides().size();
        System.out.println("vbd layout: " + (rules.isEmpty() ? "nothing a layout can repair; " : fields
                + " field" + (fields == 1 ? "" : "s") + " to pad apart, " + strides + " array"
                + (strides == 1 ? "" : "s") + " to stride; ") + "the layout is in " + out
                + (rules.isEmpty() ? "" : " (bin/vbd run --layout " + out.getFileName() + " -- java ...)"));
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("command", new ArrayList<Object>(o.command));
        json.put("minMisses", minMisses);
        json.put("minRate", minRate);
        json.put("model", report);
        json.put("contended", new ArrayList<Object>(rules.contended()));
        json.put("groups", new LinkedHashMap<Object, Object>(rules.groups()));
        json.put("strides", new ArrayList<Object>(rules.strides()));
        if (o.trials != null && !rules.isEmpty()) json.put("trial", trial(java, args, out));
        if (o.json != null) Files.writeString(o.json, Json.write(json), StandardCharsets.UTF_8);
        return 0;
    }

    /** The report: a line on the run, then each finding with what it is between and its fix. */
    private String text(Map<?, ?> report, List<Finding> findings, Rules rules, int below, double seconds) {
        Map<String, String> groups = rules.groups();
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "vbd layout: %d finding%s in a run of %.1f s (%,d accesses watched, %d threads)%s%n",
                findings.size(), findings.size() == 1 ? "" : "s", seconds, number(report, "accesses"),
                ((List<?>) report.get("threads")).size(),
                below == 0 ? "" : String.format(Locale.ROOT, "; %d pair%s with fewer than %,d misses, or %,d a second, left out (--min-misses, --min-rate)",
                        below, below == 1 ? "" : "s", minMisses, minRate)));
        List<?> unwatched = (List<?>) report.get("unwatched");
        if (!unwatched.isEmpty()) text.append("  not watched (their accesses are not in the model): ").append(unwatched).append('\n');
        int i = 0;
        for (Finding d : findings) {
            text.append('\n').append(++i).append(". ").append(d.headline()).append('\n');
            text.append("   ").append(d.what()).append('\n');
            text.append("   fix: ").append(d.fix(groups)).append('\n');
        }
        return text.toString();
    }

    private static String layoutFile(List<String> args, List<Finding> findings, Rules rules) {
        StringBuilder sb = new StringBuilder();
        sb.append("# vbd layout for: java ").append(String.join(" ", args)).append('\n');
        sb.append("# Each contended field gets cache lines of its own (the JVM's @Contended), shared with the fields of its\n");
        sb.append("# group if it names one; each strided array's elements lie a stride apart; apply with: vbd run --layout FILE\n");
        int i = 0;
        for (Finding d : findings) {
            i++;
            if (!d.contended().isEmpty() || d.stride() != null) sb.append("# ").append(i).append(". ").append(d.headline()).append('\n');
        }
        sb.append(rules.lines());
        return sb.toString();
    }

    /** The program under vbd with the layout and without, alternating; the ratio of their times with its interval. */
    private Map<String, Object> trial(String java, List<String> args, Path layout) throws UsageException, IOException {
        int n = o.trials;
        double[] with = new double[n];
        double[] without = new double[n];
        List<String> withCmd = Main.launchCommand(o.withLayout(layout), java, args, null);
        List<String> withoutCmd = Main.launchCommand(o.withLayout(null), java, args, null);
        for (int k = 0; k < n; k++) {
            progress("vbd: layout: trial " + (k + 1) + "/" + n + " under vbd without the layout ... ");
            without[k] = timed(withoutCmd, "without-" + k);
            progress(String.format(Locale.ROOT, "%.2f s, with it ... ", without[k]));
            with[k] = timed(withCmd, "with-" + k);
            progress(String.format(Locale.ROOT, "%.2f s%n", with[k]));
        }
        Stats.Estimate r = Stats.ratioCi(with, without);
        System.out.println(String.format(Locale.ROOT, "vbd layout: under vbd, the run with the layout takes %.2fx the time "
                        + "without it, 95%% interval %s, over %d run%s of each (wall-clock, start-up included)",
                r.value(), r.bounded() ? String.format(Locale.ROOT, "[%.2f, %.2f]", r.lo(), r.hi()) : "unbounded (more --trials)",
                n, n == 1 ? "" : "s"));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("with", toList(with));
        m.put("without", toList(without));
        m.put("ratio", r.value());
        m.put("lo", r.bounded() ? r.lo() : null);
        m.put("hi", r.bounded() ? r.hi() : null);
        return m;
    }

    private double timed(List<String> cmd, String name) throws UsageException, IOException {
        long start = System.nanoTime();
        Path err = work.resolve(name + ".err");
        int status = Program.run(new ProcessBuilder(cmd), work.resolve(name + ".out"), err, null).status();
        double s = (System.nanoTime() - start) / 1e9;
        if (status != 0) {
            failed(name, status, err);
            throw new UsageException("layout: a trial run failed (exit status " + status + ")");
        }
        return s;
    }

    private static List<Object> toList(double[] xs) {
        List<Object> l = new ArrayList<>();
        for (double x : xs) l.add(x);
        return l;
    }

    private void progress(String s) {
        if (!o.quiet) System.err.print(s);
    }

    private static int failed(String name, int status, Path err) throws IOException {
        return Program.failed("layout", name, status, err);
    }

    static long number(Map<?, ?> m, String key) {
        return ((Number) m.get(key)).longValue();
    }
}
