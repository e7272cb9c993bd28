package dev.vbd.core.rewrite;

import dev.vbd.core.policy.Policy;
import dev.vbd.host.Command;
import dev.vbd.host.Jdks;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Rewritten code runs: the test JVM has no VbdRuntime, so a child JVM gets the runtime patched
 * into java.base (as the launcher does) and runs a rewritten program whose output is known.
 * Every rule fires in it: fenced array loads and stores, bulk fences, renamed weak modes, a
 * final field that lost final, and a relaxed method linked through the plainField bootstrap.
 */
class RunRewrittenTest {
    private static final String PROGRAM = """
            package run;
            import java.lang.invoke.MethodHandles;
            import java.lang.invoke.VarHandle;
            import java.lang.reflect.Modifier;
            import java.util.Arrays;
            import java.util.concurrent.atomic.AtomicInteger;
            public class Main {
                int count;
                static int total;
                int[] data = new int[4];
                private final String name;
                volatile int v;
                static final VarHandle V;
                static {
                    try {
                        V = MethodHandles.lookup().findVarHandle(Main.class, "v", int.class);
                    } catch (ReflectiveOperationException e) {
                        throw new ExceptionInInitializerError(e);
                    }
                }
                Main(String name) { Registry.add(this); this.name = name; }
                @dev.vbd.Relaxed int relaxedSum() {
                    int s = count + total;
                    for (int i = 0; i < data.length; i++) s += data[i];
                    count = s;
                    total = s;
                    return s;
                }
                public static void main(String[] args) throws Exception {
                    Main m = new Main("m");
                    m.count = 2;
                    total = 3;
                    for (int i = 0; i < m.data.length; i++) m.data[i] = i + 1;
                    int[] copy = m.data.clone();
                    System.arraycopy(copy, 0, m.data, 0, 2);
                    Arrays.fill(copy, 9);
                    long[] init = {1L, 2L};
                    AtomicInteger a = new AtomicInteger();
                    a.lazySet(5);
                    V.setRelease(m, 7);
                    int r = m.relaxedSum();
                    System.out.println(r + " " + m.count + " " + total + " " + a.getPlain() + " " + (int) V.getAcquire(m)
                            + " " + copy[3] + " " + init[1] + " " + m.name);
                    System.out.println(Modifier.toString(Main.class.getDeclaredField("count").getModifiers()) + "|"
                            + Modifier.toString(Main.class.getDeclaredField("name").getModifiers()));
                    int[] small = new int[1];
                    try {
                        small[3] = 1;
                    } catch (ArrayIndexOutOfBoundsException e) {
                        System.out.println(e.getMessage());
                    }
                    Object[] strings = new String[1];
                    try {
                        strings[0] = Integer.valueOf(1);
                    } catch (ArrayStoreException e) {
                        System.out.println(e.getMessage());
                    }
                }
            }
            class Registry {
                static java.util.List<Object> all = new java.util.ArrayList<>();
                static void add(Object o) { all.add(o); }
            }
            """;

    static Stream<String> jdks() {
        return Jdks.forTests().stream().map(j -> j.home().toString());
    }

    /** vbd-runtime's classes, built before this module in the reactor. */
    private static Path runtime() {
        Path classes = Path.of("..", "vbd-runtime", "target", "classes", "java", "util", "concurrent", "atomic",
                "VbdRuntime.class");
        Assumptions.assumeTrue(Files.isRegularFile(classes),
                "vbd-runtime is not built (" + classes.toAbsolutePath() + "); build it before vbd-core");
        return Path.of("..", "vbd-runtime", "target", "classes").toAbsolutePath().normalize();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void rewrittenProgramRunsWithTheRuntimePatchedIn(String javaHome, @TempDir Path dir) throws Exception {
        Path runtime = runtime();
        Map<String, byte[]> classes = Bytecode.compile(PROGRAM);
        ClassRewriter rewriter = new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(classes));
        for (Map.Entry<String, byte[]> e : classes.entrySet()) {
            RewriteResult r = rewriter.rewrite(e.getValue());
            assertEquals(RewriteResult.Status.REWRITTEN, r.status(), e.getKey());
            Path out = dir.resolve(e.getKey() + ".class");
            Files.createDirectories(out.getParent());
            Files.write(out, r.bytes());
        }
        String annotations = Path.of(dev.vbd.Relaxed.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
        Command.Result r = Command.of(Path.of(javaHome, "bin", "java").toString(),
                "--patch-module", "java.base=" + runtime,
                "-cp", dir + File.pathSeparator + annotations, "run.Main").timeout(Duration.ofMinutes(2)).run();
        String output = r.output();
        assertFalse(r.timedOut(), "child JVM did not exit");
        assertEquals(0, r.status(), output);
        assertEquals(List.of(
                "15 15 15 5 7 9 2 m",
                "volatile|private volatile",
                "Index 3 out of bounds for length 1",
                "java.lang.Integer"), output.lines().toList(), output);
    }

    /** The same program without the rewrite, to show the expected output is stock Java's. */
    @ParameterizedTest
    @MethodSource("jdks")
    void originalProgramPrintsTheSameValues(String javaHome, @TempDir Path dir) throws IOException, InterruptedException {
        Map<String, byte[]> classes = Bytecode.compile(PROGRAM);
        for (Map.Entry<String, byte[]> e : classes.entrySet()) {
            Path out = dir.resolve(e.getKey() + ".class");
            Files.createDirectories(out.getParent());
            Files.write(out, e.getValue());
        }
        Command.Result r = Command.of(Path.of(javaHome, "bin", "java").toString(), "-cp", dir.toString(), "run.Main")
                .timeout(Duration.ofMinutes(2)).run();
        String output = r.output();
        assertFalse(r.timedOut(), "child JVM did not exit");
        assertEquals(List.of("15 15 15 5 7 9 2 m", "|private final", "Index 3 out of bounds for length 1",
                "java.lang.Integer"), output.lines().toList(), output);
    }
}
