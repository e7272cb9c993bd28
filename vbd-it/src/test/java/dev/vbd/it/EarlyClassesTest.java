package dev.vbd.it;

import dev.vbd.core.verify.Json;
import dev.vbd.host.Command;
import dev.vbd.it.support.Jvm;
import dev.vbd.it.support.Jvms;
import dev.vbd.it.support.OnEachJdk;
import dev.vbd.it.support.Outcome;
import dev.vbd.it.support.Program;
import dev.vbd.it.support.Programs;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Classes the JVM defines before vbd's agent starts: a custom system class loader
 * ({@code -Djava.system.class.loader}) and a helper its initialisation touches (program
 * {@code sysloader}). With the agent ({@code run --agent}, {@code verify}) the run must start
 * whether or not the loader supports agents ({@code appendToClassPathForInstrumentation}), say once
 * which classes came early, keep store buffering on their plain fields and arrays away, refuse
 * under {@code --strict}, and the verifier must list them. The prepared runtime image rewrites
 * from java.base's define paths, which the system class loader's own classes pass too: under
 * plain {@code run} no class comes early.
 */
class EarlyClassesTest {
    static final long TRIALS = 400_000;
    static final List<String> SHAPES = List.of("loader-array", "helper-fields", "main-fields");
    /** The loader lacking the method once made every vbd run abort; the other implements it. */
    static final List<String> LOADERS = List.of("SbLoader", "AppendingLoader");
    private static final Pattern LINE = Pattern.compile("SB shape=(\\S+) trials=(\\d+) forbidden=(\\d+)");
    private static final String EARLY = "loaded before vbd's agent started";

    static Program program() {
        return Programs.compile("sysloader");
    }

    @OnEachJdk
    void storeBufferingOnEarlyClassesNeverShowsTheForbiddenOutcome(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        for (String loader : LOADERS) {
            Outcome o = storeBuffering(program().on(jvm, args()).jvmOptions("-Djava.system.class.loader=" + loader).agent().vbd(),
                    loader, jvm);
            assertEquals(1, count(o.stderr(), EARLY), "said once\n" + o.describe());
            assertTrue(o.stderr().contains("SbLoader") && o.stderr().contains("Helper")
                    && o.stderr().contains("--strict"), o.describe());
        }
    }

    /** The runtime image's own rewriting: the loader and its helper are rewritten as they are defined. */
    @OnEachJdk
    void theImageRewritesTheSystemClassLoaderToo(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        for (String loader : LOADERS) {
            Outcome o = storeBuffering(program().on(jvm, args()).jvmOptions("-Djava.system.class.loader=" + loader).vbd(),
                    loader, jvm);
            assertEquals(0, count(o.stderr(), EARLY), "nothing came early\n" + o.describe());
        }
    }

    private static String[] args() {
        List<String> args = new ArrayList<>(List.of(String.valueOf(TRIALS)));
        args.addAll(SHAPES);
        return args.toArray(String[]::new);
    }

    private static Outcome storeBuffering(Outcome o, String loader, Jvm jvm) {
        o.requireExit(0);
        assertTrue(o.stdout().contains("loader=" + loader + "\n"), o.describe());
        int seen = 0;
        Matcher m = LINE.matcher(o.stdout());
        while (m.find()) {
            seen++;
            String shape = m.group(1);
            long trials = Long.parseLong(m.group(2)), forbidden = Long.parseLong(m.group(3));
            assertTrue(trials >= TRIALS, shape + ": only " + trials + " trials");
            assertEquals(0, forbidden, () -> loader + ", " + shape + ": r1=0,r2=0 seen " + forbidden
                    + " times under vbd on " + jvm + "; sequential consistency forbids it\n" + o.describe());
        }
        assertEquals(SHAPES.size(), seen, o.describe());
        return o;
    }

    /** What stock Java shows with the same program: printed, not asserted (a busy machine may hide it). */
    @OnEachJdk
    void stockRunsTheSameProgram(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        List<String> args = new ArrayList<>(List.of(String.valueOf(TRIALS)));
        args.addAll(SHAPES);
        Outcome o = program().on(jvm, args.toArray(String[]::new))
                .jvmOptions("-Djava.system.class.loader=SbLoader").stock().requireExit(0);
        System.out.println("stock on " + jvm + ":\n" + o.stdout());
        assertTrue(o.stdout().contains("loader=SbLoader"), o.describe());
    }

    /**
     * Reflection shows every field as declared, the early class's (which, with the agent, the JVM
     * runs as compiled) and the later class's (which the JVM runs volatile) alike: as on stock Java.
     */
    @OnEachJdk
    void reflectionSeesEveryFieldAsDeclared(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        for (boolean agent : List.of(true, false)) {
            var launch = program().on(jvm, "reflect").jvmOptions("-Djava.system.class.loader=SbLoader");
            Outcome o = (agent ? launch.agent() : launch).vbd().requireExit(0);
            assertTrue(o.stdout().contains("reflect Helper.x volatile=false Main.mainField volatile=false"), o.describe());
        }
    }

    @OnEachJdk
    void strictRefusesToRunThem(int jdk) throws Exception {
        Jvm jvm = Jvms.require(jdk);
        Result r = vbd("run", "--agent", "--strict", "--", jvm.launcher().toString(), "-Djava.system.class.loader=SbLoader",
                "-cp", program().classPath(), "Main", "reflect");
        assertEquals(125, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("vbd: error: ") && r.err().contains(EARLY) && r.err().contains("SbLoader"), r.err());
        assertTrue(!r.out().contains("reflect "), "the program did not run: " + r.out());
        // the image leaves nothing early to refuse
        Result image = vbd("run", "--strict", "--", jvm.launcher().toString(), "-Djava.system.class.loader=SbLoader",
                "-cp", program().classPath(), "Main", "reflect");
        assertEquals(0, image.status(), image.out() + image.err());
        assertTrue(image.out().contains("reflect ") && !image.err().contains(EARLY), image.out() + image.err());
    }

    @OnEachJdk
    void theVerifierListsThemAndChecksTheirFencedAccesses(int jdk) throws Exception {
        Jvm jvm = Jvms.require(jdk);
        Path json = Programs.target().resolve("early-verify-" + jdk + ".json");
        Result r = vbd("verify", "-q", "--json", json.toString(), "--", jvm.launcher().toString(),
                "-Djava.system.class.loader=SbLoader", "-cp", program().classPath(), "Main", "20000", "helper-fields", "main-fields");
        @SuppressWarnings("unchecked")
        Map<String, Object> rep = (Map<String, Object>) Json.parse(Files.readString(json, StandardCharsets.UTF_8));
        assertEquals(0, ((Number) rep.get("nonSc")).longValue(), () -> String.valueOf(rep.get("findings")));
        assertEquals(0, r.status(), r.out() + r.err());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> uncovered = (List<Map<String, Object>>) rep.get("uncoveredClasses");
        List<String> early = uncovered.stream().filter(u -> String.valueOf(u.get("reason")).startsWith(EARLY))
                .map(u -> String.valueOf(u.get("class"))).sorted().toList();
        assertEquals(List.of("Helper", "SbLoader"), early, String.valueOf(uncovered));
        assertTrue(r.out().contains("uncovered SbLoader") && r.out().contains(EARLY), r.out());
    }

    /**
     * A hole of safe construction (safe-construction.md): with the agent, their constructors run
     * as compiled. vbd says so at start-up, and the verifier lists them as uncovered and reports
     * each constructor point without its fence.
     */
    @OnEachJdk
    void underSafeConstructionTheirConstructorsRunAsCompiledAndTheVerifierSaysSo(int jdk) throws Exception {
        Jvm jvm = Jvms.require(jdk);
        Path json = Programs.target().resolve("early-safe-" + jdk + ".json");
        Result r = vbd("verify", "-q", "--mode", "safe-construction", "--json", json.toString(), "--", jvm.launcher().toString(),
                "-Djava.system.class.loader=SbLoader", "-cp", program().classPath(), "Main", "20000", "helper-fields");
        assertTrue(r.err().contains("constructors run as compiled, without safe construction") && r.err().contains("SbLoader"), r.err());
        @SuppressWarnings("unchecked")
        Map<String, Object> rep = (Map<String, Object>) Json.parse(Files.readString(json, StandardCharsets.UTF_8));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> uncovered = (List<Map<String, Object>>) rep.get("uncoveredClasses");
        List<String> early = uncovered.stream()
                .filter(u -> String.valueOf(u.get("reason")).equals(EARLY + ": constructors as compiled"))
                .map(u -> String.valueOf(u.get("class"))).sorted().toList();
        assertEquals(List.of("Helper", "SbLoader"), early, String.valueOf(uncovered));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> findings = (List<Map<String, Object>>) rep.get("findings");
        assertTrue(findings.stream().anyMatch(f -> "SbLoader".equals(f.get("class")) && "CONSTRUCTOR".equals(f.get("kind"))),
                String.valueOf(findings));
        assertEquals(1, r.status(), "unfenced constructors fail the check:\n" + r.out() + r.err());
    }

    /**
     * The hole that stays (guarantee.md): the JVM keeps their fields plain, so method handles and
     * reflection on them access them plainly. The verifier reports each such accessor; the store
     * buffering the program then runs through them is printed, not asserted.
     */
    @OnEachJdk
    void theVerifierReportsMethodHandlesAndReflectionOnTheirFields(int jdk) throws Exception {
        Jvm jvm = Jvms.require(jdk);
        Path json = Programs.target().resolve("early-accessors-" + jdk + ".json");
        Result r = vbd("verify", "-q", "--json", json.toString(), "--", jvm.launcher().toString(),
                "-Djava.system.class.loader=SbLoader", "-cp", program().classPath(), "Main", String.valueOf(TRIALS),
                "handle-fields", "reflect-fields");
        System.out.println("vbd on " + jvm + ", accessors to plain fields:\n" + r.out());
        assertEquals(1, r.status(), "an open path fails the verifier's run\n" + r.out() + r.err());
        assertTrue(r.out().contains("SB shape=handle-fields") && r.out().contains("SB shape=reflect-fields"), r.out());
        @SuppressWarnings("unchecked")
        Map<String, Object> rep = (Map<String, Object>) Json.parse(Files.readString(json, StandardCharsets.UTF_8));
        @SuppressWarnings("unchecked")
        List<String> details = ((List<Map<String, Object>>) rep.get("findings")).stream()
                .filter(f -> f.get("kind").equals("INDIRECT")).map(f -> String.valueOf(f.get("detail"))).toList();
        for (String field : List.of("Helper.x", "Helper.y")) {
            assertTrue(details.stream().anyMatch(d -> d.startsWith(field + " through a method handle")), details.toString());
            // JDK 17 reflects through Unsafe, later JDKs through method handles; the factory notes it either way
            assertTrue(details.stream().anyMatch(d -> d.startsWith(field + " through reflection")), details.toString());
        }
        assertEquals(details.size(), ((Number) rep.get("nonSc")).longValue(), String.valueOf(rep.get("findings")));
    }

    record Result(int status, String out, String err) {}

    private static Result vbd(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Programs.home().resolve("bin/vbd").toString()));
        cmd.addAll(List.of(args));
        Path dir = Programs.target().resolve("it-runs");
        Files.createDirectories(dir);
        Path out = Files.createTempFile(dir, "early-", ".out");
        Path err = Files.createTempFile(dir, "early-", ".err");
        Command.Result r = Command.of(cmd).outputTo(out, err).timeout(Duration.ofMinutes(15)).run();
        if (r.timedOut()) throw new AssertionError("timed out: " + cmd);
        return new Result(r.status(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) n++;
        return n;
    }
}
