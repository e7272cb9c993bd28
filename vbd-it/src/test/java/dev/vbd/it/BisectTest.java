package dev.vbd.it;

import dev.vbd.core.verify.Json;
import dev.vbd.host.Command;
import dev.vbd.it.support.Decoys;
import dev.vbd.it.support.Jvm;
import dev.vbd.it.support.Jvms;
import dev.vbd.it.support.OnEachJdk;
import dev.vbd.it.support.Program;
import dev.vbd.it.support.Programs;
import dev.vbd.it.support.Reports;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code vbd bisect} on planted bugs (the {@code bisect} test program), each among 1,000 decoy
 * fields that three threads read and write: it must name exactly the culprits, and for a logic bug
 * that SC does not repair, say so and name nothing.
 */
class BisectTest {
    static final int DECOYS = 1000;
    /** Runs per trial: the planted bugs fail in nearly every run on stock Java. */
    static final String REPEAT = "3";

    private static Program program() {
        return Programs.compile("bisect", Map.of("Decoys.java", Decoys.source(DECOYS)));
    }

    record Bisected(int status, String out, String err, Map<?, ?> json) {
        String describe() {
            return "exit status " + status + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }

        Set<String> culprits() {
            Set<String> rules = new TreeSet<>();
            for (Object c : (List<?>) json.get("culprits")) rules.add((String) ((Map<?, ?>) c).get("rule"));
            return rules;
        }
    }

    private static Bisected bisect(Jvm jvm, String variant, String... more) throws Exception {
        Program p = program();
        Path json = Files.createTempFile(Programs.target(), "bisect-" + variant + "-", ".json");
        List<String> cmd = new ArrayList<>(List.of(Programs.home().resolve("bin/vbd").toString(), "bisect",
                "--repeat", REPEAT, "--json", json.toString()));
        int dashes = List.of(more).indexOf("--");
        cmd.addAll(List.of(more).subList(0, Math.max(0, dashes)));
        cmd.addAll(List.of("--", jvm.launcher().toString(), "-cp", p.classPath(), "Main", variant));
        cmd.addAll(List.of(more).subList(dashes + 1, more.length));
        Path out = Files.createTempFile(Programs.target(), "bisect-" + variant + "-", ".out");
        Path err = Files.createTempFile(Programs.target(), "bisect-" + variant + "-", ".err");
        Command.Result r = Command.of(cmd).outputTo(out, err).timeout(Duration.ofMinutes(20)).run();
        assertFalse(r.timedOut(), "vbd bisect finished within 20 minutes: " + cmd);
        Bisected b = new Bisected(r.status(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8),
                Files.size(json) == 0 ? Map.of() : (Map<?, ?>) Json.parse(Files.readString(json, StandardCharsets.UTF_8)));
        Reports.append("bisect-report.txt", "vbd bisect on planted bugs among " + DECOYS + " decoy fields, --repeat " + REPEAT,
                String.format("%-14s %s %s: %s, %s trials, %s runs, %s s%n", variant, String.join(" ", more), jvm, b.json.get("verdict"),
                        b.json.get("trials"), b.json.get("runs"), b.json.get("seconds")));
        return b;
    }

    private static void assertFound(Jvm jvm, String variant, Set<String> culprits, String... more) throws Exception {
        Bisected b = bisect(jvm, variant, more);
        assertEquals("found", b.json.get("verdict"), b::describe);
        assertEquals(0, b.status, b::describe);
        assertEquals(culprits, b.culprits(), b::describe);
        Map<?, ?> candidates = (Map<?, ?>) b.json.get("candidates");
        assertTrue(((Number) candidates.get("fields")).intValue() >= DECOYS, "the decoys are candidates: " + candidates);
        for (String c : culprits) {
            String name = c.substring(c.indexOf(' ') + 1).replace('#', '.');
            assertTrue(b.out.contains(name.endsWith("receive") ? "Mailbox.receive()" : name), "the answer names " + name + ":\n" + b.out);
        }
    }

    @OnEachJdk
    void aStopFlagTheJitHoisted(int jdk) throws Exception {
        assertFound(Jvms.require(jdk), "stop-flag", Set.of("field Worker#stop"));
    }

    @OnEachJdk
    void doubleCheckedLockingWithoutVolatile(int jdk) throws Exception {
        assertFound(Jvms.require(jdk), "dcl", Set.of("field Registry#instance"));
    }

    @OnEachJdk
    void dekkersMutualExclusionOnPlainFlags(int jdk) throws Exception {
        assertFound(Jvms.require(jdk), "dekker", Set.of("field Door#wantsA", "field Door#wantsB"));
    }

    @OnEachJdk
    void aMessagePassedThroughAPlainArrayElement(int jdk) throws Exception {
        assertFound(Jvms.require(jdk), "array-message", Set.of("arrays Mailbox#receive"));
    }

    /** A failure that shows only as a line of output, exit status 0: {@code --fail-regex} tells it. */
    @Test
    void aFailureTheOutputShows() throws Exception {
        Jvm jvm = Jvms.require(17);
        Bisected unseen = bisect(jvm, "stop-flag", "--", "print");
        assertEquals("not-reproduced", unseen.json.get("verdict"), unseen::describe);
        assertTrue(unseen.out.contains("the failure did not show in " + REPEAT + " runs with every candidate relaxed"), unseen::describe);
        assertFound(jvm, "stop-flag", Set.of("field Worker#stop"), "--fail-regex", ": FAILED: ", "--", "print");
    }

    /** A failure that shows as a program that never ends: {@code --timeout} tells it. */
    @Test
    void aFailureThatNeverEnds() throws Exception {
        assertFound(Jvms.require(17), "stop-flag", Set.of("field Worker#stop"), "--timeout", "6", "--", "hang");
    }

    @OnEachJdk
    void aLogicBugThatScDoesNotRepairIsSaidSoAndNothingIsNamed(int jdk) throws Exception {
        Bisected b = bisect(Jvms.require(jdk), "logic");
        assertEquals("not-vanished", b.json.get("verdict"), b::describe);
        assertEquals(1, b.status, b::describe);
        assertTrue(b.out.contains("the failure shows under vbd too"), b::describe);
        assertTrue(b.out.contains("no missing volatile explains it"), b::describe);
        assertEquals(null, b.json.get("culprits"), b::describe);
    }
}
