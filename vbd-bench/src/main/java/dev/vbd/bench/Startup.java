package dev.vbd.bench;

import dev.vbd.apps.App;
import dev.vbd.host.Command;
import dev.vbd.host.Stats;
import dev.vbd.host.Trees;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * {@code bin/vbd bench --startup}: how long short programs take from the command to their exit,
 * stock against vbd, the configurations interleaved round by round so that a drift of the
 * machine's speed hits them alike. Each ratio's 95% interval is the Student-t interval of the mean
 * log ratio over the rounds, taken back to a ratio.
 *
 * <p>Configurations: {@code stock} is the JDK's {@code java}; {@code vbd} is the command
 * {@code bin/vbd run} executes (asked once of vbd's jar, as {@code bin/vbd launch} prints it, so no timed run pays for
 * vbd's own launcher JVM): the prepared image, which rewrites the program's classes itself and
 * takes those it rewrote in an earlier run from its store (the untimed first run fills it);
 * {@code vbd-first} is the same with a store emptied before each run, as a program's first run
 * under vbd finds it; {@code vbd-agent} is {@code bin/vbd run --agent}'s, the image with vbd's agent doing the rewriting;
 * {@code vbd-patched} is the JDK's {@code java} with the options of
 * {@code bin/vbd jvm-args} (its modules patched at start, as launchers that keep their own
 * {@code java} run it); {@code vbd-fenced} is {@code bin/vbd run --fields fenced}'s, {@code vbd-speculative}
 * {@code --fields speculative}'s, {@code vbd-safe-construction} {@code --mode safe-construction}'s.
 */
final class Startup {
    static final List<String> PROGRAMS = List.of("hello", "javac", "junit");
    /** The first iteration of a bench workload, as a fresh JVM runs it: {@code first-} and the workload's name. */
    static final String FIRST = "first-";
    /** {@code --programs workloads}: the first iteration of every bench workload. */
    static final String WORKLOADS = "workloads";

    static List<String> knownPrograms() {
        List<String> known = new ArrayList<>(PROGRAMS);
        for (String w : WorkloadCatalog.names()) known.add(FIRST + w);
        return known;
    }
    static final List<String> CONFIGS = List.of("stock", "vbd", "vbd-first", "vbd-agent", "vbd-patched", "vbd-fenced", "vbd-speculative");
    /** {@link #CONFIGS} and those run only when asked for. */
    static final List<String> KNOWN = List.of("stock", "vbd", "vbd-first", "vbd-agent", "vbd-patched", "vbd-fenced", "vbd-speculative",
            "vbd-safe-construction");
    private static final int JUNIT_CLASSES = 10;
    private static final int JUNIT_TESTS_PER_CLASS = 30;

    private final Path repo;
    private final Path work;
    private final String java;

    private Startup(Path repo, Path work, String java) {
        this.repo = repo;
        this.work = work;
        this.java = java;
    }

    static int run(Path repo, List<String> args) throws Exception {
        StartupArgs a = new StartupArgs();
        try {
            CommandLines.parse(a, args);
        } catch (CommandLines.HelpRequested e) {
            System.out.print(e.usage);
            return 0;
        }
        int rounds = a.rounds;
        List<String> programs = a.programs;
        List<String> configs = a.configs;
        String java = a.java;
        String stamp = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss'Z'").withZone(ZoneOffset.UTC).format(Instant.now());
        Path out = a.out != null ? a.out : repo.resolve("bench-results").resolve(stamp + "-startup");
        Map<String, Object> jdk = Machine.jdk(java); // a --java that is no launcher stops here, before anything is written
        Files.createDirectories(out);
        Startup s = new Startup(repo, out.resolve("work"), java);
        Map<String, Map<String, List<String>>> commands = new LinkedHashMap<>();
        for (String p : programs) {
            List<String> args0 = s.programArgs(p);
            Map<String, List<String>> byConfig = new LinkedHashMap<>();
            for (String c : configs) byConfig.put(c, s.command(c, args0));
            commands.put(p, byConfig);
        }
        Map<String, Map<String, double[]>> ms = new LinkedHashMap<>();
        for (String p : programs) {
            Map<String, double[]> m = new LinkedHashMap<>();
            for (String c : configs) m.put(c, new double[rounds]);
            ms.put(p, m);
        }
        // one untimed run of each first: file caches, and anything vbd prepares on first use
        for (String p : programs) for (String c : configs) s.time(p, c, commands.get(p).get(c));
        for (int r = 0; r < rounds; r++) {
            for (String p : programs) {
                for (int k = 0; k < configs.size(); k++) {
                    String c = configs.get((k + r) % configs.size()); // each configuration takes each place in turn
                    ms.get(p).get(c)[r] = s.time(p, c, commands.get(p).get(c));
                }
            }
            System.err.printf(Locale.ROOT, "vbd bench --startup: round %d of %d done%n", r + 1, rounds);
        }
        String javaHome = (String) jdk.get("java.home");
        String report = report(ms, configs, rounds, jdk.get("java.vendor") + " " + jdk.get("java.runtime.version"));
        System.out.print(report);
        Files.writeString(out.resolve("startup.md"), Portable.of(report, repo, javaHome), StandardCharsets.UTF_8);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("jdk", jdk);
        json.put("machine", Machine.describe());
        json.put("rounds", rounds);
        Map<String, Object> times = new LinkedHashMap<>();
        ms.forEach((p, m) -> {
            Map<String, Object> byConfig = new LinkedHashMap<>();
            m.forEach((c, xs) -> byConfig.put(c, Arrays.stream(xs).boxed().toList()));
            times.put(p, byConfig);
        });
        json.put("wall_ms", times);
        Files.writeString(out.resolve("startup.json"), Portable.of(Json.write(json), repo, javaHome), StandardCharsets.UTF_8);
        return 0;
    }

    static String report(Map<String, Map<String, double[]>> ms, List<String> configs, int rounds, Object jdk) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Start-up, %d interleaved rounds, %s: median wall time, and the ratio to stock"
                + " with its 95%% interval%n%n", rounds, jdk));
        sb.append("| program |");
        for (String c : configs) sb.append(' ').append(c).append(" |");
        for (String c : configs) if (!c.equals("stock")) sb.append(' ').append(c).append(" / stock |");
        sb.append('\n').append("|---|").append("---:|".repeat(2 * configs.size() - 1)).append('\n');
        for (Map.Entry<String, Map<String, double[]>> e : ms.entrySet()) {
            sb.append("| ").append(e.getKey()).append(" |");
            for (String c : configs) sb.append(String.format(Locale.ROOT, " %.0f ms |", median(e.getValue().get(c))));
            for (String c : configs) {
                if (c.equals("stock")) continue;
                Stats.Estimate r = pairedRatio(e.getValue().get(c), e.getValue().get("stock"));
                sb.append(String.format(Locale.ROOT, " %.2f [%.2f, %.2f] |", r.value(), r.lo(), r.hi()));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** The geometric mean of a[i] / b[i] over paired rounds, with the 95% t-interval of the mean log ratio. */
    static Stats.Estimate pairedRatio(double[] a, double[] b) {
        double[] logs = new double[a.length];
        for (int i = 0; i < a.length; i++) logs[i] = Math.log(a[i] / b[i]);
        Stats.Estimate m = Stats.meanCi(logs);
        return new Stats.Estimate(Math.exp(m.value()), Math.exp(m.lo()), Math.exp(m.hi()));
    }

    private static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /** What follows {@code java} for a program: generated and compiled here once. */
    private List<String> programArgs(String program) throws IOException {
        Path dir = work.resolve(program);
        Files.createDirectories(dir);
        if (program.startsWith(FIRST)) return firstIteration(program.substring(FIRST.length()));
        switch (program) {
            case "hello" -> {
                compile(dir, Map.of("Hello.java", "public class Hello { public static void main(String[] a) { System.out.println(\"hello\"); } }\n"), List.of());
                return List.of("-cp", dir.toString(), "Hello");
            }
            case "javac" -> {
                Path src = dir.resolve("Small.java");
                Files.writeString(src, """
                        import java.util.*;
                        public class Small {
                            private final Map<String, List<Integer>> index = new HashMap<>();
                            void add(String word, int line) { index.computeIfAbsent(word, k -> new ArrayList<>()).add(line); }
                            List<Integer> lines(String word) { return index.getOrDefault(word, List.of()); }
                            public static void main(String[] args) {
                                Small s = new Small();
                                for (int i = 0; i < args.length; i++) s.add(args[i], i);
                                System.out.println(s.lines("x"));
                            }
                        }
                        """, StandardCharsets.UTF_8);
                Path classes = dir.resolve("classes");
                Files.createDirectories(classes);
                return List.of("-m", "jdk.compiler/com.sun.tools.javac.Main", "-d", classes.toString(), src.toString());
            }
            case "junit" -> {
                Map<String, String> sources = new LinkedHashMap<>();
                for (int c = 0; c < JUNIT_CLASSES; c++) {
                    StringBuilder t = new StringBuilder("import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\n");
                    t.append("public class Case").append(c).append("Test {\n");
                    for (int m = 0; m < JUNIT_TESTS_PER_CLASS; m++) {
                        t.append("    @Test void test").append(m).append("() { StringBuilder b = new StringBuilder(); for (int i = 0; i < ")
                                .append(m + 1).append("; i++) b.append(i); assertEquals(").append(m + 1)
                                .append(", b.chars().filter(ch -> ch == '0' || ch != '0').limit(").append(m + 1).append(").count()); }\n");
                    }
                    t.append("}\n");
                    sources.put("Case" + c + "Test.java", t.toString());
                }
                List<Path> junit = junitJars();
                compile(dir, sources, junit);
                String cp = Stream.concat(Stream.of(dir, repo.resolve("vbd-bench/target/classes")), junit.stream())
                        .map(Path::toString).collect(Collectors.joining(File.pathSeparator));
                return List.of("-cp", cp, JUnitRun.class.getName(), String.valueOf(JUNIT_CLASSES * JUNIT_TESTS_PER_CLASS));
            }
            default -> throw new IllegalArgumentException(program);
        }
    }

    /** A bench workload at the quick run's size, two threads where it takes them, one iteration. */
    private List<String> firstIteration(String workload) {
        if (catalog == null) {
            catalog = new WorkloadCatalog(App.classpath(repo.resolve("vbd-apps/target/classes"), repo.resolve("vbd-apps/target/lib")), "");
        }
        WorkloadSpec spec = catalog.spec(workload, BenchOptions.Mode.QUICK, Map.of());
        List<String> args = new ArrayList<>();
        if (spec.size() != null) args.addAll(List.of("--size", String.valueOf(spec.size())));
        if (spec.threaded()) args.addAll(List.of("--threads", "2"));
        args.addAll(List.of("--iterations", "1"));
        environments.put(FIRST + workload, spec.environment());
        return App.byId(workload).javaArgs(spec.classpath(), args);
    }

    private WorkloadCatalog catalog;

    /** Environment variables a program's JVM needs (the workloads'), by program. */
    private final Map<String, Map<String, String>> environments = new LinkedHashMap<>();

    private List<Path> junitJars() throws IOException {
        try (Stream<Path> s = Files.list(repo.resolve("vbd-bench/target/lib"))) {
            List<Path> jars = s.filter(p -> {
                String n = p.getFileName().toString();
                return n.endsWith(".jar") && (n.startsWith("junit-") || n.startsWith("opentest4j") || n.startsWith("apiguardian"));
            }).sorted().toList();
            if (jars.isEmpty()) throw new IllegalStateException("no JUnit jars under vbd-bench/target/lib (build with bin/vbd bench)");
            return jars;
        }
    }

    private static void compile(Path dir, Map<String, String> sources, List<Path> classpath) throws IOException {
        List<String> args = new ArrayList<>(List.of("-d", dir.toString(), "--release", "17"));
        if (!classpath.isEmpty()) {
            args.add("-cp");
            args.add(classpath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)));
        }
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path f = dir.resolve(e.getKey());
            Files.writeString(f, e.getValue(), StandardCharsets.UTF_8);
            args.add(f.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null || javac.run(null, null, null, args.toArray(String[]::new)) != 0) {
            throw new IllegalStateException("cannot compile the start-up programs in " + dir);
        }
    }

    /** The whole command for one configuration. */
    private List<String> command(String config, List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        switch (config) {
            case "stock" -> {
                cmd.add(java);
                cmd.addAll(args);
            }
            case "vbd" -> cmd.addAll(VbdOptions.launchCommand(repo, java, args));
            case "vbd-first" -> {
                List<String> withStore = new ArrayList<>(List.of("-Dvbd.store=" + firstStore()));
                withStore.addAll(args);
                cmd.addAll(VbdOptions.launchCommand(repo, java, withStore));
            }
            case "vbd-agent" -> cmd.addAll(VbdOptions.launchCommand(repo, List.of("--agent"), java, args));
            case "vbd-fenced" -> cmd.addAll(VbdOptions.launchCommand(repo, List.of("--fields", "fenced"), java, args));
            case "vbd-speculative" -> cmd.addAll(VbdOptions.launchCommand(repo, List.of("--fields", "speculative"), java, args));
            case "vbd-safe-construction" -> cmd.addAll(VbdOptions.launchCommand(repo, List.of("--mode", "safe-construction"), java, args));
            default -> {
                cmd.add(java);
                cmd.addAll(VbdOptions.jvmArgs(repo, java, null));
                cmd.addAll(args);
            }
        }
        return cmd;
    }

    /** Wall milliseconds of one run; a run that fails stops the measurement with its output. */
    /** The store of rewrites of {@code vbd-first}, emptied before each of its runs. */
    private Path firstStore() {
        return work.resolve("first-store");
    }

    private double time(String program, String config, List<String> cmd) throws IOException, InterruptedException {
        Files.createDirectories(work);
        if (config.equals("vbd-first")) Trees.delete(firstStore()); // untimed: the run finds an empty store
        Path log = work.resolve("last-run.txt");
        Command.Result run = Command.of(cmd).environment(environments.getOrDefault(program, Map.of())).outputTo(log)
                .timeout(Duration.ofMinutes(5)).run();
        if (run.timedOut()) throw new IllegalStateException("timed out: " + String.join(" ", cmd));
        if (run.status() != 0) {
            throw new IllegalStateException("exit status " + run.status() + ": " + String.join(" ", cmd) + "\n"
                    + Files.readString(log, StandardCharsets.UTF_8));
        }
        return run.elapsed().toNanos() / 1e6;
    }
}
