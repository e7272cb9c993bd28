package dev.vbd.cli;

import dev.vbd.agent.VbdAgent;
import dev.vbd.agent.layout.LayoutAgent;
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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

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
        List<Map<?, ?>> findings = new ArrayList<>();
        long below = 0;
        double seconds = ((Number) report.get("seconds")).doubleValue();
        for (Object f : (List<?>) report.get("findings")) {
            Map<?, ?> m = (Map<?, ?>) f;
            if (number(m, "misses") >= minMisses && number(m, "misses") >= minRate * seconds) {
                findings.add(m);
            } else {
                below++;
            }
        }
        findings.sort(Comparator.comparingLong((Map<?, ?> m) -> -number(m, "misses")));
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "vbd layout: %d finding%s in a run of %.1f s (%,d accesses watched, %d threads)%s%n",
                findings.size(), findings.size() == 1 ? "" : "s", seconds, number(report, "accesses"),
                ((List<?>) report.get("threads")).size(),
                below == 0 ? "" : String.format(Locale.ROOT, "; %d with fewer than %,d misses, or %,d a second, left out (--min-misses, --min-rate)", below, minMisses, minRate)));
        List<?> unwatched = (List<?>) report.get("unwatched");
        if (!unwatched.isEmpty()) text.append("  not watched (their accesses are not in the model): ").append(unwatched).append('\n');
        Set<String> contended = new LinkedHashSet<>();
        Set<String> strides = new LinkedHashSet<>();
        List<String> ruleComments = new ArrayList<>();
        int i = 0;
        for (Map<?, ?> f : findings) {
            i++;
            Finding d = new Finding(f, seconds);
            text.append('\n').append(i).append(". ").append(d.headline()).append('\n');
            text.append("   ").append(d.what()).append('\n');
            text.append("   fix: ").append(d.fix()).append('\n');
            List<String> fields = d.contended();
            String stride = d.stride();
            if (!fields.isEmpty() || stride != null) ruleComments.add("# " + i + ". " + d.headline());
            contended.addAll(fields);
            if (stride != null) strides.add(stride);
        }
        System.out.print(text);
        Files.writeString(out, layoutFile(args, ruleComments, contended, strides), StandardCharsets.UTF_8);
        System.out.println();
        int rules = contended.size() + strides.size();
        System.out.println("vbd layout: " + (rules == 0 ? "nothing a layout can repair; " : contended.size()
                + " field" + (contended.size() == 1 ? "" : "s") + " to pad apart, " + strides.size() + " array"
                + (strides.size() == 1 ? "" : "s") + " to stride; ") + "the layout is in " + out
                + (rules == 0 ? "" : " (bin/vbd run --layout " + out.getFileName() + " -- java ...)"));
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("command", new ArrayList<Object>(o.command));
        json.put("minMisses", minMisses);
        json.put("minRate", minRate);
        json.put("model", report);
        json.put("contended", new ArrayList<Object>(contended));
        json.put("strides", new ArrayList<Object>(strides));
        if (o.trials != null && rules > 0) json.put("trial", trial(java, args, out));
        if (o.json != null) Files.writeString(o.json, Json.write(json), StandardCharsets.UTF_8);
        return 0;
    }

    private String layoutFile(List<String> args, List<String> comments, Set<String> contended, Set<String> strides) {
        StringBuilder sb = new StringBuilder();
        sb.append("# vbd layout for: java ").append(String.join(" ", args)).append('\n');
        sb.append("# Each contended field gets cache lines of its own (the JVM's @Contended), each strided array's elements\n");
        sb.append("# lie a stride apart; apply with: vbd run --layout FILE\n");
        for (String c : comments) sb.append(c).append('\n');
        for (String f : contended) sb.append("contended ").append(f).append('\n');
        for (String f : strides) sb.append("stride ").append(f).append('\n');
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

    /** One finding of the model, in words, with its fix in Java's terms. */
    static final class Finding {
        private final Map<?, ?> f;
        private final Map<?, ?> a;
        private final Map<?, ?> b;
        private final String kind;
        private final double seconds;

        Finding(Map<?, ?> f, double seconds) {
            this.f = f;
            this.a = (Map<?, ?>) f.get("a");
            this.b = (Map<?, ?>) f.get("b");
            this.kind = (String) f.get("kind");
            this.seconds = seconds;
        }

        String headline() {
            String what = switch (kind) {
                case "true-sharing" -> "true sharing";
                case "fields" -> "false sharing: two fields of one object";
                case "neighbours" -> "false sharing: objects allocated next to each other";
                case "elements" -> "false sharing: elements of one array";
                default -> "false sharing: static fields of one class";
            };
            return String.format(Locale.ROOT, "%s, %,d misses (%,.0f a second), threads %s", what, number(f, "misses"),
                    number(f, "misses") / Math.max(seconds, 1e-3), String.join(", ", strings(f.get("threads"))));
        }

        String what() {
            if (kind.equals("true-sharing")) return describe(a) + ", written by " + writers(a);
            if (kind.equals("elements")) {
                return describe(a) + ": elements " + number(f, "distance") + " bytes apart, written by " + writers(a);
            }
            return describe(a) + " (written by " + writers(a) + ") and " + describe(b) + " (written by " + writers(b)
                    + "), " + number(f, "distance") + " bytes apart";
        }

        String fix() {
            return switch (kind) {
                case "true-sharing" -> "no layout helps; fewer writes do (a count per thread, summed at the end, as LongAdder keeps it)";
                case "elements" -> {
                    long n = strideOf((String) a.get("type"));
                    yield "give each thread's element a line of its own: a stride of " + n + " elements (index * " + n
                            + " into an array as much longer), or an object per thread with a @Contended field (as LongAdder's"
                            + " cells); " + (a.get("storedIn") == null ? "a layout cannot (the array goes into no field where it is allocated)"
                            : "the layout gives " + a.get("storedIn") + " the stride, where the rewrite can prove every use of it rewritten");
                }
                case "statics" -> "the JVM pads no static field: move each into an object of its own with a @Contended field"
                        + " (a layout cannot)";
                default -> {
                    List<String> fields = contended();
                    yield fields.isEmpty()
                            ? "pad the arrays apart (a layout cannot move an array)"
                            : "@jdk.internal.vm.annotation.Contended on " + String.join(" and ", fields)
                            + " (with -XX:-RestrictContended outside the JDK), or 128 bytes of padding around "
                            + (fields.size() == 1 ? "it" : "each") + "; the layout does the first";
                }
            };
        }

        /** The fields to pad: those written at least as often as the finding missed, or, where neither side is, every field side. */
        List<String> contended() {
            if (!kind.equals("fields") && !kind.equals("neighbours")) return List.of();
            Set<String> hot = new LinkedHashSet<>();
            Set<String> all = new LinkedHashSet<>();
            for (Map<?, ?> t : List.of(a, b)) {
                if (!"field".equals(t.get("kind"))) continue;
                String name = t.get("class") + "#" + t.get("field");
                all.add(name);
                if (number(t, "writes") >= number(f, "misses")) hot.add(name);
            }
            return new ArrayList<>(hot.isEmpty() ? all : hot);
        }

        /** The stride rule for a finding of elements whose array goes into a field where it is allocated, or null. */
        String stride() {
            if (!kind.equals("elements") || a.get("storedIn") == null) return null;
            return a.get("storedIn") + " " + strideOf((String) a.get("type"));
        }

        /** Elements a stride of 128 bytes (a pair of lines, as @Contended pads) is, from 2 to 64. */
        private static long strideOf(String type) {
            return Math.max(2, Math.min(64, 128 / scale(type)));
        }

        private static String describe(Map<?, ?> t) {
            return (String) t.get("describe");
        }

        private static String writers(Map<?, ?> t) {
            List<String> w = strings(t.get("writers"));
            return w.isEmpty() ? "no thread" : String.join(", ", w);
        }

        private static List<String> strings(Object list) {
            List<String> out = new ArrayList<>();
            for (Object x : (List<?>) list) out.add(String.valueOf(x));
            return out;
        }

        private static long scale(String type) {
            return switch (type) {
                case "long[]", "double[]" -> 8;
                case "int[]", "float[]" -> 4;
                case "short[]", "char[]" -> 2;
                case "byte[]", "boolean[]" -> 1;
                default -> 4;
            };
        }
    }
}
