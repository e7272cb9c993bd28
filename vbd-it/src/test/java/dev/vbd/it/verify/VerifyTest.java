package dev.vbd.it.verify;

import dev.vbd.core.verify.Json;
import dev.vbd.host.Command;
import dev.vbd.host.Jdks;
import dev.vbd.it.support.Programs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.tools.ToolProvider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code bin/vbd verify} end to end: a run, the prepared JDK, a jar; on every installed JDK. */
class VerifyTest {
    private static final Path HOME = Path.of(System.getProperty("vbd.home", "..")).toAbsolutePath().normalize();
    private static final Path WORK = Programs.target().resolve("verify-it");

    /** A program with shared fields, arrays, bulk copies, a weak-mode call, a lambda and threads; exits with its argument. */
    private static final String PROGRAM = """
            import java.util.concurrent.atomic.AtomicInteger;
            public class Main {
                static int total;
                final int[] cells = new int[16];
                static final AtomicInteger lazy = new AtomicInteger();
                public static void main(String[] args) throws Exception {
                    Main m = new Main();
                    Thread[] ts = new Thread[2];
                    for (int t = 0; t < ts.length; t++) {
                        int id = t;
                        ts[t] = new Thread(() -> {
                            for (int i = 0; i < 1000; i++) {
                                synchronized (Main.class) { m.cells[(i + id) & 15]++; total++; }
                            }
                        });
                        ts[t].start();
                    }
                    for (Thread t : ts) t.join();
                    int[] copy = m.cells.clone();
                    System.arraycopy(copy, 0, m.cells, 0, copy.length);
                    lazy.lazySet(total);
                    int sum = 0;
                    for (int c : m.cells) sum += c;
                    System.out.println("verify-it total=" + total + " sum=" + sum + " lazy=" + lazy.get());
                    System.exit(Integer.parseInt(args[0]));
                }
            }
            """;

    /**
     * Writes a field of a program class named as JMH's {@code Blackhole}: the program's own class,
     * rewritten as any other (a harness that wants it plain relaxes it with a config).
     */
    private static final String ESCAPE = """
            public class Escape {
                public static void main(String[] args) {
                    org.openjdk.jmh.infra.Blackhole.sink = args.length;
                    System.out.println("escape ran");
                }
            }
            """;
    private static final String BLACKHOLE = """
            package org.openjdk.jmh.infra;
            public class Blackhole { public static int sink; }
            """;

    /**
     * Reaches native operations through method handles: System.arraycopy (vbd links a fenced twin,
     * which revealDirect names: a visible change guarantee.md lists), clone() of an array and
     * java.lang.reflect.Array.getInt (no twin), and a VarHandle's plain mode as a method handle:
     * unfenced paths the verifier must report. A relaxed method's plain access, which vbd links
     * through a plain VarHandle itself, is no such path.
     */
    private static final String INDIRECT = """
            import java.lang.invoke.*;
            public class Indirect {
                static int counter = 3;
                static int relaxedRead() { return counter; } // relaxed by the test's config: linked to a plain VarHandle
                public static void main(String[] args) throws Throwable {
                    System.out.println("relaxed read " + relaxedRead());
                    MethodHandle copy = MethodHandles.lookup().findStatic(System.class, "arraycopy",
                            MethodType.methodType(void.class, Object.class, int.class, Object.class, int.class, int.class));
                    System.out.println("arraycopy handle declared by " + MethodHandles.lookup().revealDirect(copy).getDeclaringClass().getName());
                    if (args.length > 0) {
                        MethodHandle clone = MethodHandles.publicLookup().findVirtual(int[].class, "clone", MethodType.methodType(Object.class));
                        System.out.println("cloned " + ((int[]) (Object) clone.invoke(new int[]{1, 2})).length);
                        MethodHandle get = MethodHandles.publicLookup().findStatic(java.lang.reflect.Array.class, "getInt",
                                MethodType.methodType(int.class, Object.class, int.class));
                        System.out.println("element " + (int) get.invokeExact((Object) new int[]{7}, 0));
                        MethodHandle plain = MethodHandles.lookup().findStaticVarHandle(Indirect.class, "counter", int.class)
                                .toMethodHandle(VarHandle.AccessMode.GET);
                        System.out.println("plain " + (int) plain.invokeExact());
                    }
                }
            }
            """;

    /** Declares a native method whose library it does not have: enough for the verifier to see it. */
    private static final String NATIVES = """
            public class Natives {
                static native void poke(int[] cells);
                public static void main(String[] args) {
                    try {
                        poke(new int[1]);
                    } catch (UnsatisfiedLinkError e) {
                        System.out.println("no library: " + e.getClass().getName());
                    }
                }
            }
            """;

    /**
     * Spreads an array over a method's arguments, twice: java.lang.invoke compiles each spreader
     * into a hidden class of its own that loads the elements with a plain {@code iaload} or
     * {@code aaload}.
     */
    private static final String HANDLES = """
            import java.lang.invoke.*;
            public class Handles {
                static boolean isSet(int v) { return v != 0; }
                public static void main(String[] args) throws Throwable {
                    MethodHandle h = MethodHandles.lookup().findStatic(Handles.class, "isSet", MethodType.methodType(boolean.class, int.class));
                    int[] flag = {1};
                    System.out.println("spread " + (boolean) h.asSpreader(int[].class, 1).invokeExact(flag));
                    Object[] boxed = {1};
                    System.out.println("invoker " + (boolean) MethodHandles.spreadInvoker(h.type(), 0).invokeExact(h, boxed));
                }
            }
            """;

    @BeforeAll
    static void compile() throws IOException {
        compile("handles", Map.of("Handles", HANDLES));
        Files.createDirectories(WORK);
        compile("natives", Map.of("Natives", NATIVES));
        compile("program", Map.of("Main", PROGRAM));
        compile("indirect", Map.of("Indirect", INDIRECT));
        compile("escape", Map.of("Escape", ESCAPE, "org/openjdk/jmh/infra/Blackhole", BLACKHOLE));
    }

    private static void compile(String dir, Map<String, String> sources) throws IOException {
        Path src = WORK.resolve(dir + "-src");
        List<String> args = new ArrayList<>(List.of("--release", "17", "-d", WORK.resolve(dir).toString()));
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path f = src.resolve(e.getKey() + ".java");
            Files.createDirectories(f.getParent());
            Files.writeString(f, e.getValue());
            args.add(f.toString());
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, err, args.toArray(String[]::new)), err::toString);
    }

    static List<String> javas() {
        return Jdks.forTests().stream().map(j -> j.java().toString()).toList();
    }

    record Result(int status, String out, String err) {}

    private static Result vbd(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(HOME.resolve("bin/vbd").toString()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(WORK, "out-", ".txt");
        Path err = Files.createTempFile(WORK, "err-", ".txt");
        Command.Result r = Command.of(cmd).in(HOME).outputTo(out, err).timeout(Duration.ofMinutes(15)).run();
        if (r.timedOut()) throw new AssertionError("timed out: " + cmd);
        return new Result(r.status(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> report(Path json) throws IOException {
        return (Map<String, Object>) Json.parse(Files.readString(json, StandardCharsets.UTF_8));
    }

    private static long n(Map<String, Object> r, String key) {
        Object v = r.get(key);
        assertTrue(v instanceof Number, key + " missing in " + r.keySet());
        return ((Number) v).longValue();
    }

    @ParameterizedTest
    @MethodSource("javas")
    void runIsSequentiallyConsistentAndPassesTheProgramThrough(String java) throws Exception {
        Path json = WORK.resolve("run-" + Path.of(java).getFileName() + "-" + javas().indexOf(java) + ".json");
        Result r = vbd("verify", "-q", "--json", json.toString(), "--", java, "-cp", WORK.resolve("program").toString(), "Main", "3");
        assertEquals(3, r.status(), "the program's exit status passes through when nonSc = 0\n" + r.out() + r.err());
        assertTrue(r.out().contains("verify-it total=2000 sum=2000 lazy=2000"), r.out());
        assertTrue(r.out().contains("vbd verify: nonSc = 0"), r.out());
        Map<String, Object> rep = report(json);
        assertEquals(0, n(rep, "nonSc"), () -> String.valueOf(rep.get("findings")));
        assertTrue(n(rep, "classes") > 100, "classes: " + rep.get("classes"));
        assertTrue(n(rep, "rewritten") > 100, "rewritten: " + rep.get("rewritten"));
        assertEquals(0, n(rep, "uncovered"), () -> String.valueOf(rep.get("uncoveredClasses")));
        assertTrue(n(rep, "scSites") > 0);
        assertTrue(n(rep, "hidden") > 0, "java.lang.invoke's own hidden classes are left as generated, and listed");
        @SuppressWarnings("unchecked")
        Map<String, Object> agent = (Map<String, Object>) rep.get("agent");
        assertTrue(((Number) agent.get("hiddenRewritten")).longValue() > 0, "the lambda, a hidden class, was rewritten: " + agent);
        assertTrue(rep.get("hiddenClasses").toString().indexOf("Main$$Lambda") < 0, "the lambda is not among the unrewritten: " + rep.get("hiddenClasses"));
        @SuppressWarnings("unchecked")
        Map<String, Object> why = (Map<String, Object>) rep.get("hiddenReasons");
        assertEquals(n(rep, "hidden"), why.values().stream().mapToLong(v -> ((Number) v).longValue()).sum(), "every unrewritten hidden class has its reason");
    }

    /**
     * The classes java.lang.invoke generates with array element accesses (spreaders here) are
     * verified from the bytes defined: fenced, they are SC; left as generated
     * ({@code -Dvbd.generatedArrays=unfenced}), their plain loads are findings.
     */
    @ParameterizedTest
    @MethodSource("javas")
    void generatedArrayAccessesOfMethodHandlesAreVerified(String java) throws Exception {
        String cp = WORK.resolve("handles").toString();
        Path json = WORK.resolve("handles-" + javas().indexOf(java) + ".json");
        Result r = vbd("verify", "-q", "--json", json.toString(), "--", java, "-cp", cp, "Handles");
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("spread true") && r.out().contains("invoker true"), r.out());
        Map<String, Object> rep = report(json);
        assertEquals(0, n(rep, "nonSc"), () -> String.valueOf(rep.get("findings")));
        assertEquals(0, n(rep, "uncovered"), () -> String.valueOf(rep.get("uncoveredClasses")));
        @SuppressWarnings("unchecked")
        Map<String, Object> agent = (Map<String, Object>) rep.get("agent");
        assertTrue(((Number) agent.get("hiddenArraysFenced")).longValue() > 0, "the spreaders' classes were fenced: " + agent);

        Path off = WORK.resolve("handles-unfenced-" + javas().indexOf(java) + ".json");
        Result u = vbd("verify", "-q", "--json", off.toString(), "--", java, "-Dvbd.generatedArrays=unfenced", "-cp", cp, "Handles");
        assertEquals(1, u.status(), "unfenced element accesses fail the run\n" + u.out() + u.err());
        Map<String, Object> unfenced = report(off);
        assertTrue(n(unfenced, "nonSc") > 0, () -> String.valueOf(unfenced.get("findings")));
        String findings = String.valueOf(unfenced.get("findings"));
        assertTrue(findings.contains("java.lang.invoke.LambdaForm$") || findings.contains("java/lang/invoke/LambdaForm$"), findings);
        assertTrue(findings.contains("ARRAY_LOAD"), findings);
    }

    /**
     * Under safe construction the verifier checks constructors alone: every one, the JDK's too, has
     * its release fences, and the program's plain fields and accesses are as compiled (no SC sites).
     */
    @ParameterizedTest
    @MethodSource("javas")
    void safeConstructionFencesEveryConstructorAndNothingElse(String java) throws Exception {
        Path json = WORK.resolve("safe-" + Path.of(java).getFileName() + "-" + javas().indexOf(java) + ".json");
        Result r = vbd("verify", "-q", "--mode", "safe-construction", "--json", json.toString(), "--", java,
                "-cp", WORK.resolve("program").toString(), "Main", "3");
        assertEquals(3, r.status(), "the program's exit status passes through when every constructor is fenced\n" + r.out() + r.err());
        assertTrue(r.out().contains("verify-it total=2000 sum=2000 lazy=2000"), r.out());
        assertTrue(r.out().contains("vbd verify: unsafe constructor points (nonSc) = 0"), r.out());
        Map<String, Object> rep = report(json);
        assertEquals("safe-construction", rep.get("guarantee"));
        assertEquals(0, n(rep, "nonSc"), () -> String.valueOf(rep.get("findings")));
        assertEquals(0, n(rep, "uncovered"), () -> String.valueOf(rep.get("uncoveredClasses")));
        assertTrue(n(rep, "rewritten") > 100, "rewritten: " + rep.get("rewritten"));
        assertTrue(n(rep, "constructionPoints") > 100, "the JDK's constructors are checked too: " + rep.get("constructionPoints"));
        assertEquals(0, n(rep, "scSites"), "safe construction makes no access SC");
    }

    @ParameterizedTest
    @MethodSource("javas")
    void indirectPathsWithoutAFenceAreReported(String java) throws Exception {
        Path json = WORK.resolve("indirect-" + javas().indexOf(java) + ".json");
        String cp = WORK.resolve("indirect").toString();
        Path relaxed = WORK.resolve("indirect.relaxed");
        Files.writeString(relaxed, "method Indirect#relaxedRead\n");
        Result clean = vbd("verify", "-q", "--relaxed", relaxed.toString(), "--", java, "-cp", cp, "Indirect");
        assertEquals(0, clean.status(), "System.arraycopy through a method handle reaches a fenced twin, and relaxed"
                + " code's plain access is no open path\n" + clean.out() + clean.err());
        assertTrue(clean.out().contains("relaxed read 3"), clean.out());
        // a visible change guarantee.md names: the handle's member is vbd's fenced twin
        assertTrue(clean.out().contains("arraycopy handle declared by java.util.concurrent.atomic.VbdRuntime"), clean.out());

        Result r = vbd("verify", "-q", "--json", json.toString(), "--", java, "-cp", cp, "Indirect", "clone");
        assertTrue(r.out().contains("cloned 2") && r.out().contains("element 7") && r.out().contains("plain 3"), r.out() + r.err());
        assertEquals(1, r.status(), "an unfenced path fails the run\n" + r.out());
        Map<String, Object> rep = report(json);
        assertEquals(3, n(rep, "nonSc"), () -> String.valueOf(rep.get("findings")));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> found = (List<Map<String, Object>>) rep.get("findings");
        assertTrue(found.stream().allMatch(f -> f.get("kind").equals("INDIRECT")), found.toString());
        assertTrue(found.stream().anyMatch(f -> String.valueOf(f.get("detail")).startsWith("clone() of an array through a method handle")), found.toString());
        assertTrue(found.stream().anyMatch(f -> String.valueOf(f.get("detail")).startsWith("java.lang.reflect.Array.getInt through a method handle")), found.toString());
        assertTrue(found.stream().anyMatch(f -> String.valueOf(f.get("detail")).startsWith("VarHandle get through a method handle")), found.toString());
    }

    /** A hole guarantee.md names: what native code does to the heap is outside the rewrite; the verifier lists it. */
    @Test
    void nativeMethodsOfTheProgramAreListed() throws Exception {
        Path json = WORK.resolve("native.json");
        Result r = vbd("verify", "-q", "--json", json.toString(), "--", "java", "-cp", WORK.resolve("natives").toString(), "Natives");
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("no library: java.lang.UnsatisfiedLinkError"), r.out());
        assertTrue(r.out().contains("1 native methods of the program"), r.out());
        Map<String, Object> rep = report(json);
        assertEquals(List.of("Natives.poke([I)V"), rep.get("nativeMethods"));
    }

    /** A hole guarantee.md names: JFR re-instruments its event classes after vbd, and their fields end up plain. */
    @Test
    void flightRecorderEventClassesAreReported() throws Exception {
        Path json = WORK.resolve("jfr.json");
        Result r = vbd("verify", "-q", "--json", json.toString(), "--", "java",
                "-XX:StartFlightRecording:filename=" + WORK.resolve("run.jfr"), "-cp", WORK.resolve("program").toString(), "Main", "0");
        assertTrue(r.out().contains("verify-it total=2000"), r.out() + r.err());
        assertEquals(1, r.status(), "the plain event fields fail the run\n" + r.out());
        Map<String, Object> rep = report(json);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> found = (List<Map<String, Object>>) rep.get("findings");
        assertTrue(!found.isEmpty());
        assertTrue(found.stream().allMatch(f -> String.valueOf(f.get("class")).matches("jdk\\.(jfr\\.events|internal\\.event)\\..*")),
                () -> "only JFR's event classes: " + found.stream().map(f -> f.get("class")).distinct().toList());
    }

    @Test
    void aProgramClassNamedAsAHarnessClassIsRewritten() throws Exception {
        Path json = WORK.resolve("escape.json");
        Result r = vbd("verify", "-q", "--json", json.toString(), "--", "java", "-cp", WORK.resolve("escape").toString(), "Escape");
        assertTrue(r.out().contains("escape ran"), r.out() + r.err());
        assertEquals(0, r.status(), "every access SC, so the program's own exit status\n" + r.out() + r.err());
        Map<String, Object> rep = report(json);
        assertEquals(0, n(rep, "nonSc"), () -> String.valueOf(rep.get("findings")));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> uncovered = (List<Map<String, Object>>) rep.get("uncoveredClasses");
        assertTrue(uncovered == null || uncovered.stream().noneMatch(u -> String.valueOf(u.get("class")).contains("Blackhole")),
                () -> "uncovered: " + uncovered);
    }

    @ParameterizedTest
    @MethodSource("javas")
    void preparedJdkIsSequentiallyConsistent(String java) throws Exception {
        Path json = WORK.resolve("jdk-" + javas().indexOf(java) + ".json");
        Result r = vbd("verify", "-q", "--jdk", "--json", json.toString(), "--", java);
        Map<String, Object> rep = report(json);
        assertEquals(0, n(rep, "nonSc"), () -> String.valueOf(rep.get("findings")));
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(n(rep, "classes") > 10000, "classes: " + rep.get("classes"));
        assertEquals(n(rep, "classes") - n(rep, "excluded"), n(rep, "rewritten"));
        assertEquals("jdk", rep.get("mode"));
        assertEquals(0, n(rep, "unpublishedAccesses"), "with volatile fields a constructor's stores are volatile");
    }

    /**
     * The JDK prepared for fenced and speculative programs: its own fields plain in the JVM, every
     * access to them fenced but a constructor's to its own object before the object can leave it.
     */
    @Test
    void preparedJdkWithFencedFieldsIsSequentiallyConsistent() throws Exception {
        Path json = WORK.resolve("jdk-fenced.json");
        Result r = vbd("verify", "-q", "--jdk", "--fields", "fenced", "--json", json.toString(), "--", "java");
        Map<String, Object> rep = report(json);
        assertEquals(0, n(rep, "nonSc"), () -> String.valueOf(rep.get("findings")));
        assertEquals(0, r.status(), r.out() + r.err());
        assertEquals(n(rep, "classes") - n(rep, "excluded"), n(rep, "rewritten"));
        assertTrue(n(rep, "unpublishedAccesses") > 10000, "constructor stores left plain: " + rep.get("unpublishedAccesses"));
    }

    @Test
    void unrewrittenJarIsReportedStatically() throws Exception {
        Path jar = HOME.resolve("vbd-demo/target/vbd-demo.jar");
        Path json = WORK.resolve("jar.json");
        Result r = vbd("verify", "-q", "--jar", jar.toString(), "--json", json.toString());
        Map<String, Object> rep = report(json);
        assertEquals(1, r.status(), "a jar as compiled is not SC\n" + r.out() + r.err());
        assertTrue(n(rep, "nonSc") > 0);
        assertEquals(0, n(rep, "rewritten"));
        assertEquals(n(rep, "classes"), n(rep, "uncovered"));
        assertEquals(0, n(rep, "unresolvedFields"), "JDK field owners resolve against the prepared JDK");
    }

    @Test
    void missingJarIsNamed() throws Exception {
        Result r = vbd("verify", "--jar", WORK.resolve("no-such.jar").toString());
        assertEquals(2, r.status());
        assertTrue(r.err().contains("no-such.jar") && r.err().contains("does not exist"), r.err());
    }
}
