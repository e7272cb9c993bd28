package dev.vbd.apps;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.vbd.host.Command;
import dev.vbd.host.Jdks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Runs the workloads in their own JVMs, stock or through bin/vbd, as the tests need them. */
final class Launcher {

    /** The JDKs the tests run on (see {@link Jdks#forTests()}); a JDK missing on this machine is skipped, not failed. */
    static final Path JDK17 = launcher(17);
    static final Path JDK25 = launcher(25);

    /** The {@code java} of the JDK to test on of this release; where there is none, a path that is not executable. */
    private static Path launcher(int feature) {
        return Jdks.forTests(feature).map(Jdks.Jdk::java).orElse(Path.of("no-jdk-" + feature, "bin", "java"));
    }

    record Result(int exitCode, String stdout, String stderr, long millis) {
        String describe() {
            return "exit " + exitCode + " after " + millis + " ms\n--- stdout ---\n" + stdout
                    + "\n--- stderr (last 4000 chars) ---\n" + stderr.substring(Math.max(0, stderr.length() - 4000));
        }
    }

    static Path repo() {
        return Path.of(required("vbd.home"));
    }

    static Path work() throws IOException {
        Path w = Path.of(required("vbd.apps.work"));
        Files.createDirectories(w);
        return w;
    }

    private static String required(String property) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            throw new IllegalStateException("system property " + property + " is not set (the module's surefire"
                    + " configuration sets it; run the tests through Maven)");
        }
        return v;
    }

    static Path classes() {
        return Path.of(required("vbd.apps.classes"));
    }

    static Path lib() {
        return Path.of(required("vbd.apps.lib"));
    }

    static String classpath() {
        return App.classpath(Path.of(required("vbd.apps.classes")), Path.of(required("vbd.apps.lib")));
    }

    /** {@code java ...} for the workload: the JDK's launcher, then the workload's java arguments. */
    static List<String> javaCommand(App app, Path java, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java.toString());
        cmd.addAll(app.javaArgs(classpath(), List.of(args)));
        return cmd;
    }

    /** {@code bin/vbd SUBCOMMAND [options] -- java ...}. */
    static List<String> vbdCommand(String subcommand, List<String> options, List<String> javaCommand) {
        List<String> cmd = new ArrayList<>();
        cmd.add(repo().resolve("bin/vbd").toString());
        cmd.add(subcommand);
        cmd.addAll(options);
        cmd.add("--");
        cmd.addAll(javaCommand);
        return cmd;
    }

    static Result run(App app, List<String> command, long timeoutSeconds, String label) throws Exception {
        return run(app.environment, command, timeoutSeconds, label);
    }

    static Result run(Map<String, String> environment, List<String> command, long timeoutSeconds, String label) throws Exception {
        Path dir = work();
        Path out = dir.resolve(label + ".out");
        Path err = dir.resolve(label + ".err");
        Command.Result run = Command.of(command).in(dir).environment(environment).outputTo(out, err)
                .timeout(Duration.ofSeconds(timeoutSeconds)).run();
        if (run.timedOut()) {
            fail(label + ": no exit within " + timeoutSeconds + " s: " + String.join(" ", command)
                    + "\n--- stderr ---\n" + Files.readString(err, StandardCharsets.UTF_8));
        }
        long millis = run.elapsed().toMillis();
        Result r = new Result(run.status(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8), millis);
        System.out.println("[vbd-apps] " + label + ": exit " + r.exitCode() + " in " + millis + " ms");
        return r;
    }

    /** Exit status 0 and the workload's closing line: the run checked its own answer. */
    static void assertChecked(App app, Result r, String what) {
        assertTrue(r.exitCode() == 0 && r.stdout().endsWith(app.id() + ": OK\n"),
                what + " should exit 0 after its self-check:\n" + r.describe());
    }
}
