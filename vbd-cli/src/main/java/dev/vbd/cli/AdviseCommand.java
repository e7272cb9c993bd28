package dev.vbd.cli;

import dev.vbd.agent.VbdAgent;
import dev.vbd.agent.observe.ObserveAgent;
import dev.vbd.cli.advise.Advice;
import dev.vbd.cli.advise.Cost;
import dev.vbd.cli.advise.Measured;
import dev.vbd.cli.advise.Profile;
import dev.vbd.cli.advise.Reach;
import dev.vbd.core.verify.Json;
import dev.vbd.host.Trees;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code vbd advise}: the relaxed scopes worth having for a program, and the evidence that each is
 * safe. The program runs under stock Java and under vbd, each profiled (where SC costs is where
 * vbd's run spends time that stock's does not); on stock Java with the observer in the program's
 * classes (whether the costly methods' accesses can race); then under vbd with the advice, beside
 * as many runs under vbd, all profiled (whether the program still prints what it printed on stock
 * Java, and what the advice gives back, measured on runs the rules were not chosen on).
 */
final class AdviseCommand {
    static final int DEFAULT_BUDGET = 20;
    /** Candidates observed per rule asked for: the observer rules some out. */
    private static final int CANDIDATES_PER_RULE = 3;
    private static final int SAMPLE_PERIOD_MS = 1;

    private final Options o;
    private final Path work;
    private final int budget;

    private AdviseCommand(Options o, Path work) {
        this.o = o;
        this.work = work;
        this.budget = o.budget == null ? DEFAULT_BUDGET : o.budget;
    }

    static int run(Options o) throws UsageException, IOException {
        String java = o.javaWord();
        if (o.command.size() < 2) throw new UsageException("advise: the java command line needs the program to run, e.g. -- java -jar app.jar");
        if (o.relaxed != null) throw new UsageException("advise writes a relaxed config (--out); it takes none (--relaxed)");
        Path out = o.out == null ? Path.of("vbd-advised.relaxed").toAbsolutePath() : o.out;
        Files.createDirectories(o.cache);
        Path work = Files.createTempDirectory(o.cache, "advise-");
        try {
            return new AdviseCommand(o, work).advise(java, o.command.subList(1, o.command.size()), out);
        } finally {
            Trees.delete(work);
        }
    }

    /** Step 3: which candidates' members other threads also touch; null when the observed run failed. */
    private Map<?, ?> observeCandidates(String java, Path javaHome, List<String> args, String scope, List<Cost> candidates,
                                        Map<String, List<String>> members) throws UsageException, IOException {
        List<String> names = members.values().stream().flatMap(List::stream).distinct().toList();
        Files.write(work.resolve(ObserveAgent.CANDIDATES), names, StandardCharsets.UTF_8);
        Files.write(work.resolve(ObserveAgent.REACH), Reach.of(args, names, javaHome), StandardCharsets.UTF_8);
        if (names.isEmpty()) {
            if (!o.quiet) System.err.println("vbd: advise: 3/4 no " + scope
                    + " of the program costs more under vbd beyond sampling noise: nothing to observe");
            return Map.of("candidates", List.of(), "unobserved", List.of());
        }
        long jdk = candidates.stream().filter(c -> !c.program()).count();
        String what = candidatesInWords(scope, candidates, names.size());
        return observe(java, args, what + (jdk == 0 ? "" : " (" + jdk + " of the JDK's)"));
    }

    private int advise(String java, List<String> args, Path out) throws UsageException, IOException {
        long start = System.nanoTime();
        Path jfc = work.resolve("sampling.jfc");
        Files.writeString(jfc, Profile.settings(SAMPLE_PERIOD_MS), StandardCharsets.UTF_8);

        // interleaved, so that a slow spell of the machine falls on both sides alike
        int runs = o.profiles == null ? 1 : o.profiles;
        List<Profile.Recording> stockRecordings = new ArrayList<>();
        List<Profile.Recording> vbdRecordings = new ArrayList<>();
        Run stock = null;
        for (int i = 1; i <= runs; i++) {
            String of = runs == 1 ? "" : " (" + i + " of " + runs + ")";
            List<String> stockCmd = new ArrayList<>(List.of(java));
            stockCmd.addAll(recording("stock-" + i, jfc));
            stockCmd.addAll(args);
            Run s = run("1/4 profiling under stock Java" + of, stockCmd, "stock-" + i);
            if (s.status != 0) return failed(s);
            if (stock == null) stock = s;
            stockRecordings.add(profiled(s, "stock Java"));

            Run vbd = run("2/4 profiling under vbd" + of, profiledUnderVbd(o, java, args, "vbd-" + i, jfc), "vbd-" + i);
            if (vbd.status != 0) return failed(vbd);
            vbdRecordings.add(profiled(vbd, "vbd"));
        }

        List<Profile> profiles = Profile.readAtOnePace(List.of(stockRecordings, vbdRecordings));
        Profile stockProfile = profiles.get(0);
        Profile vbdProfile = profiles.get(1);
        String pace = vbdProfile.paceInWords(SAMPLE_PERIOD_MS);
        if (!o.quiet) System.err.println("vbd: advise: " + pace);
        String scope = o.scope == null ? "method" : o.scope;
        List<Cost> costs = switch (scope) {
            case "class" -> Cost.byClass(stockProfile, vbdProfile);
            case "package" -> Cost.byPackage(stockProfile, vbdProfile);
            default -> Cost.of(stockProfile, vbdProfile);
        };
        List<Cost> candidates = candidates(costs);
        Path javaHome = Jdk.resolve(java).home();
        Map<String, List<String>> members = members(scope, candidates, args, javaHome);
        Map<?, ?> seen = observeCandidates(java, javaHome, args, scope, candidates, members);
        if (seen == null) return 1;
        Map<String, Map<?, ?>> evidence = evidence(members, candidates, (List<?>) seen.get("candidates"));
        List<Cost> parts = new ArrayList<>();
        if (scope.equals("package")) parts.addAll(Cost.byClass(stockProfile, vbdProfile));
        if (!scope.equals("method")) parts.addAll(Cost.of(stockProfile, vbdProfile));

        Advice advice = Advice.choose(costs, parts, evidence, budget, vbdProfile.total(), stockProfile.total());
        List<?> unobserved = (List<?>) seen.get("unobserved");
        Files.writeString(out, advice.config(args, unobserved, pace, null), StandardCharsets.UTF_8);

        // the check, on runs of their own that also measure what the advice gives back, beside as many under vbd
        Options checked = o.withRelaxed(out);
        List<Profile.Recording> vbdApart = new ArrayList<>();
        List<Profile.Recording> advisedApart = new ArrayList<>();
        String differs = null;
        for (int i = 1; i <= runs; i++) {
            String of = runs == 1 ? "" : " (" + i + " of " + runs + ")";
            Run vbd = run("4/4 measuring apart under vbd" + of, profiledUnderVbd(o, java, args, "apart-" + i, jfc), "apart-" + i);
            if (vbd.status != 0) return failed(vbd);
            vbdApart.add(profiled(vbd, "vbd"));

            Run check = run("4/4 checking and measuring the advice under vbd" + of,
                    profiledUnderVbd(checked, java, args, "check-" + i, jfc), "check-" + i);
            if (check.status != 0) {
                System.err.print(advice.summary(out, null));
                return failed(check);
            }
            if (differs == null && !check.stdout().equals(stock.stdout())) differs = check.name();
            advisedApart.add(profiled(check, "vbd with the advice"));
        }
        List<Profile> apart = Profile.eachAtOnePace(Stream.concat(vbdApart.stream(), advisedApart.stream()).toList());
        Measured measured = Measured.of(apart.subList(0, runs), apart.subList(runs, 2 * runs));
        Files.writeString(out, advice.config(args, unobserved, pace, measured), StandardCharsets.UTF_8);
        return verdict(advice, out, measured, differs, start);
    }

    /** The summary, and whether the program printed under the advice what it printed on stock Java. */
    private static int verdict(Advice advice, Path out, Measured measured, String differs, long start) {
        double seconds = (System.nanoTime() - start) / 1e9;
        System.err.print(advice.summary(out, measured));
        if (differs != null) {
            System.err.println("vbd: advise: under the advice the program printed another output than on stock Java (the "
                    + differs + " run); the config is in " + out + " but do not use it");
            return 1;
        }
        System.err.printf(Locale.ROOT, "vbd: advise: under the advice the program printed what it printed on stock Java (%.0f s in all)%n",
                seconds);
        return 0;
    }

    /** The costliest scopes the observer can watch, as many as the budget's rules may need. */
    private List<Cost> candidates(List<Cost> costs) {
        List<Cost> candidates = new ArrayList<>();
        for (Cost c : costs) {
            if (c.observable() && candidates.size() < Math.max(30, budget * CANDIDATES_PER_RULE)) candidates.add(c);
        }
        return candidates;
    }

    /** The methods the observer watches for each candidate: a class's are every method it declares with code, a package's its classes'. */
    private static Map<String, List<String>> members(String scope, List<Cost> candidates, List<String> args, Path javaHome)
            throws IOException {
        Map<String, List<String>> members = new LinkedHashMap<>();
        List<String> scopes = candidates.stream().map(Cost::scope).toList();
        switch (scope) {
            case "class" -> members.putAll(Reach.methods(args, scopes, javaHome));
            case "package" -> {
                // a JDK package's classes come as candidates of their own
                List<String> packages = candidates.stream().filter(Cost::isPackage).map(Cost::scope).toList();
                for (Map.Entry<String, List<String>> p : Reach.classes(args, packages, javaHome).entrySet()) {
                    members.put(p.getKey(), Reach.methods(args, p.getValue(), javaHome).values().stream().flatMap(List::stream).toList());
                }
                members.putAll(Reach.methods(args, candidates.stream().filter(c -> !c.isPackage()).map(Cost::scope).toList(), javaHome));
            }
            default -> {
                for (String m : scopes) members.put(m, List.of(m));
            }
        }
        return members;
    }

    private static String candidatesInWords(String scope, List<Cost> candidates, int methods) {
        return switch (scope) {
            case "class" -> candidates.size() + " candidate classes (" + methods + " methods)";
            case "package" -> {
                long classes = candidates.stream().filter(c -> !c.isPackage()).count();
                yield (candidates.size() - classes) + " candidate packages" + (classes == 0 ? "" : " and " + classes
                        + " classes") + " (" + methods + " methods)";
            }
            default -> methods + " candidate methods";
        };
    }

    /** What the observer saw of each scope, from what it saw of each method (a scope watched whole, of each part too). */
    private static Map<String, Map<?, ?>> evidence(Map<String, List<String>> members, List<Cost> candidates, List<?> seen) {
        Map<String, Map<?, ?>> perMethod = new LinkedHashMap<>();
        for (Object e : seen) perMethod.put((String) ((Map<?, ?>) e).get("method"), (Map<?, ?>) e);
        Map<String, Map<?, ?>> evidence = new LinkedHashMap<>();
        members.forEach((s, methods) -> {
            Map<?, ?> e = Advice.combined(methods, perMethod);
            if (e != null) evidence.put(s, e);
        });
        // a scope watched whole was watched in every part: each class's methods, each method
        Map<String, List<String>> classesWatched = new LinkedHashMap<>();
        for (Cost c : candidates) {
            if (!c.wholeClasses()) continue;
            for (String m : members.getOrDefault(c.scope(), List.of())) {
                classesWatched.computeIfAbsent(Cost.classOf(m), k -> new ArrayList<>()).add(m);
                if (perMethod.containsKey(m)) evidence.putIfAbsent(m, perMethod.get(m));
            }
        }
        classesWatched.forEach((c, methods) -> {
            Map<?, ?> e = Advice.combined(methods, perMethod);
            if (e != null) evidence.putIfAbsent(c, e);
        });
        return evidence;
    }

    /** The observed run; what the observer saw, or null when it failed (said on stderr). */
    private Map<?, ?> observe(String java, List<String> args, String candidates) throws UsageException, IOException {
        Path jar = Main.vbdJar();
        List<String> observeCmd = new ArrayList<>(List.of(java, "-Xbootclasspath/a:" + jar,
                "-javaagent:" + jar + "=" + VbdAgent.OBSERVE + URLEncoder.encode(work.toString(), StandardCharsets.UTF_8)));
        observeCmd.addAll(args);
        Run observed = run("3/4 observing " + candidates + " on stock Java", observeCmd, "observe");
        if (observed.status != 0) {
            failed(observed);
            return null;
        }
        Path report = work.resolve(ObserveAgent.OBSERVED);
        if (!Files.isRegularFile(report)) {
            System.err.println("vbd: advise: the observed run ended without the observer's report (halted before its shutdown hooks?)");
            return null;
        }
        return (Map<?, ?>) Json.parse(Files.readString(report, StandardCharsets.UTF_8));
    }

    /** A profiled run's recording, from where --profile-from says the profile starts. */
    private Profile.Recording profiled(Run r, String under) throws UsageException {
        if (o.profileFrom != null && r.marked() == null) {
            throw new UsageException("advise: --profile-from '" + o.profileFrom + "': the program under " + under
                    + " printed no line that matches it, so nothing of its run would be profiled");
        }
        return new Profile.Recording(work.resolve(r.name() + ".jfr"), r.marked());
    }

    /** The command line of a profiled run under vbd, with {@code options}' relaxed config if any. */
    private List<String> profiledUnderVbd(Options options, String java, List<String> args, String name, Path jfc) throws UsageException, IOException {
        List<String> profiled = new ArrayList<>(recording(name, jfc));
        profiled.addAll(args);
        return Main.launchCommand(options, java, profiled, null);
    }

    /** JFR's options for a profiled run; its start-up line would go to the program's stdout. */
    private List<String> recording(String name, Path jfc) {
        return List.of("-XX:StartFlightRecording=filename=" + work.resolve(name + ".jfr") + ",settings=" + jfc,
                "-Xlog:jfr+startup=off");
    }

    /** {@code marked}: when it first printed a line --profile-from matches, or null. */
    private record Run(String name, int status, Path out, Path err, Instant marked) {
        String stdout() throws IOException {
            return Files.readString(out, StandardCharsets.UTF_8);
        }
    }

    private Run run(String what, List<String> cmd, String name) throws UsageException, IOException {
        if (!o.quiet) System.err.print("vbd: advise: " + what + " ... ");
        long start = System.nanoTime();
        Path out = work.resolve(name + ".out");
        Path err = work.resolve(name + ".err");
        Program.Marked m = Program.run(new ProcessBuilder(cmd), out, err, o.profileFrom);
        if (!o.quiet) System.err.printf(Locale.ROOT, "%.0f s%n", (System.nanoTime() - start) / 1e9);
        return new Run(name, m.status(), out, err, m.marked());
    }

    private static int failed(Run r) throws IOException {
        return Program.failed("advise", r.name(), r.status(), r.err());
    }
}
