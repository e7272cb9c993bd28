package dev.vbd.bench;

import dev.vbd.apps.App;
import dev.vbd.apps.Workload;
import dev.vbd.bench.control.StoreLoop;
import dev.vbd.host.Command;
import dev.vbd.host.Trees;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code bin/vbd bench}: the workloads of vbd-apps under stock Java and under vbd, measured by the
 * method of the project (interleaved JVM invocations, warm-up dropped, Student-t intervals over
 * invocations, ratios to stock on the same JDK and run), with its negative and positive controls.
 * Usage: {@code Bench REPO [options]}; see {@code bin/vbd bench --help}. Progress goes to stderr, the
 * Markdown report to stdout and, with the JSON and the plots, to the output directory.
 *
 * <p>Exit status: 0 when every invocation ran, 1 when any failed (the others still run and the report
 * says which), 2 for bad arguments. A failed control does not change the status: it marks the
 * figures as not counting, in the reports and on stderr.
 */
public final class Bench {
    /** No single workload JVM may take longer; far above any of them, it only stops a hung one. */
    private static final long INVOCATION_TIMEOUT_S = 900;
    /** The store loop's JVMs last a second or two: enough of them for a bounded interval costs little. */
    private static final int POSITIVE_MIN_INVOCATIONS = 4;

    private final Path repo;
    private final BenchOptions options;
    private final PrintStream err = System.err;

    /** A file as the reports name it: from the checkout when inside it, else by its name alone (no path of this machine). */
    static String portableName(Path repo, Path file) {
        Path home = repo.toAbsolutePath().normalize();
        Path f = file.toAbsolutePath().normalize();
        return (f.startsWith(home) ? home.relativize(f) : f.getFileName()).toString();
    }

    Bench(Path repo, BenchOptions options) {
        this.repo = repo;
        this.options = options;
    }

    public static void main(String[] args) {
        if (args.length < 1) {
            System.err.println("usage: Bench REPO [options]\n" + BenchOptions.usage());
            System.exit(2);
        }
        Path repo = Path.of(args[0]).toAbsolutePath().normalize();
        int rc;
        try {
            rc = run(repo, Arrays.asList(args).subList(1, args.length));
        } catch (CommandLines.HelpRequested e) {
            System.out.print(e.usage);
            rc = 0;
        } catch (IllegalArgumentException e) {
            System.err.println("vbd bench: " + e.getMessage());
            rc = 2;
        } catch (IllegalStateException | IOException e) {
            System.err.println("vbd bench: " + e.getMessage());
            rc = 1;
        } catch (Exception e) {
            System.err.println("vbd bench: " + e);
            e.printStackTrace();
            rc = 1;
        }
        System.exit(rc);
    }

    /** Parses the arguments, runs, writes the reports; returns the exit status. */
    static int run(Path repo, List<String> args) throws Exception {
        if (args.contains("--startup")) {
            List<String> rest = new java.util.ArrayList<>(args);
            rest.remove("--startup");
            return Startup.run(repo, rest);
        }
        String stamp = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss'Z'").withZone(ZoneOffset.UTC).format(Instant.now());
        BenchOptions o = BenchOptions.parse(args, WorkloadCatalog.names(), WorkloadCatalog.names(App.Suite.FALSE_SHARING), WorkloadCatalog.quickWorkload(),
                repo.resolve("bench-results").resolve(stamp));
        return new Bench(repo, o).run();
    }

    int run() throws Exception {
        long start = System.nanoTime();
        RunRecord r = new RunRecord();
        r.options = options;
        r.date = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        r.machine = Machine.describe();
        r.jdk = Machine.jdk(options.java);
        r.vbd = Machine.vbdBuild(repo);
        r.sharedFlags = List.of("-Xms" + options.heap, "-Xmx" + options.heap, "-XX:+UseG1GC");
        if (options.dryRun) {
            if (!options.jmhOnly) runWorkloads(r);
            if (options.jmh) {
                System.out.printf(Locale.ROOT, "%d JMH forks%n", Micro.forks(options.jmhSettings));
            }
            return 0;
        }
        Files.createDirectories(options.out);
        Progress progress = new Progress(err, List.of());
        progress.note("results go to " + options.out);

        if (!options.jmhOnly) runWorkloads(r);
        if (options.jmh) {
            Micro.Settings s = options.jmhSettings;
            Path jmhRelaxed = repo.resolve("vbd-bench/relaxed/jmh-harness.relaxed");
            // the vbd side is the first vbd configuration asked for, with the harness's relaxed config
            Config jmhVbd = options.configs.stream().filter(c -> c.vbd).findFirst().orElse(Config.VBD);
            List<String> vbdLaunch = VbdOptions.launchPrefix(repo, options.java, jmhRelaxed, jmhVbd.vbdOptions(true), 1);
            r.jmhSettings = s.toJson();
            r.jmhSettings.put("relaxed_file", repo.relativize(jmhRelaxed).toString());
            r.jmhSettings.put("fields", jmhVbd.fields);
            r.jmhSettings.put("optimise", jmhVbd.optimise);
            r.jmh = Micro.run(s, options.java, r.sharedFlags, vbdLaunch, progress);
        }

        r.loadAverageAtEnd = Machine.loadAverage();
        String jarNow = Machine.sha256(repo.resolve("vbd-cli/target/vbd.jar"));
        if (jarNow != null && !jarNow.equals(r.vbd.get("vbd_jar_sha256"))) {
            r.warnings.add("vbd-cli/target/vbd.jar changed during the run: later invocations may have run another build of vbd");
        }
        r.wallS = (System.nanoTime() - start) / 1e9;
        write(r);
        return r.failures.isEmpty() ? 0 : 1;
    }

    /** Configurations that differ only in JVM flags share the command that starts them. */
    private static String launchKey(Config c) {
        return c.relaxation + "/" + String.join(" ", c.vbdOptions(false));
    }

    private void runWorkloads(RunRecord r) throws Exception {
        WorkloadCatalog catalog = new WorkloadCatalog(
                App.classpath(repo.resolve("vbd-apps/target/classes"), repo.resolve("vbd-apps/target/lib")),
                controlClasspath());
        for (String id : options.workloads) {
            WorkloadSpec w = catalog.spec(id, options.mode, options.sizes);
            r.workloads.add(w);
            if (w.size() == null) {
                r.warnings.add(id + " has no size in vbd-bench's workloads.properties and ran at its own default size");
            }
        }
        r.headline = options.configs.contains(Config.VBD) ? Config.VBD : r.compared().get(0);

        WorkloadSpec negative = null;
        WorkloadSpec positive = null;
        if (options.controls) {
            String id = WorkloadCatalog.negativeControlWorkload(options.workloads);
            negative = r.workloads.stream().filter(w -> w.id().equals(id)).findFirst().orElseThrow();
            positive = catalog.storeLoop(options.mode);
        }

        // the fewest threads: the least contention with the JIT and GC threads, the steadiest times
        int negativeThreads = negative != null && negative.threaded() ? options.threads.get(0) : options.headlineThreads();
        List<Invocation> plan = Plan.build(r.workloads, options.configs, r.headline, options.threads,
                options.invocations, options.sweepInvocations, negative, negativeThreads, options.negativeInvocations,
                positive, Math.max(POSITIVE_MIN_INVOCATIONS, options.invocations));
        if (options.dryRun) {
            printPlan(plan);
            if (options.precision != null) {
                System.out.printf(Locale.ROOT, "then rounds while a headline interval is wider than +-%s, up to %d invocations per configuration%n",
                        Report.percent(options.precision), options.maxInvocations);
            }
            return;
        }

        askHowVbdRuns(r, catalog, negative, positive);

        Progress progress = new Progress(err, plan);
        progress.note(String.format(Locale.ROOT, "%d invocations of %d iterations (%d warm-up): %s x %s, threads %s%s",
                plan.size(), options.iterations, options.warmup, options.workloads,
                options.configs.stream().map(c -> c.id).toList(), options.threads,
                options.controls ? "; controls on " + negative.id() + (negative.threaded() ? " t=" + negativeThreads : "") + " and " + StoreLoop.NAME : "; no controls"));

        r.busyBefore = Machine.busyFraction(QUIET_CHECK_BEFORE_MS);
        if (r.busyBefore != null && r.busyBefore > BUSY) {
            r.warnings.add(String.format(Locale.ROOT, "the machine was %s busy with other work in the %d s before the first"
                    + " invocation: figures are noisier than on a quiet machine", Report.percent(r.busyBefore), QUIET_CHECK_BEFORE_MS / 1000));
        }
        Path work = options.out.resolve("work");
        Runner runner = new Runner(work, options.out.resolve("logs"), INVOCATION_TIMEOUT_S);
        List<Measurement> measurements = new ArrayList<>();
        Map<String, String> expectedStdout = new HashMap<>();
        try {
            for (Invocation inv : plan) run(inv, r, runner, progress, measurements, expectedStdout);
            if (options.precision != null) {
                int top = options.headlineThreads();
                List<Invocation> done = new ArrayList<>(plan);
                while (true) {
                    List<Precision.Status> status = Precision.status(new Analysis(measurements), r.completed(),
                            r.compared(), top, options.precision);
                    List<String> more = Precision.needMore(status, options.maxInvocations);
                    if (more.isEmpty()) break;
                    List<Invocation> round = new ArrayList<>();
                    for (String id : more) round.addAll(Precision.round(done, id, top));
                    if (round.isEmpty()) break;
                    progress.extend(round);
                    progress.note(String.format(Locale.ROOT, "intervals wider than +-%s: another round of %s",
                            Report.percent(options.precision), more));
                    for (Invocation inv : round) run(inv, r, runner, progress, measurements, expectedStdout);
                    done.addAll(round);
                }
            }
        } finally {
            Trees.delete(work);
        }
        r.analysis = new Analysis(measurements);
        judge(r, negative, negativeThreads, positive);
    }

    /**
     * The java and options of each vbd configuration, asked once per relaxed config before anything is
     * timed (a first use prepares the JDK); each workload's advice, where a configuration follows it.
     */
    private void askHowVbdRuns(RunRecord r, WorkloadCatalog catalog, WorkloadSpec negative, WorkloadSpec positive) throws Exception {
        Map<String, List<String>> vbdArgs = new HashMap<>(); // by relaxed config and fields mode
        Set<Config> used = new LinkedHashSet<>(options.configs);
        if (positive != null) used.add(Config.VBD);
        if (negative != null) used.add(Config.VBD_ALL_RELAXED);
        r.relaxedFile = options.configs.contains(Config.VBD_RELAXED) || options.configs.contains(Config.VBD_FENCED_RELAXED)
                ? (options.relaxed != null ? options.relaxed : repo.resolve("vbd-bench/relaxed/top-methods.relaxed")) : null;
        if (r.relaxedFile != null) {
            r.relaxedRules = countRules(r.relaxedFile);
            r.relaxedName = portableName(repo, r.relaxedFile);
        }
        r.allRelaxedFile = negative != null ? repo.resolve("vbd-bench/relaxed/everything.relaxed") : null;
        int prepared = prepared(used, r.workloads.size());
        for (Config c : used) {
            if (!c.vbd || vbdArgs.containsKey(launchKey(c))) continue;
            Path relaxed = switch (c.relaxation) {
                case NONE -> null;
                case LISTED -> r.relaxedFile;
                case ALL -> r.allRelaxedFile;
                case ADVISED -> null; // each workload's own, below
            };
            new Progress(err, List.of()).note("asking vbd how it runs " + c.id
                    + (c.relaxation == Config.Relaxation.ALL ? " (the first time, it prepares a JDK with everything relaxed)" : ""));
            vbdArgs.put(launchKey(c), VbdOptions.launchPrefix(repo, options.java, relaxed, c.vbdOptions(true), prepared));
        }
        advise(r, catalog, used, prepared);
        layOut(r, catalog, used, prepared);
        for (Config c : used) {
            // a vbd configuration runs as bin/vbd run does: the prepared image's java, then its options
            List<String> launch = c.vbd ? vbdArgs.get(launchKey(c)) : List.of(options.java);
            r.configJava.put(c, launch.get(0));
            List<String> flags = new ArrayList<>(launch.subList(1, launch.size()));
            flags.addAll(c.flags);
            r.configFlags.put(c, flags);
        }
    }

    /** The run's warnings about a busy machine and intervals wider than asked for, and its controls' verdicts. */
    private void judge(RunRecord r, WorkloadSpec negative, int negativeThreads, WorkloadSpec positive) {
        double busiest = r.busyBetween.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        if (busiest > BUSY) {
            r.warnings.add(String.format(Locale.ROOT, "other work used up to %s of the machine between invocations"
                    + " (mean %s): figures are noisier than on a quiet machine", Report.percent(busiest),
                    Report.percent(r.busyBetween.stream().mapToDouble(Double::doubleValue).average().orElse(0))));
        }
        if (options.precision != null) {
            r.precision = Precision.status(r.analysis, r.completed(), r.compared(), options.headlineThreads(),
                    options.precision);
            for (Precision.Status s : r.precision) {
                if (!s.reached()) {
                    r.warnings.add(String.format(Locale.ROOT, "%s: the widest headline interval is %s after %d invocations"
                                    + " per configuration (--max-invocations %d), wider than the +-%s asked for",
                            s.workload(), Double.isFinite(s.halfWidth()) ? "+-" + Report.percent(s.halfWidth()) : "unbounded",
                            s.invocations(), options.maxInvocations, Report.percent(options.precision)));
                }
            }
        }
        if (options.controls) {
            r.negative = Controls.negative(r.analysis, negative.id(), negativeThreads,
                    r.failures.containsKey(negative.id()) ? "its workload failed" : null);
            r.positive = Controls.positive(r.analysis, positive.id(),
                    r.failures.containsKey(positive.id()) ? "the store loop failed" : null);
        }
    }

    /**
     * Runs {@code bin/vbd advise} on each workload at its training size (the quick run's, with the
     * headline thread count), once, with the largest budget any advised configuration asks for; each
     * advised configuration then runs each workload with its config's first rules.
     */
    /**
     * How many prepared JDKs the run needs at once, so that none is evicted from the cache before its
     * last invocation: one per relaxed config and field mode, and, where advice may reach the JDK, one
     * per workload for each advised configuration and one for the advisor's own check of each advice.
     */
    static int prepared(Set<Config> used, int workloads) {
        int shared = (int) used.stream().filter(c -> c.vbd && c.relaxation != Config.Relaxation.ADVISED)
                .map(Bench::launchKey).distinct().count();
        long advised = used.stream().filter(c -> c.relaxation == Config.Relaxation.ADVISED).count();
        long modes = used.stream().filter(c -> c.relaxation == Config.Relaxation.ADVISED).map(c -> Advising.name("", c)).distinct().count();
        return shared + (int) ((advised + modes) * workloads);
    }

    private void advise(RunRecord r, WorkloadCatalog catalog, Set<Config> used, int prepared)
            throws IOException, InterruptedException {
        // advice is taken under the field mode it runs with (what SC costs, and what relaxing gives back,
        // differ) and with the scope of its rules; a key is the advice files' name for the empty workload
        Map<String, List<Config>> byKind = new java.util.TreeMap<>();
        for (Config c : used) {
            if (c.relaxation == Config.Relaxation.ADVISED) byKind.computeIfAbsent(Advising.name("", c), k -> new ArrayList<>()).add(c);
        }
        if (byKind.isEmpty()) return;
        Path dir = options.out.resolve("advised");
        for (WorkloadSpec w : r.workloads) {
            WorkloadSpec training = catalog.spec(w.id(), BenchOptions.Mode.QUICK, Map.of());
            for (List<Config> kind : byKind.values()) {
                String fields = kind.get(0).fields;
                String scope = kind.get(0).adviceScope;
                int budget = kind.stream().mapToInt(c -> c.advisedRules).max().orElseThrow();
                String name = Advising.name(w.id(), fields, scope);
                new Progress(err, List.of()).note("advising " + w.id() + " on its training size (" + training.size()
                        + ", " + ADVISE_ITERATIONS + " iterations, profiled after " + ADVISE_WARMUP + "): bin/vbd advise --budget "
                        + budget + " --fields " + fields + " --scope " + scope + " --profiles " + Advising.PROFILES);
                Advising.Advice a = Advising.advise(repo, options.java, r.sharedFlags, training, fields, scope, options.headlineThreads(),
                        ADVISE_ITERATIONS, ADVISE_WARMUP, budget, prepared, dir);
                r.advice.add(a);
                new Progress(err, List.of()).note(String.format(Locale.ROOT, "%s: %d rule%s in %.0f s", name, a.rules(), a.rules() == 1 ? "" : "s", a.seconds()));
                if (a.exitStatus() != 0) {
                    r.warnings.add(name + ": vbd advise exited with status " + a.exitStatus() + " (see advised/"
                            + a.log().getFileName() + "); its advised configurations ran with the " + a.rules() + " rules it wrote");
                }
                for (Config c : kind) {
                    Path cut = Advising.firstRules(a.config(), c.advisedRules, dir.resolve(name + "-" + c.advisedRules + ".relaxed"));
                    r.advisedLaunch.put(c.id + "|" + w.id(), VbdOptions.launchPrefix(repo, options.java, cut, c.vbdOptions(true), prepared));
                }
            }
        }
    }

    /**
     * Runs {@code bin/vbd layout} on each workload at its training size (the quick run's, with the
     * headline thread count), once; the layout configuration then runs each workload with the layout
     * found for it, on the prepared JDK of the vbd configuration (a layout changes only the program's
     * classes).
     */
    private void layOut(RunRecord r, WorkloadCatalog catalog, Set<Config> used, int prepared) throws IOException, InterruptedException {
        if (!used.contains(Config.VBD_LAYOUT)) return;
        Path dir = options.out.resolve("layouts");
        Files.createDirectories(dir);
        for (WorkloadSpec w : r.workloads) {
            WorkloadSpec training = catalog.spec(w.id(), BenchOptions.Mode.QUICK, Map.of());
            Path layout = dir.resolve(w.id() + ".layout");
            Path log = dir.resolve(w.id() + ".log");
            new Progress(err, List.of()).note("laying out " + w.id() + " from a run at its training size (" + training.size()
                    + ", " + LAYOUT_ITERATIONS + " iterations): bin/vbd layout");
            List<String> cmd = new ArrayList<>(List.of(repo.resolve("bin/vbd").toString(), "layout", "-q", "--out", layout.toString(),
                    "--", options.java));
            cmd.addAll(r.sharedFlags);
            cmd.addAll(training.javaArgs(options.headlineThreads(), LAYOUT_ITERATIONS));
            Map<String, String> env = new java.util.HashMap<>(System.getenv());
            env.putAll(training.environment());
            Command.Result run = Command.of(cmd).environment(env).outputTo(log).timeout(java.time.Duration.ofSeconds(Advising.TIMEOUT_S)).run();
            if (run.status() != 0 || run.timedOut() || !Files.isRegularFile(layout)) {
                r.warnings.add(w.id() + ": vbd layout " + (run.timedOut() ? "timed out" : "exited with status " + run.status())
                        + " (see layouts/" + log.getFileName() + "); vbd+layout ran without a layout");
                Files.writeString(layout, "# vbd layout wrote no layout: see " + log.getFileName() + "\n");
            }
            int rules = countRules(layout);
            new Progress(err, List.of()).note(w.id() + ": " + rules + " rule" + (rules == 1 ? "" : "s")
                    + " (fields to pad apart, arrays to stride), in " + Math.round(run.elapsed().toNanos() / 1e9) + " s");
            List<String> vbd = new ArrayList<>(Config.VBD_LAYOUT.vbdOptions(true));
            vbd.addAll(List.of("--layout", layout.toString()));
            r.advisedLaunch.put(Config.VBD_LAYOUT.id + "|" + w.id(), VbdOptions.launchPrefix(repo, options.java, null, vbd, prepared));
        }
    }

    /** Iterations of a workload's run under {@code vbd layout}: the run's misses are counted over all of it. */
    static final int LAYOUT_ITERATIONS = 3;

    /**
     * The quiet-machine check: the bench looks at the CPUs for a while before its first invocation
     * and briefly before each one, when nothing of its own runs; more than {@link #BUSY} of them busy
     * is other work, and the report says so.
     */
    static final long QUIET_CHECK_BEFORE_MS = 3000;
    static final long QUIET_CHECK_MS = 250;
    static final double BUSY = 0.15;

    /**
     * Iterations of a workload's training runs under the advisor, and how many of them are warm-up
     * its profiles leave out: the bench measures the steady state, and SC's cost in class loading and
     * the interpreter is not what a relaxed scope gives back there.
     */
    static final int ADVISE_ITERATIONS = 12;
    static final int ADVISE_WARMUP = 6;

    /** Runs one invocation; a failure stops the rest of its workload, the others go on. */
    private void run(Invocation inv, RunRecord r, Runner runner, Progress progress, List<Measurement> measurements,
                     Map<String, String> expectedStdout) throws IOException, InterruptedException {
        String id = inv.workload().id();
        if (r.failures.containsKey(id)) {
            progress.skipped();
            return;
        }
        Double busy = Machine.busyFraction(QUIET_CHECK_MS);
        if (busy != null) r.busyBetween.add(busy);
        List<String> cmd = new ArrayList<>();
        List<String> advised = r.advisedLaunch.get(inv.config().id + "|" + id);
        if (advised != null) {
            cmd.addAll(advised);
            cmd.addAll(inv.config().flags);
        } else {
            cmd.add(r.configJava.get(inv.config()));
            cmd.addAll(r.configFlags.get(inv.config()));
        }
        cmd.addAll(r.sharedFlags);
        cmd.addAll(inv.workload().javaArgs(inv.threads(), options.iterations));
        try {
            Runner.Outcome out = runner.run(inv, cmd, inv.workload().environment(), options.iterations, options.warmup);
            String key = id + "|" + inv.threads();
            String expected = expectedStdout.putIfAbsent(key, out.stdout());
            if (expected != null && !expected.equals(out.stdout())) {
                throw new Runner.InvocationFailed(inv.label() + " invocation " + (inv.index() + 1)
                        + " printed another result than the first invocation of " + id + ":\n--- first ---\n"
                        + expected + "--- this one ---\n" + out.stdout());
            }
            Measurement m = out.measurement();
            measurements.add(m);
            progress.finished(inv, String.format(Locale.ROOT, "%.3f s/iter, first %.3f s",
                    m.scoreMs() / 1000, m.firstMs() / 1000), m.wallS());
        } catch (Runner.InvocationFailed e) {
            r.failures.put(id, e.getMessage());
            progress.skipped();
            err.println("vbd bench: FAILED: " + e.getMessage());
            err.println("vbd bench: skipping the rest of " + id);
        }
    }

    /** Invocations per workload, thread count and configuration, on stdout. */
    private static void printPlan(List<Invocation> plan) {
        Plan.countsByLabel(plan).forEach((label, n) -> System.out.printf(Locale.ROOT, "%3d x %s%n", n, label));
        System.out.printf(Locale.ROOT, "%d invocations%n", plan.size());
    }

    /** This module's classes and vbd-apps' (the Workload driver): the classpath of the store loop. */
    private static String controlClasspath() throws URISyntaxException {
        return Path.of(StoreLoop.class.getProtectionDomain().getCodeSource().getLocation().toURI()) + java.io.File.pathSeparator
                + Path.of(Workload.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /** Rules in a relaxed config: lines that are neither blank nor comments. */
    static int countRules(Path file) throws IOException {
        int n = 0;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String t = line.strip();
            if (!t.isEmpty() && !t.startsWith("#")) n++;
        }
        return n;
    }

    private void write(RunRecord r) throws IOException {
        if (!r.workloads.isEmpty()) {
            try {
                Plots.relativeTime(r, options.out.resolve("relative-time.png"));
                Plots.threads(r, options.out.resolve("threads.png"));
                Plots.scopes(r, options.out.resolve("scopes.png"));
            } catch (IOException | RuntimeException | LinkageError e) {
                r.warnings.add("plots not written: " + e);
                err.println("vbd bench: plots not written: " + e);
            }
        }
        String json = Portable.of(Json.write(Report.json(r)), repo, (String) r.jdk.get("java.home"), options.out);
        Files.writeString(options.out.resolve("results.json"), json, StandardCharsets.UTF_8);
        if (options.json != null) {
            if (options.json.getParent() != null) Files.createDirectories(options.json.getParent());
            Files.writeString(options.json, json, StandardCharsets.UTF_8);
        }
        String md = Portable.of(Report.markdown(r), repo, (String) r.jdk.get("java.home"), options.out);
        Files.writeString(options.out.resolve("results.md"), md, StandardCharsets.UTF_8);
        System.out.print(md);
        System.out.flush();
        for (Controls.Result c : new Controls.Result[] {r.negative, r.positive}) {
            if (c != null && c.verdict() == Controls.Verdict.FAIL) {
                err.println("vbd bench: THE " + c.name().toUpperCase(Locale.ROOT) + " CONTROL FAILED: " + c.config().id + " / "
                        + c.config().baseline + " on " + c.workload() + " = " + Report.ratio(c.ratio()) + ", expected "
                        + c.expectation() + ". No figure of this run counts.");
            }
        }
        if (!options.jmhOnly) err.println("vbd bench: " + r.validity());
        err.println("vbd bench: wrote " + options.out.resolve("results.json") + ", results.md"
                + (r.workloads.isEmpty() ? "" : " and plots") + " (" + Progress.duration(r.wallS) + ")");
    }
}
