package dev.vbd.cli;

import dev.vbd.agent.ImageRewriting;
import dev.vbd.agent.VbdAgent;
import dev.vbd.agent.observe.ObserveAgent;
import dev.vbd.cli.bisect.Candidate;
import dev.vbd.cli.bisect.Search;
import dev.vbd.core.verify.Json;
import dev.vbd.host.Trees;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code vbd bisect}: the fields (and the methods' array accesses) that must be SC for a failure to
 * vanish. An observed run on stock Java names what more than one thread touched; the failure must
 * show with all of that relaxed and vanish under vbd; a search over relaxed configs then keeps SC
 * the fewest candidates that still make it vanish ({@link Search}), each confirmed by runs without it.
 */
final class BisectCommand {
    static final int DEFAULT_REPEAT = 5;
    static final int DEFAULT_TIMEOUT_S = 60;

    private final Options o;
    private final Path work;
    private final String java;
    private final List<String> args;
    private final int repeat;
    private final Duration timeout;
    private final int jobs;
    private final long start = System.nanoTime();
    private int runs;
    private int trialCount;
    private List<Candidate> candidates = List.of();
    /** While the search runs: its first trial's number, and when it started; -1 otherwise. */
    private int searchFirstTrial = -1;
    private long searchStart;
    /** Rules for what the observed run saw touched by one thread only: relaxed in every trial. */
    private final List<String> background = new ArrayList<>();
    /** The trials that vanished, by the set they kept SC. */
    private final Map<Set<Candidate>, Tally> vanished = new java.util.HashMap<>();
    private final Map<String, Object> report = new LinkedHashMap<>();

    /** How a trial went: runs made, how many failed, and how the first failure showed. */
    record Tally(int runs, int failures, String firstFailure) {
        String rate() {
            return failures + " of " + runs;
        }
    }

    private BisectCommand(Options o, Path work) throws UsageException {
        this.o = o;
        this.work = work;
        this.java = o.javaWord();
        this.args = o.command.subList(1, o.command.size());
        this.repeat = o.repeat == null ? DEFAULT_REPEAT : o.repeat;
        this.timeout = Duration.ofSeconds(o.timeout == null ? DEFAULT_TIMEOUT_S : o.timeout);
        this.jobs = o.jobs == null ? Math.max(1, Runtime.getRuntime().availableProcessors() / 4) : o.jobs;
    }

    static int run(Options o) throws UsageException, IOException {
        o.javaWord();
        if (o.command.size() < 2) throw new UsageException("bisect: the java command line needs the program to run, e.g. -- java -jar app.jar");
        if (o.relaxed != null) throw new UsageException("bisect writes the relaxed configs it tries; it takes none (--relaxed)");
        Files.createDirectories(o.cache);
        Path work = Files.createTempDirectory(o.cache, "bisect-");
        try {
            BisectCommand b = new BisectCommand(o, work);
            int status = b.bisect();
            b.writeJson();
            return status;
        } finally {
            Trees.delete(work);
        }
    }

    private int bisect() throws UsageException, IOException {
        report.put("command", o.command);
        report.put("repeat", repeat);
        report.put("timeoutSeconds", timeout.toSeconds());
        report.put("failsWhen", "exit status other than 0" + (o.failRegex == null ? "" : ", a line matching " + o.failRegex)
                + ", or running past " + timeout.toSeconds() + " s");
        Integer verdict = findCandidates();
        if (verdict == null) verdict = reproduceWithEveryCandidateRelaxed();
        if (verdict == null) verdict = vanishUnderVbd();
        return verdict != null ? verdict : searchAndConfirm();
    }

    private long candidateFields() {
        return candidates.stream().filter(c -> c.kind() == Candidate.Kind.FIELD).count();
    }

    /** Step 1; a verdict when it ends the bisection, else null. */
    private Integer findCandidates() throws UsageException, IOException {
        say("1/4 observing, on stock Java, which fields and arrays more than one thread touches");
        Map<?, ?> shared = observe();
        if (shared == null) return verdict("observer-failed", 1);
        List<Candidate> candidates = new ArrayList<>(Candidate.fromObserved(shared));
        candidates.sort(Comparator.comparing(Candidate::kind).thenComparing(Candidate::owner).thenComparing(Candidate::member));
        this.candidates = candidates;
        // what one thread alone touched is relaxed in every trial: its SC changes what the JIT may do
        // with the rest (a volatile store in a loop keeps a plain load in it), not what another thread sees
        Set<String> searched = new HashSet<>();
        for (Candidate c : candidates) searched.add(c.rule());
        Map<?, ?> touched = (Map<?, ?>) shared.get("touched");
        for (Object f : (List<?>) touched.get("fields")) if (searched.add("field " + f)) background.add("field " + f);
        for (Object a : (List<?>) touched.get("arrays")) if (searched.add("arrays " + a)) background.add("arrays " + a);
        long fields = candidateFields();
        report.put("candidates", Map.of("fields", fields, "arrays", candidates.size() - fields));
        if (candidates.isEmpty()) {
            System.out.println("vbd bisect: no field or array of the program was touched by more than one thread in the observed"
                    + " run, so no missing volatile can explain the failure");
            return verdict("no-candidates", 1);
        }
        say("   " + candidates.size() + " candidates: " + fields + " fields and " + (candidates.size() - fields)
                + " methods' array accesses");
        return null;
    }

    /** Step 2: the failure must show as on stock Java, or there is nothing to bisect. */
    private Integer reproduceWithEveryCandidateRelaxed() throws UsageException, IOException {
        say("2/4 the program with every candidate relaxed (as on stock Java), " + repeat + " runs");
        Tally relaxed = trial(List.of(), true);
        report.put("allRelaxed", tallyJson(relaxed));
        if (relaxed.failures() == 0) {
            System.out.println("vbd bisect: the failure did not show in " + repeat + " runs with every candidate relaxed, so there is"
                    + " nothing to bisect: raise --repeat, or check what counts as a failure (" + report.get("failsWhen") + ")");
            return verdict("not-reproduced", 1);
        }
        double rate = (double) relaxed.failures() / relaxed.runs();
        double miss = Math.pow(1 - rate, repeat);
        say(String.format(Locale.ROOT, "   failed in %s runs (first: %s); a trial of %d runs misses a failure this frequent"
                + " with probability %s", relaxed.rate(), relaxed.firstFailure(), repeat,
                miss < 0.001 ? "below 0.1%" : String.format(Locale.ROOT, "%.1f%%", 100 * miss)));
        if (miss > 0.05) say("   that is high: a missed failure misleads the search; raise --repeat");
        return null;
    }

    /** Step 3: the failure must vanish with every candidate SC, or no missing volatile explains it. */
    private Integer vanishUnderVbd() throws UsageException, IOException {
        say("3/4 the program under vbd, every candidate SC, " + repeat + " runs");
        Tally searchTop = trial(candidates, true);
        report.put("vbd", tallyJson(searchTop));
        Tally vbd = searchTop;
        if (searchTop.failures() > 0 && !background.isEmpty()) {
            say("   it failed with what one thread touched relaxed; under vbd with nothing relaxed, " + repeat + " runs");
            vbd = run("nothing relaxed", o, true);
            report.put("vbdNothingRelaxed", tallyJson(vbd));
            if (vbd.failures() == 0) {
                System.out.println("vbd bisect: the failure vanishes under vbd (" + vbd.rate() + " runs failed), but not with every"
                        + " field and array the observed run saw one thread touch relaxed (" + searchTop.rate() + " failed): the"
                        + " observed run did not share what the failing runs share. Run bisect again, or give the program"
                        + " arguments under which its threads meet as they do when it fails");
                return verdict("sharing-not-observed", 1);
            }
        }
        if (vbd.failures() > 0) {
            System.out.println("vbd bisect: the failure shows under vbd too (" + vbd.rate() + " runs; first: " + vbd.firstFailure()
                    + "), where every access is sequentially consistent: no missing volatile explains it. Look for a logic"
                    + " error (an unsynchronised read-modify-write, a check-then-act, an ordering the program never asked for)");
            return verdict("not-vanished", 1);
        }
        return null;
    }

    /** Step 4: the fewest candidates that must be SC, each confirmed by relaxing it alone. */
    private int searchAndConfirm() throws UsageException, IOException {
        say("4/4 searching for the fewest candidates that must be SC");
        say(String.format(Locale.ROOT, "   about %d trials for each culprit among %d candidates, up to %d runs each",
                Search.expectedTrials(candidates.size(), 1), candidates.size(), repeat));
        searchStart = System.nanoTime();
        searchFirstTrial = trialCount + 1;
        Search<Candidate> search = new Search<>(sc -> trial(sc, false).failures() == 0);
        List<Candidate> culprits = search.culprits(candidates);
        searchFirstTrial = -1;
        report.put("searchTrials", search.trials());

        say("   confirming: the culprits SC, then each of them relaxed in turn, " + repeat + " runs each");
        Tally with = trial(culprits, true);
        List<Map<String, Object>> named = new ArrayList<>();
        boolean confirmed = with.failures() == 0;
        StringBuilder text = new StringBuilder();
        for (Candidate c : culprits) {
            List<Candidate> others = new ArrayList<>(culprits);
            others.remove(c);
            Tally without = trial(others, true);
            confirmed &= without.failures() > 0;
            Map<String, Object> m = c.json();
            m.put("withItSc", tallyJson(with));
            m.put("withItRelaxed", tallyJson(without));
            named.add(m);
            text.append(String.format(Locale.ROOT, "  %s (%s%s)%n      failed %s runs with it SC, %s with it relaxed (every other"
                            + " candidate relaxed" + (culprits.size() > 1 ? " but the other culprits" : "") + ")%n      fix: %s%n",
                    c.kind() == Candidate.Kind.FIELD ? "field " + c.name() : "the array elements " + c.name() + " accesses",
                    c.kind() == Candidate.Kind.FIELD ? (c.isStatic() ? "static " : "") + c.type() : c.type(),
                    c.sourceFile() == null ? "" : ", " + c.sourceFile(), with.rate(), without.rate(), c.fix()));
            for (String a : c.allocated()) text.append("      the array allocated at ").append(a).append('\n');
            for (String s : c.sites()) text.append("      seen: ").append(s).append('\n');
        }
        report.put("culprits", named);
        String elapsed = elapsed();
        long fields = candidateFields();
        System.out.println("vbd bisect: the failure vanishes when " + (culprits.size() == 1 ? "this is" : "these are")
                + " sequentially consistent, and not without " + (culprits.size() == 1 ? "it" : "each of them") + ":");
        System.out.print(text);
        System.out.println("  " + candidates.size() + " candidates (" + fields + " fields, " + (candidates.size() - fields)
                + " methods' array accesses), " + trialCount + " trials, " + runs + " runs, " + elapsed);
        if (!confirmed) {
            System.out.println("vbd bisect: the confirming runs disagree with the search (a trial missed a failure, or the failure"
                    + " depends on more than which accesses are SC): treat the answer as a lead, and raise --repeat");
            return verdict("unconfirmed", 1);
        }
        return verdict("found", 0);
    }

    private int verdict(String verdict, int status) {
        report.put("verdict", verdict);
        report.put("trials", trialCount);
        report.put("runs", runs);
        report.put("seconds", Math.round((System.nanoTime() - start) / 1e8) / 10.0);
        return status;
    }

    private void writeJson() throws IOException {
        if (o.json != null) Files.writeString(o.json, Json.write(report), StandardCharsets.UTF_8);
    }

    /** The observed run's report of what was shared, or null when the run left none (said on stderr). */
    private Map<?, ?> observe() throws UsageException, IOException {
        Files.writeString(work.resolve(ObserveAgent.CANDIDATES), "", StandardCharsets.UTF_8);
        Files.writeString(work.resolve(ObserveAgent.REACH), "everything\n", StandardCharsets.UTF_8);
        Path jar = Main.vbdJar();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xbootclasspath/a:" + jar,
                "-javaagent:" + jar + "=" + VbdAgent.OBSERVE + URLEncoder.encode(work.toString(), StandardCharsets.UTF_8)));
        cmd.addAll(args);
        // the observed run may fail as it likes: only what it touched matters
        Program.run(new ProcessBuilder(cmd), work.resolve("observe.out"), work.resolve("observe.err"), null, timeout);
        Path observed = work.resolve(ObserveAgent.OBSERVED);
        if (!Files.isRegularFile(observed)) {
            List<String> err = Files.readAllLines(work.resolve("observe.err"), StandardCharsets.UTF_8);
            System.err.println("vbd: bisect: the observed run ended without the observer's report (halted before its shutdown"
                    + " hooks, or killed); the end of its stderr:");
            for (String l : err.subList(Math.max(0, err.size() - 20), err.size())) System.err.println("  " + l);
            return null;
        }
        return (Map<?, ?>) ((Map<?, ?>) Json.parse(Files.readString(observed, StandardCharsets.UTF_8))).get("shared");
    }

    /**
     * Runs the program {@link #repeat} times (stopping at the first failure unless {@code full})
     * under vbd with {@code sc} SC and every other candidate relaxed, as is what one thread touched.
     */
    private Tally trial(List<Candidate> sc, boolean full) throws IOException {
        Set<Candidate> kept = new HashSet<>(sc);
        // a trial that vanished ran all its runs: the same set again would only repeat it
        Tally known = vanished.get(kept);
        if (known != null) return known;
        List<String> rules = new ArrayList<>();
        rules.add("# vbd bisect, trial " + (trialCount + 1) + ": " + sc.size() + " of " + candidates.size()
                + " candidates SC, the rest relaxed, and what one thread touched");
        for (Candidate c : candidates) if (!kept.contains(c)) rules.add(c.rule());
        rules.addAll(background);
        Path config = work.resolve("trial-" + (trialCount + 1) + ".relaxed");
        Files.write(config, rules, StandardCharsets.UTF_8);
        Tally t = run(sc.size() + " of " + candidates.size() + " candidates SC", o.withRelaxed(config), full);
        if (t.failures() == 0) vanished.put(kept, t);
        return t;
    }

    /** {@link #repeat} runs under vbd with these options, in batches of {@link #jobs}; stopping at the first failure unless {@code full}. */
    private Tally run(String what, Options options, boolean full) throws IOException {
        int n = ++trialCount;
        List<String> cmd;
        try {
            // a store of kept rewrites per config would fill the cache with configs never used again
            List<String> programArgs = new ArrayList<>(List.of("-D" + ImageRewriting.STORE_PROPERTY + "=off"));
            programArgs.addAll(args);
            cmd = Main.launchCommand(options, java, programArgs, null);
        } catch (UsageException e) {
            throw new IOException(e.getMessage(), e);
        }
        long t0 = System.nanoTime();
        int made = 0;
        int failures = 0;
        String first = null;
        ExecutorService pool = Executors.newFixedThreadPool(jobs);
        try {
            while (made < repeat && (full || failures == 0)) {
                List<Future<String>> batch = new ArrayList<>();
                for (int j = 0; j < jobs && made < repeat; j++, made++) {
                    String name = "trial-" + n + "-run-" + (made + 1);
                    batch.add(pool.submit(() -> runOnce(cmd, name)));
                }
                for (Future<String> f : batch) {
                    String failed = get(f);
                    if (failed != null) {
                        failures++;
                        if (first == null) first = failed;
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
        runs += made;
        Tally t = new Tally(made, failures, first);
        say(String.format(Locale.ROOT, "   trial %d: %s: %s (%s runs failed, %.0f s); %d runs, %s so far%s",
                n, what, failures == 0 ? "vanished" : "failed", t.rate(), (System.nanoTime() - t0) / 1e9, runs, elapsed(),
                timeLeft()));
        return t;
    }

    private static String get(Future<String> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof IOException io) throw io;
            throw new IOException(e.getCause());
        }
    }

    /** One run; how it failed, or null when it did not. */
    private String runOnce(List<String> cmd, String name) throws IOException, UsageException {
        Path out = work.resolve(name + ".out");
        Path err = work.resolve(name + ".err");
        Program.Ended e = Program.run(new ProcessBuilder(cmd), out, err, o.failRegex, timeout);
        try {
            if (e.timedOut()) return "ran past " + timeout.toSeconds() + " s";
            if (e.marked() != null) return "printed a line matching " + o.failRegex;
            if (e.status() != 0) return "exit status " + e.status() + lastLine(out, err);
            return null;
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** The program's last line of output, to show what a failure looked like. */
    private static String lastLine(Path out, Path err) throws IOException {
        for (Path p : List.of(out, err)) {
            List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
            for (int i = lines.size() - 1; i >= 0; i--) {
                if (!lines.get(i).isBlank()) return ", '" + lines.get(i).strip() + "'";
            }
        }
        return "";
    }

    private static Map<String, Object> tallyJson(Tally t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("runs", t.runs());
        m.put("failures", t.failures());
        m.put("firstFailure", t.firstFailure());
        return m;
    }

    /** During the search, the time its trials have left for one culprit, at the pace so far. */
    private String timeLeft() {
        if (searchFirstTrial < 0) return "";
        int done = trialCount - searchFirstTrial + 1;
        int left = Search.expectedTrials(candidates.size(), 1) - done;
        if (left <= 0) return "";
        double each = (System.nanoTime() - searchStart) / 1e9 / done;
        return String.format(Locale.ROOT, "; about %.0f s left for one culprit", left * each);
    }

    private String elapsed() {
        long s = Math.round((System.nanoTime() - start) / 1e9);
        return s < 60 ? s + " s" : (s / 60) + " min " + (s % 60) + " s";
    }

    private void say(String line) {
        if (!o.quiet) System.err.println("vbd: bisect: " + line);
    }
}
