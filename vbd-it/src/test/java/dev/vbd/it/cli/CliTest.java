package dev.vbd.it.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line's contract: bad input gets a clear error that names it; nothing is lost. */
class CliTest {
    static final Path HOME = Path.of(System.getProperty("vbd.home", "..")).toAbsolutePath().normalize();
    static final Path VBD = HOME.resolve("bin/vbd");

    @TempDir
    static Path tmp;

    static Path classes;

    record Result(int status, String out, String err) {}

    @BeforeAll
    static void compilePrograms() throws IOException {
        classes = tmp.resolve("classes");
        Files.createDirectories(classes);
        Path src = tmp.resolve("src");
        Files.createDirectories(src);
        Files.writeString(src.resolve("Echo.java"), """
                public class Echo {
                    public static void main(String[] args) {
                        System.out.println("echo " + String.join(",", args));
                    }
                }
                """);
        // A method that fits the 64 KiB code limit as written but not once every load is fenced.
        StringBuilder big = new StringBuilder("public class Huge {\n  static int sum(int[] a) {\n    int s = 0;\n");
        for (int i = 0; i < 10000; i++) big.append("    s += a[").append(i % 4).append("];\n");
        big.append("    return s;\n  }\n  public static void main(String[] args) {\n")
                .append("    System.out.println(\"huge \" + (args.length > 0 ? sum(new int[4]) : -1));\n  }\n}\n");
        Files.writeString(src.resolve("Huge.java"), big.toString());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, null, "-d", classes.toString(),
                src.resolve("Echo.java").toString(), src.resolve("Huge.java").toString());
        assertEquals(0, rc, "test programs compile");
    }

    static Result vbd(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(VBD.toString());
        cmd.addAll(List.of(args));
        return exec(cmd);
    }

    /** Runs a command to its end, stdin closed; its exit status, stdout and stderr. */
    static Result exec(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.PIPE).start();
        p.getOutputStream().close();
        var out = p.getInputStream().readAllBytes();
        var err = p.getErrorStream().readAllBytes();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), String.join(" ", cmd) + " finished");
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    /** The home {@code vbd java-home -- java} prints. */
    private static Path imageHome() throws Exception {
        Result home = vbd("java-home", "--", "java");
        assertEquals(0, home.status(), home.err());
        return Path.of(home.out().trim());
    }

    /** Compiles one class, {@code name}, from {@code source} into a folder of its own, and returns the folder. */
    private Path compile(String name, String source) throws Exception {
        Path dir = tmp.resolve(name.toLowerCase() + "-classes");
        Files.createDirectories(dir);
        Files.writeString(tmp.resolve(name + ".java"), source);
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", dir.toString(), tmp.resolve(name + ".java").toString()));
        return dir;
    }

    @Test
    void runsAProgramAndKeepsItsOutput() throws Exception {
        Result r = vbd("run", "--", "java", "-cp", classes.toString(), "Echo", "a b", "c");
        assertEquals(0, r.status(), r.err());
        assertEquals("echo a b,c\n", r.out());
    }

    @Test
    void malformedRelaxedConfigNamesFileLineAndReason() throws Exception {
        Path cfg = tmp.resolve("bad.relaxed");
        Files.writeString(cfg, "# scopes\nmethod com.example.Foo#bar\nmetod com.example.Foo#baz\n");
        Result r = vbd("run", "--relaxed", cfg.toString(), "--", "java", "-cp", classes.toString(), "Echo");
        assertEquals(2, r.status());
        assertTrue(r.err().contains(cfg + ":3: unknown rule kind 'metod'"), r.err());
        assertEquals("", r.out());
    }

    @Test
    void missingRelaxedConfigIsNamed() throws Exception {
        Result r = vbd("run", "--relaxed", tmp.resolve("nope.txt").toString(), "--", "java", "-version");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("relaxed config '" + tmp.resolve("nope.txt") + "' does not exist"), r.err());
    }

    @Test
    void jdkOlderThan17IsRefused() throws Exception {
        Path jdk = tmp.resolve("jdk-11");
        Files.createDirectories(jdk.resolve("bin"));
        Files.createDirectories(jdk.resolve("lib"));
        Files.writeString(jdk.resolve("lib/modules"), "");
        Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"11.0.2\"\nIMPLEMENTOR=\"Test\"\n");
        Path java = jdk.resolve("bin/java");
        Files.writeString(java, "#!/bin/sh\necho should not run >&2\nexit 99\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Result r = vbd("run", "--", java.toString(), "-version");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("is Java 11.0.2; vbd needs JDK 17 or later"), r.err());
        assertTrue(!r.err().contains("should not run"), r.err());
    }

    @Test
    void unknownLauncherAndOptionAreNamed() throws Exception {
        Result r = vbd("run", "--", "no-such-java-launcher", "-version");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("java launcher 'no-such-java-launcher' not found on PATH"), r.err());
        Result o = vbd("run", "--fast", "--", "java", "-version");
        assertEquals(2, o.status());
        assertTrue(o.err().contains("does not take option '--fast'"), o.err());
        Result c = vbd("frobnicate");
        assertEquals(2, c.status());
        assertTrue(c.err().contains("unknown command 'frobnicate'"), c.err());
    }

    /** The command lines' other errors are named in-process (vbd-cli's OptionsTest); these need bisect itself. */
    @Test
    void bisectNeedsAProgramAndTakesNoRelaxedConfig() throws Exception {
        Result program = vbd("bisect", "--", "java");
        assertEquals(2, program.status());
        assertTrue(program.err().contains("bisect: the java command line needs the program to run"), program.err());
        Path config = Files.createTempFile("bisect", ".relaxed");
        try {
            Result relaxed = vbd("bisect", "--relaxed", config.toString(), "--", "java", "-cp", ".", "Main");
            assertEquals(2, relaxed.status());
            assertTrue(relaxed.err().contains("bisect writes the relaxed configs it tries; it takes none (--relaxed)"), relaxed.err());
        } finally {
            Files.delete(config);
        }
    }

    @Test
    void adviseSaysWhenTheWarmUpsEndNeverShows() throws Exception {
        Path dir = compile("Warm", """
                public class Warm {
                    public static void main(String[] args) {
                        for (int i = 0; i < 3; i++) System.err.println("iteration " + i);
                        System.out.println("done");
                    }
                }
                """);
        Result r = vbd("advise", "--profile-from", "iteration 3", "--out", tmp.resolve("warm.relaxed").toString(),
                "--", "java", "-cp", dir.toString(), "Warm");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("--profile-from 'iteration 3': the program under stock Java printed no line that matches it"), r.err());
        assertFalse(Files.exists(tmp.resolve("warm.relaxed")), "no config without a profile");
    }

    @Test
    void versionNamesTheBuildAndTheCacheCommandsCheckTheirInput() throws Exception {
        Result v = vbd("--version");
        assertEquals(0, v.status(), v.err());
        assertTrue(v.out().matches("vbd \\S+ \\(build [0-9a-f]{12}, rewrite \\d+\\)\n"), v.out());
        Result empty = vbd("cache", "list", "--cache", tmp.resolve("no-cache").toString());
        assertEquals(0, empty.status(), empty.err());
        assertEquals("no prepared JDKs in " + tmp.resolve("no-cache") + "\n", empty.out());
        Result bare = vbd("cache");
        assertEquals(2, bare.status());
        assertTrue(bare.err().contains("'vbd cache' needs 'list' or 'clean'"), bare.err());
        Result bad = vbd("cache", "list", "--all");
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("'vbd cache list' does not take option '--all'"), bad.err());
    }

    /**
     * The prepared image is a Java home of its own: its bin/java runs a program under vbd (the
     * agent's classes are there), and a program run by 'vbd run' sees it as java.home.
     */
    @Test
    void javaHomeRunsProgramsUnderVbdAndIsWhatRunShows() throws Exception {
        Path image = imageHome();
        assertTrue(Files.isRegularFile(image.resolve("lib/modules")) && Files.isExecutable(image.resolve("bin/java")), image.toString());
        Path dir = compile("Home", """
                public class Home {
                    public static void main(String[] args) throws Exception {
                        System.out.println(System.getProperty("java.home"));
                        System.out.println(Class.forName("java.util.concurrent.atomic.VbdRuntime").getSimpleName());
                        System.out.println(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()
                                .stream().anyMatch(a -> a.startsWith("-javaagent:")));
                        if (args.length > 0) System.out.println(System.getProperty("vbd.options"));
                    }
                }
                """);
        Result direct = exec(List.of(image.resolve("bin/java").toString(), "-cp", dir.toString(), "Home"));
        assertEquals(0, direct.status(), direct.out() + direct.err());
        // the image rewrites by itself: no agent
        assertEquals(image + "\nVbdRuntime\nfalse\n", direct.out());
        Result run = vbd("run", "--", "java", "-cp", dir.toString(), "Home");
        assertEquals(0, run.status(), run.err());
        assertEquals(image + "\nVbdRuntime\nfalse\n", run.out());
        Result agent = vbd("run", "--agent", "--", "java", "-cp", dir.toString(), "Home");
        assertEquals(0, agent.status(), agent.err());
        assertEquals(image + "\nVbdRuntime\ntrue\n", agent.out());
        // vbd's options reach the image as a system property, which the program can see
        Path config = tmp.resolve("home.relaxed");
        Files.writeString(config, "class Nothing\n");
        Result relaxed = vbd("run", "--relaxed", config.toString(), "--", "java", "-cp", dir.toString(), "Home", "options");
        assertEquals(0, relaxed.status(), relaxed.err());
        assertEquals(image + "\nVbdRuntime\nfalse\nrelaxed=" + java.net.URLEncoder.encode(config.toString(), StandardCharsets.UTF_8) + "\n",
                relaxed.out());
        Result bad = vbd("java-home", "--relaxed", "x", "--", "java");
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("'vbd java-home' does not take option '--relaxed'"), bad.err());
    }

    /**
     * The image rewrites a program's classes unless told otherwise: {@code -Dvbd.rewrite=none} leaves
     * them as compiled (its JDK stays rewritten), {@code agent} leaves them to vbd's agent, and any
     * other value stops the JVM with its name. The program asks the prepared JDK whether vbd made
     * its field volatile.
     */
    @Test
    void theImageRewritesUnlessToldNotTo() throws Exception {
        Path java = imageHome().resolve("bin/java");
        Path dir = compile("Probe", """
                public class Probe {
                    int plain;
                    public static void main(String[] args) throws Exception {
                        int m = (int) Class.forName("java.util.concurrent.atomic.VbdFieldModifiers")
                                .getMethod("field", int.class, Class.class, String.class)
                                .invoke(null, java.lang.reflect.Modifier.VOLATILE, Probe.class, "plain");
                        System.out.println((m & java.lang.reflect.Modifier.VOLATILE) == 0 ? "rewritten" : "as compiled");
                    }
                }
                """);
        for (Map.Entry<String, String> c : Map.of("", "rewritten\n", "-Dvbd.rewrite=none", "as compiled\n").entrySet()) {
            List<String> cmd = new ArrayList<>(List.of(java.toString()));
            if (!c.getKey().isEmpty()) cmd.add(c.getKey());
            cmd.addAll(List.of("-cp", dir.toString(), "Probe"));
            Result r = exec(cmd);
            assertEquals(0, r.status(), r.out() + r.err());
            assertEquals(c.getValue(), r.out(), c.getKey());
        }
        Result bad = exec(List.of(java.toString(), "-Dvbd.rewrite=everything", "-cp", dir.toString(), "Probe"));
        assertEquals(2, bad.status(), bad.out() + bad.err());
        assertTrue(bad.err().contains("-Dvbd.rewrite=everything") && bad.out().isEmpty(), bad.err());
    }

    /**
     * With {@code --fields fenced} (or {@code $VBD_FIELDS}) the program's fields stay as declared in
     * the JVM while the program sees what it declared: a field is not volatile to the JVM (a method
     * handle is how the JVM's flags show), a final field whose constructor leaks {@code this} is
     * final to reflection, and the verifier finds every access SC. A bad value is named.
     */
    @Test
    void fencedFieldsStayAsDeclaredAndEveryAccessIsSc() throws Exception {
        Path dir = compile("Fenced", """
                import java.lang.reflect.Modifier;
                public class Fenced {
                    static Fenced last;
                    int plain;
                    final int leaked;
                    Fenced() { plain = 2; last = this; leaked = 1; }
                    public static void main(String[] args) throws Throwable {
                        Fenced f = new Fenced();
                        int declared = Fenced.class.getDeclaredField("plain").getModifiers();
                        int fin = Fenced.class.getDeclaredField("leaked").getModifiers();
                        var jvm = java.lang.invoke.MethodHandles.lookup().findGetter(Fenced.class, "plain", int.class);
                        System.out.println(Modifier.isVolatile(declared) + " " + Modifier.isFinal(fin) + " "
                                + (int) jvm.invokeExact(f) + " " + f.leaked);
                    }
                }
                """);
        Result fenced = vbd("run", "--fields", "fenced", "--", "java", "-cp", dir.toString(), "Fenced");
        assertEquals(0, fenced.status(), fenced.out() + fenced.err());
        assertEquals("false true 2 1\n", fenced.out());
        Path report = tmp.resolve("fenced-verify.json");
        Result verify = vbd("verify", "--fields", "fenced", "--json", report.toString(), "--", "java", "-cp", dir.toString(), "Fenced");
        assertEquals(0, verify.status(), verify.out() + verify.err());
        String json = Files.readString(report);
        assertTrue(json.contains("\"nonSc\": 0") || json.contains("\"nonSc\":0"), json.substring(0, Math.min(400, json.length())));
        // plain = 2 before the leak, and the stores of the JDK's constructors the run loaded (its fields are fenced too)
        java.util.regex.Matcher unpublished = java.util.regex.Pattern.compile(" (\\d+) constructor accesses to objects not yet shared")
                .matcher(verify.out());
        assertTrue(unpublished.find() && Integer.parseInt(unpublished.group(1)) > 1, verify.out());

        Result bad = vbd("run", "--fields", "plain", "--", "java", "-version");
        assertEquals(2, bad.status(), bad.err());
        assertTrue(bad.err().contains("--fields takes 'volatile', 'fenced' or 'speculative', got 'plain'"), bad.err());
        List<String> cmd = new ArrayList<>(List.of("env", "VBD_FIELDS=plain", VBD.toString(), "run", "--", "java", "-version"));
        Result badEnv = exec(cmd);
        assertEquals(2, badEnv.status(), badEnv.err());
        assertTrue(badEnv.err().contains("VBD_FIELDS takes 'volatile', 'fenced' or 'speculative', got 'plain'"), badEnv.err());
    }

    /**
     * {@code --optimise none} leaves out the proofs that no other thread can see an access, in the
     * program and in the JDK prepared for it: the verifier then finds every constructor access
     * fenced, none plain as not yet shared, and still every access SC. A bad value is named.
     */
    @Test
    void withoutOptimisationsNoAccessIsLeftPlainAsNotYetShared() throws Exception {
        Path dir = compile("Built", """
                public class Built {
                    int a, b;
                    Built(int a, int b) { this.a = a; this.b = b; }
                    public static void main(String[] args) {
                        int[] scratch = new int[4];
                        for (int i = 0; i < scratch.length; i++) scratch[i] = i;
                        System.out.println(new Built(scratch[1], scratch[3]).b);
                    }
                }
                """);
        Path report = tmp.resolve("unoptimised-verify.json");
        Result verify = vbd("verify", "--fields", "fenced", "--optimise", "none", "--json", report.toString(),
                "--", "java", "-cp", dir.toString(), "Built");
        assertEquals(0, verify.status(), verify.out() + verify.err());
        assertTrue(verify.out().lines().anyMatch("3"::equals), verify.out());
        String json = Files.readString(report);
        assertTrue(json.contains("\"nonSc\": 0") || json.contains("\"nonSc\":0"), json.substring(0, Math.min(400, json.length())));
        assertTrue(verify.out().contains(" 0 accesses to arrays not yet shared, 0 constructor accesses to objects not yet shared"),
                verify.out());
        // the same program with both proofs: its scratch array and its constructor's stores stay plain
        Result optimised = vbd("verify", "--fields", "fenced", "--json", tmp.resolve("optimised-verify.json").toString(),
                "--", "java", "-cp", dir.toString(), "Built");
        assertEquals(0, optimised.status(), optimised.out() + optimised.err());
        java.util.regex.Matcher plain = java.util.regex.Pattern.compile(
                " (\\d+) accesses to arrays not yet shared, (\\d+) constructor accesses").matcher(optimised.out());
        assertTrue(plain.find() && Integer.parseInt(plain.group(1)) > 0 && Integer.parseInt(plain.group(2)) > 0, optimised.out());

        Result bad = vbd("run", "--optimise", "some", "--", "java", "-version");
        assertEquals(2, bad.status(), bad.err());
        assertTrue(bad.err().contains("--optimise takes 'all', 'constructors', 'local-arrays' or 'none', got 'some'"), bad.err());
    }

    /**
     * The image keeps each rewrite and takes it again when the same bytes are defined in a later
     * run: the first run leaves one pack of rewrites in the store, the second writes nothing, a
     * changed class is rewritten and kept in a pack of its run, and {@code -Dvbd.store=off}
     * neither reads nor writes the store.
     */
    @Test
    void theImageKeepsRewritesForTheNextRun() throws Exception {
        Path java = imageHome().resolve("bin/java");
        Path store = tmp.resolve("store");
        Path kept = store.resolve(java.getParent().getParent().getParent().getFileName()).resolve("default");
        String probe = """
                public class Kept {
                    int plain;
                    public static void main(String[] args) throws Exception {
                        int m = (int) Class.forName("java.util.concurrent.atomic.VbdFieldModifiers")
                                .getMethod("field", int.class, Class.class, String.class)
                                .invoke(null, java.lang.reflect.Modifier.VOLATILE, Kept.class, "plain");
                        System.out.println(((m & java.lang.reflect.Modifier.VOLATILE) == 0 ? "rewritten" : "as compiled") + "%s");
                    }
                }
                """;
        Path dir = compile("Kept", probe.formatted(""));
        List<String> run = List.of(java.toString(), "-Dvbd.store=" + store, "-cp", dir.toString(), "Kept");
        Result first = exec(run);
        assertEquals("rewritten\n", first.out(), first.err());
        Map<String, Object> afterFirst = storeFiles(kept);
        assertEquals(1, afterFirst.size(), "the first run's pack: " + afterFirst.keySet());

        Result second = exec(run);
        assertEquals("rewritten\n", second.out(), second.err());
        assertEquals(afterFirst, storeFiles(kept), "the second run took the kept rewrite and wrote nothing");

        compile("Kept", probe.formatted(" again"));
        Result changed = exec(run);
        assertEquals("rewritten again\n", changed.out(), changed.err());
        assertEquals(2, storeFiles(kept).size(), "the changed class is kept in a pack beside the first");

        Result off = exec(List.of(java.toString(), "-Dvbd.store=off", "-cp", dir.toString(), "Kept"));
        assertEquals("rewritten again\n", off.out(), off.err());
        assertEquals(2, storeFiles(kept).size());
    }

    /**
     * Each relaxed config has a store of its own: a class kept relaxed is never taken for the same
     * bytes under another config, nor the other way round.
     */
    @Test
    void eachRelaxedConfigHasAStoreOfItsOwn() throws Exception {
        Path java = imageHome().resolve("bin/java");
        Path store = tmp.resolve("relaxed-store");
        Path dir = compile("Lax", """
                public class Lax {
                    int plain;
                    public static void main(String[] args) throws Exception {
                        int m = (int) Class.forName("java.util.concurrent.atomic.VbdFieldModifiers")
                                .getMethod("field", int.class, Class.class, String.class)
                                .invoke(null, java.lang.reflect.Modifier.VOLATILE, Lax.class, "plain");
                        System.out.println((m & java.lang.reflect.Modifier.VOLATILE) == 0 ? "rewritten" : "as compiled");
                    }
                }
                """);
        Path relaxed = tmp.resolve("lax.relaxed");
        Files.writeString(relaxed, "class Lax\n");
        String option = "-Dvbd.options=relaxed=" + URLEncoder.encode(relaxed.toString(), StandardCharsets.UTF_8);
        for (int round = 0; round < 2; round++) {
            for (boolean lax : new boolean[]{true, false}) {
                List<String> cmd = new ArrayList<>(List.of(java.toString(), "-Dvbd.store=" + store));
                if (lax) cmd.add(option);
                cmd.addAll(List.of("-cp", dir.toString(), "Lax"));
                Result r = exec(cmd);
                assertEquals(lax ? "as compiled\n" : "rewritten\n", r.out(), "round " + round + (lax ? ", relaxed" : "") + ": " + r.err());
            }
        }
        Path stores = store.resolve(java.getParent().getParent().getParent().getFileName());
        try (var s = Files.list(stores)) {
            List<String> names = s.map(p -> p.getFileName().toString()).sorted().toList();
            assertEquals(2, names.size(), names.toString());
            assertEquals("default", names.get(0));
            assertTrue(names.get(1).startsWith("relaxed-"), names.toString());
        }
    }

    /**
     * A class first defined while the JVM shuts down (in a shutdown hook), in a run that has kept
     * nothing yet, is rewritten like any other, though it is too late to keep it: the store never
     * stops the program. The first run keeps the program's other classes, so that in the second
     * the class defined at shutdown is the first one to keep.
     */
    @Test
    void aClassFirstDefinedAtShutdownRunsUnderTheStore() throws Exception {
        Path java = imageHome().resolve("bin/java");
        Path dir = compile("Late", """
                public class Late {
                    static class Helper { int n; }
                    public static void main(String[] args) {
                        Runtime.getRuntime().addShutdownHook(new Thread() {
                            @Override public void run() {
                                if (args.length == 0) {
                                    System.out.println("hook");
                                    return;
                                }
                                Helper h = new Helper();
                                h.n = 7;
                                System.out.println("hook " + h.n);
                            }
                        });
                        System.out.println("main");
                    }
                }
                """);
        List<String> run = List.of(java.toString(), "-Dvbd.store=" + tmp.resolve("late-store"), "-cp", dir.toString(), "Late");
        Result keeps = exec(run);
        assertEquals("main\nhook\n", keeps.out(), keeps.err());
        List<String> late = new ArrayList<>(run);
        late.add("helper");
        for (int i = 0; i < 2; i++) {
            Result r = exec(late);
            assertEquals(0, r.status(), "run " + i + ": " + r.out() + r.err());
            assertEquals("main\nhook 7\n", r.out(), "run " + i + ": " + r.err());
        }
    }

    /** Each file of a store of rewrites, with what tells a file replaced from the same file kept. */
    private static Map<String, Object> storeFiles(Path dir) throws IOException {
        Map<String, Object> files = new java.util.TreeMap<>();
        try (var s = Files.list(dir)) {
            for (Path f : s.toList()) {
                files.put(f.getFileName().toString(), List.of(Files.getLastModifiedTime(f),
                        Files.readAttributes(f, java.nio.file.attribute.BasicFileAttributes.class).fileKey()));
            }
        }
        return files;
    }

    /**
     * The JVM defines the boot class path's classes itself, past the image's define paths: the
     * image's java refuses such a command line, naming {@code vbd run}, which gives it the agent.
     */
    @Test
    void theImageRefusesTheBootClassPathAndRunGivesItTheAgent() throws Exception {
        Path image = imageHome();
        Path dir = compile("Boot", """
                public class Boot {
                    public static void main(String[] args) {
                        System.out.println("loader=" + Boot.class.getClassLoader() + " agent="
                                + java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().toString().contains("-javaagent:"));
                    }
                }
                """);
        Result refused = exec(List.of(image.resolve("bin/java").toString(), "-Xbootclasspath/a:" + dir, "Boot"));
        assertEquals(2, refused.status(), refused.out() + refused.err());
        assertTrue(refused.err().contains("-Xbootclasspath/a") && refused.err().contains("vbd run") && refused.out().isEmpty(),
                refused.out() + refused.err());
        Result run = vbd("run", "--", "java", "-Xbootclasspath/a:" + dir, "Boot");
        assertEquals(0, run.status(), run.err());
        assertEquals("loader=null agent=true\n", run.out());
    }

    @Test
    void unrewritableClassStopsTheRunWithItsName() throws Exception {
        Result r = vbd("run", "--", "java", "-cp", classes.toString(), "Huge", "x");
        assertEquals(125, r.status(), r.err());
        assertTrue(r.err().contains("cannot rewrite class Huge: method sum([I)I would exceed"), r.err());
        assertEquals("", r.out());
    }

    @Test
    void skipUnrewritableLeavesOnlyTheOversizedMethodUnfencedAndNamesIt() throws Exception {
        Result r = vbd("run", "--skip-unrewritable", "--", "java", "-cp", classes.toString(), "Huge", "x");
        assertEquals(0, r.status(), r.err());
        assertEquals("huge 0\n", r.out());
        assertTrue(r.err().contains("method left unfenced") && r.err().contains("Huge.sum([I)I"), r.err());
        assertTrue(!r.err().contains("class left unrewritten"), "the rest of the class is rewritten\n" + r.err());
    }

    @Test
    void verifyListsTheUnfencedMethodFromTheMarker() throws Exception {
        Path json = tmp.resolve("huge.json");
        Result r = vbd("verify", "-q", "--skip-unrewritable", "--json", json.toString(), "--",
                "java", "-cp", classes.toString(), "Huge", "x");
        assertEquals(1, r.status(), "the unfenced loads are not SC\n" + r.out() + r.err());
        assertTrue(r.out().contains("unfenced method Huge.sum([I)I"), r.out());
        String report = Files.readString(json);
        assertTrue(report.contains("\"unfencedMethods\"") && report.contains("\"sum([I)I\""), report.substring(0, Math.min(2000, report.length())));
        assertTrue(report.contains("\"Huge.sum([I)I\""), "the agent's failed list names the method");
    }

    @Test
    void preparingUnderRunPrintsNothingOnAStderrThatIsNoTerminal() throws Exception {
        Path cache = tmp.resolve("fresh-cache");
        Result r = vbd("run", "--cache", cache.toString(), "--", "java", "-cp", classes.toString(), "Echo", "quiet");
        assertEquals(0, r.status(), r.err());
        assertEquals("echo quiet\n", r.out());
        assertEquals("", r.err(), "a program's stderr holds only what the program wrote");
        try (var entries = Files.list(cache.resolve("jdk"))) {
            assertEquals(1, entries.filter(Files::isDirectory).count(), "one prepared JDK");
        }
        Result again = vbd("prepare", "--cache", cache.toString(), "--", "java");
        assertEquals(0, again.status(), again.err());
        assertTrue(again.out().strip().startsWith(cache.resolve("jdk").toString()), again.out());
    }

    @Test
    void jvmArgsWorkForAnotherLauncher() throws Exception {
        Result r = vbd("jvm-args", "--", "java");
        assertEquals(0, r.status(), r.err());
        String opts = r.out().trim();
        assertTrue(opts.contains("--patch-module=java.base="), opts);
        assertTrue(opts.contains("-javaagent:"), opts);
        Process p = new ProcessBuilder("bash", "-c", "exec java " + opts + " -cp '" + classes + "' Echo via-jvm-args")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertEquals("echo via-jvm-args\n", out);
    }

    /**
     * A JDK prepared with fenced fields serves fenced and speculative programs; its image's own
     * launcher runs a program fenced when not told otherwise, and refuses volatile fields, whose
     * rewrite would leave the JDK's fenced fields unfenced in the program's code.
     */
    @Test
    void aJdkPreparedWithFencedFieldsRefusesAVolatileProgramByName() throws Exception {
        Result prepared = vbd("prepare", "-q", "--fields", "fenced", "--", "java");
        assertEquals(0, prepared.status(), prepared.err());
        Path dir = Path.of(prepared.out().strip());
        assertEquals("fenced", Files.readString(dir.resolve("fields.txt")).strip());
        // the fields a program's access to a java.* class's field must fence, read without the JDK's class files
        List<String> fencedFields = Files.readAllLines(dir.resolve("fenced-fields.txt"));
        assertTrue(fencedFields.contains("modCount.I") && fencedFields.contains("x.I"), "AbstractList.modCount, Point.x");
        assertFalse(fencedFields.contains("out.Ljava/io/PrintStream;"), "System.out is final");
        Path java = dir.resolve("image/bin/java");
        Assumptions.assumeTrue(Files.isExecutable(java), "this JDK has no runtime image");
        Process ok = new ProcessBuilder(java.toString(), "-cp", classes.toString(), "Echo", "fenced").redirectErrorStream(true).start();
        String okOut = new String(ok.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(ok.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, ok.exitValue(), okOut);
        assertEquals("echo fenced\n", okOut);
        Process bad = new ProcessBuilder(java.toString(), "-Dvbd.options=fields=volatile", "-cp", classes.toString(), "Echo")
                .redirectErrorStream(true).start();
        String badOut = new String(bad.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(bad.waitFor(120, TimeUnit.SECONDS));
        assertEquals(2, bad.exitValue(), badOut);
        assertTrue(badOut.contains("has fenced fields, and volatile fields need one prepared with volatile fields"), badOut);
        assertTrue(badOut.contains(dir.toString()), badOut);
    }

    @Test
    void agentWithoutPreparedJdkRefusesClearly() throws Exception {
        Path jar = HOME.resolve("vbd-cli/target/vbd.jar");
        Process p = new ProcessBuilder("java", "-javaagent:" + jar, "-cp", classes.toString(), "Echo")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(2, p.exitValue(), out);
        assertTrue(out.contains("unprepared JDK"), out);
    }

    @Test
    void demoShowsNoForbiddenOutcomeUnderVbd() throws Exception {
        Result r = vbd("demo");
        assertEquals(0, r.status(), r.out() + r.err());
        String vbdPart = r.out().substring(r.out().indexOf("== under vbd"));
        assertTrue(vbdPart.contains("publication: reader saw ready=true and data=42"), r.out());
        assertTrue(vbdPart.contains("dekker: 0 of"), r.out());
    }
}
