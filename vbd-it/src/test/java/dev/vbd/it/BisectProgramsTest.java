package dev.vbd.it;

import dev.vbd.it.support.Decoys;
import dev.vbd.it.support.Jvm;
import dev.vbd.it.support.Jvms;
import dev.vbd.it.support.OnEachJdk;
import dev.vbd.it.support.Outcome;
import dev.vbd.it.support.Program;
import dev.vbd.it.support.Programs;
import dev.vbd.it.support.Reports;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The programs {@code vbd bisect} is tested on ({@code src/test/programs/bisect}): small
 * memory-model bugs, each hidden among generated decoy fields that other threads touch. Under vbd
 * none of them may fail, except the logic bug, which SC does not repair and which must fail under
 * vbd too. Each bug's culprits are checked the way bisect confirms an answer: with everything but
 * the culprits relaxed it never fails, and with any one culprit relaxed it fails in some run (a
 * hoisted load or store buffering: stock behaviour, which may take a run or two to show). Stock
 * Java's failures are reported, not asserted.
 */
class BisectProgramsTest {
    static final int DECOYS = 1000;
    /** Runs a program must pass in a row; a failure, where it is expected, must show in one of as many. */
    static final int RUNS = 3;
    /** A run ends in about 4 s; one that does not end in this long hangs, which the programs must never do. */
    static final Duration LIMIT = Duration.ofSeconds(30);

    /**
     * The bugs that SC repairs, with their culprits (relaxed config rules) and the rules that
     * relax what else the program shares: the rest of what must then stay SC, besides the decoys.
     */
    static final Map<String, Culprits> SC_BUGS = new LinkedHashMap<>();

    record Culprits(List<String> culprits, List<String> others) {}

    static {
        SC_BUGS.put("stop-flag", new Culprits(List.of("field Worker#stop"), List.of("field Worker#rounds")));
        SC_BUGS.put("dcl", new Culprits(List.of("field Registry#instance"),
                List.of("field Registry#loaded", "field Registry#size", "field Registry#entries")));
        SC_BUGS.put("dekker", new Culprits(List.of("field Door#wantsA", "field Door#wantsB"), List.of()));
        // the writer's stores stay in order without vbd on x86 (TSO, and C2 keeps two int[] stores in order)
        SC_BUGS.put("array-message", new Culprits(List.of("arrays Mailbox#receive"), List.of("arrays Mailbox#send")));
    }

    @OnEachJdk
    void neverFailUnderVbd(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        for (String variant : SC_BUGS.keySet()) {
            for (int run = 1; run <= RUNS; run++) {
                Outcome o = program().on(jvm, variant).timeout(LIMIT).vbd();
                report(o, variant, "");
                if (failed(o, variant)) {
                    fail("'" + variant + "' failed under vbd (run " + run + "), which must repair it:\n" + o.describe());
                }
            }
        }
    }

    @OnEachJdk
    void logicBugFailsUnderVbdToo(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        List<Outcome> passed = new ArrayList<>();
        for (int run = 1; run <= RUNS; run++) {
            Outcome o = program().on(jvm, "logic").timeout(LIMIT).vbd();
            report(o, "logic", "");
            if (failed(o, "logic")) return;
            passed.add(o);
        }
        fail("the lost-update bug never lost an update under vbd in " + RUNS + " runs; the last:\n" + passed.get(passed.size() - 1).describe());
    }

    /** The culprits are enough (everything else relaxed, it passes) and each is needed (it relaxed alone, it fails). */
    @OnEachJdk
    void culpritsAreEnoughAndEachIsNeeded(int jdk) throws IOException {
        Jvm jvm = Jvms.require(jdk);
        for (Map.Entry<String, Culprits> e : SC_BUGS.entrySet()) {
            String variant = e.getKey();
            List<String> everythingElse = new ArrayList<>(e.getValue().others());
            for (String c : Decoys.classNames(DECOYS)) everythingElse.add("class " + c);
            everythingElse.add("class Main");
            Path rest = config(variant + "-all-but-culprits", everythingElse);
            for (int run = 1; run <= RUNS; run++) {
                Outcome o = program().on(jvm, variant).timeout(LIMIT).relaxed(rest).vbd();
                report(o, variant, "all but " + e.getValue().culprits());
                if (failed(o, variant)) {
                    fail("'" + variant + "' failed with only its culprits " + e.getValue().culprits() + " SC (run " + run
                            + "): something else must be SC too:\n" + o.describe());
                }
            }
            for (String culprit : e.getValue().culprits()) {
                Path one = config(variant + "-" + culprit.replaceAll("[^A-Za-z0-9]+", "_"), List.of(culprit));
                if (!failsInSomeRun(jvm, variant, one, culprit)) {
                    fail("'" + variant + "' never failed in " + RUNS + " runs under vbd with '" + culprit
                            + "' relaxed: it is not a culprit (or the bug does not show on this machine)");
                }
            }
        }
    }

    /** Stock Java's behaviour, for the report (target/bisect-report.txt): may fail, must end by itself. */
    @OnEachJdk
    void reportStock(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        for (String variant : List.of("stop-flag", "dcl", "dekker", "array-message", "logic")) {
            Outcome o = program().on(jvm, variant).timeout(LIMIT).stock();
            failed(o, variant);
            report(o, variant, "");
        }
    }

    /** Tests may hide a bug among fewer or more decoys: each count must compile, with that many fields. */
    @Test
    void decoySourcesCompile(@TempDir Path dir) throws IOException {
        Pattern field = Pattern.compile("^    (?:static )?(int|long|Object) ([ilr]\\d+);$", Pattern.MULTILINE);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        for (int count : new int[] {250, 500, 1000, 2000}) {
            String source = Decoys.source(count);
            Matcher m = field.matcher(source);
            int declared = 0;
            while (m.find()) {
                declared++;
                String name = m.group(2);
                assertTrue(source.contains("s += " + name + ";") || source.contains("s += " + name + " >>>")
                                || source.contains(name + " = " + name + " =="),
                        () -> "decoy field " + name + " is never read and written by touch()");
            }
            assertEquals(count, declared, "decoy fields declared in Decoys.source(" + count + ")");
            Path src = dir.resolve(count + "").resolve("Decoys.java");
            Files.createDirectories(src.getParent());
            Files.writeString(src, source, StandardCharsets.UTF_8);
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int status = javac.run(null, null, err, "--release", "17", "-d", dir.resolve(count + "-classes").toString(), src.toString());
            assertEquals(0, status, () -> "Decoys.source(" + count + ") does not compile:\n" + err.toString(StandardCharsets.UTF_8));
        }
    }

    private static boolean failsInSomeRun(Jvm jvm, String variant, Path config, String relaxed) {
        for (int run = 1; run <= RUNS; run++) {
            Outcome o = program().on(jvm, variant).timeout(LIMIT).relaxed(config).vbd();
            report(o, variant, "relaxed " + relaxed);
            if (failed(o, variant)) return true;
        }
        return false;
    }

    /** Whether the run failed as the program fails (exit 1, with a line saying so); anything but that or a pass is a broken program. */
    private static boolean failed(Outcome o, String variant) {
        o.requireCompleted();
        String out = o.stdout().strip();
        if (o.exitStatus() == 0 && out.startsWith(variant + ": ok: ")) return false;
        if (o.exitStatus() == 1 && out.startsWith(variant + ": FAILED: ")) return true;
        throw new AssertionError("the bisect program neither passed nor failed as it should:\n" + o.describe());
    }

    private static Path config(String name, List<String> rules) {
        Path p = Programs.target().resolve("bisect-configs").resolve(name + ".txt");
        try {
            Files.createDirectories(p.getParent());
            Files.writeString(p, String.join("\n", rules) + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + p, e);
        }
        return p;
    }

    private static void report(Outcome o, String variant, String relaxed) {
        Reports.append("bisect-report.txt", "the bisect programs: exit 1 = the bug showed; stock failures are reported, not asserted",
                String.format("%-14s %-16s JDK %-8s %6d ms %s%s%n", variant, o.mode(), o.jvm().version(), o.millis(),
                        o.stdout().strip(), relaxed.isEmpty() ? "" : "   [" + relaxed + "]"));
    }

    private static Program program() {
        return Programs.compile("bisect", Map.of("Decoys.java", Decoys.source(DECOYS)));
    }
}
