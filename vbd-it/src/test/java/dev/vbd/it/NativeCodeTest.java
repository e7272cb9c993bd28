package dev.vbd.it;

import dev.vbd.host.Command;
import dev.vbd.it.support.Jvm;
import dev.vbd.it.support.Jvms;
import dev.vbd.it.support.OnEachJdk;
import dev.vbd.it.support.Outcome;
import dev.vbd.it.support.Program;
import dev.vbd.it.support.Programs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two holes guarantee.md names. Memory that native code accesses is outside the rewrite: program
 * {@code jni} runs store buffering on a Java array's elements from a small JNI library (built here
 * with the system's C compiler), and under vbd the forbidden {@code r1 = r2 = 0} still shows. And a
 * class that native code defines (JNI's {@code DefineClass}, and {@code jdk.internal.misc.Unsafe}'s
 * own native) passes none of java.base's define paths: the image's own rewriting never sees it,
 * vbd's agent does.
 */
class NativeCodeTest {
    static final long TRIALS = 400_000;
    /** Runs until the outcome shows: two actors that never overlap (a starved machine) show nothing. */
    static final int ATTEMPTS = 5;
    private static final Pattern LINE = Pattern.compile("SB shape=native trials=(\\d+) forbidden=(\\d+)");

    @OnEachJdk
    void storeBufferingInNativeCodeShowsTheForbiddenOutcomeUnderVbd(int jdk) throws Exception {
        Jvm jvm = Jvms.require(jdk);
        Program p = Programs.compile("jni");
        Path lib = library(jvm);
        long seen = 0;
        StringBuilder runs = new StringBuilder();
        for (int a = 0; a < ATTEMPTS && seen == 0; a++) {
            Outcome o = p.on(jvm, String.valueOf(TRIALS)).jvmOptions("-Djava.library.path=" + lib).vbd().requireExit(0);
            Matcher m = LINE.matcher(o.stdout());
            assertTrue(m.find(), o.describe());
            assertEquals(TRIALS, Long.parseLong(m.group(1)), o.describe());
            seen = Long.parseLong(m.group(2));
            runs.append(o.stdout());
        }
        System.out.println("vbd on " + jvm + ", store buffering in native code:\n" + runs);
        assertTrue(seen > 0, "r1=0,r2=0 never showed in " + ATTEMPTS + " x " + TRIALS
                + " trials of native store buffering under vbd on " + jvm + "; the machine may be starved\n" + runs);
    }

    @OnEachJdk
    void aClassNativeCodeDefinesIsRewrittenOnlyWithTheAgent(int jdk) throws Exception {
        definedPastJavaBase(jdk, "jni-defined");
    }

    /** {@code jdk.internal.misc.Unsafe.defineClass}, for code given its package, defines through its own native. */
    @OnEachJdk
    void aClassUnsafeDefinesIsRewrittenOnlyWithTheAgent(int jdk) throws Exception {
        definedPastJavaBase(jdk, "unsafe-defined");
    }

    private static void definedPastJavaBase(int jdk, String how) throws Exception {
        Jvm jvm = Jvms.require(jdk);
        Program p = Programs.compile("jni");
        Path lib = library(jvm);
        String[] options = {"-Djava.library.path=" + lib, "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"};
        Outcome agent = p.on(jvm, how, String.valueOf(TRIALS)).jvmOptions(options).agent().vbd().requireExit(0);
        assertEquals(0, forbidden(agent, how), () -> "r1=0,r2=0 under vbd's agent on " + jvm
                + "; sequential consistency forbids it\n" + agent.describe());
        long seen = 0;
        StringBuilder runs = new StringBuilder();
        for (int a = 0; a < ATTEMPTS && seen == 0; a++) {
            Outcome o = p.on(jvm, how, String.valueOf(TRIALS)).jvmOptions(options).vbd().requireExit(0);
            seen = forbidden(o, how);
            runs.append(o.stdout());
        }
        System.out.println("vbd on " + jvm + ", store buffering in a class " + how + ":\n" + runs);
        assertTrue(seen > 0, "r1=0,r2=0 never showed in " + ATTEMPTS + " x " + TRIALS
                + " trials on the fields of a class " + how + " under the image on " + jvm
                + "; the machine may be starved\n" + runs);
    }

    private static long forbidden(Outcome o, String how) {
        Matcher m = Pattern.compile("SB shape=" + how + " trials=(\\d+) forbidden=(\\d+)").matcher(o.stdout());
        assertTrue(m.find(), o.describe());
        assertEquals(TRIALS, Long.parseLong(m.group(1)), o.describe());
        return Long.parseLong(m.group(2));
    }

    private static Path built;

    /** The folder of {@code libsbnative.so}, compiled once per test run against the JNI headers of {@code jvm}'s JDK. */
    private static synchronized Path library(Jvm jvm) throws IOException, InterruptedException {
        if (built != null) return built;
        Path dir = Programs.target().resolve("it-programs").resolve("jni-native");
        Path so = dir.resolve("libsbnative.so");
        Files.createDirectories(dir);
        Path include = jvm.launcher().toRealPath().getParent().getParent().resolve("include");
        Path src = Programs.home().resolve("vbd-it/src/test/programs/jni/sbnative.c");
        List<String> cmd = List.of(compiler(), "-O2", "-shared", "-fPIC", "-I" + include, "-I" + include.resolve("linux"),
                "-o", so.toString(), src.toString());
        Path log = dir.resolve("cc.log");
        if (!Command.of(cmd).outputTo(log).timeout(Duration.ofMinutes(2)).run().succeeded()) {
            throw new AssertionError("cannot build the JNI library: " + String.join(" ", cmd) + "\n"
                    + Files.readString(log, StandardCharsets.UTF_8));
        }
        built = dir;
        return dir;
    }

    private static String compiler() {
        for (String cc : List.of("cc", "gcc", "clang", "clang-19")) {
            for (String d : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
                if (Files.isExecutable(Path.of(d, cc))) return cc;
            }
        }
        throw new AssertionError("no C compiler (cc, gcc or clang) on PATH: the native-code test needs one; .ci/run installs gcc");
    }
}
