package dev.vbd.it;

import dev.vbd.core.verify.Json;
import dev.vbd.it.support.Jvm;
import dev.vbd.it.support.Jvms;
import dev.vbd.it.support.Launch;
import dev.vbd.it.support.OnEachJdk;
import dev.vbd.it.support.Outcome;
import dev.vbd.it.support.Programs;
import dev.vbd.it.support.StoreBuffering;
import dev.vbd.it.support.StoreBuffering.Count;
import org.junit.jupiter.api.function.Executable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Store buffering on the fields of program classes that look like vbd's own: named in vbd's
 * packages ({@code dev.vbd.internal}, {@code dev.vbd.core}), carrying an annotation of the name and
 * kind of vbd's marker, or holding the marker's name as a string constant. vbd knows its own
 * classes by where they come from, and trusts a marker only on the prepared JDK's class files, so
 * each of these is rewritten like any other class: the forbidden outcome must never show, in the
 * runtime image (with its store of rewrites and without), with the agent, and under the verifier,
 * whose report must find every access SC.
 */
class LookalikeClassesTest {
    static final long TRIALS = 200_000;
    static final long VERIFY_TRIALS = 50_000;
    static final List<String> SHAPES = List.of("named-internal", "named-core", "forged-marker", "marker-string");

    @OnEachJdk
    void neverForbiddenInTheRuntimeImage(int jdk) {
        neverForbidden(jdk, "vbd", l -> l);
    }

    /** Without the store every class is parsed afresh on its way in, as with the agent. */
    @OnEachJdk
    void neverForbiddenInTheRuntimeImageWithoutTheStore(int jdk) {
        neverForbidden(jdk, "vbd, -Dvbd.store=off", l -> l.jvmOptions("-Dvbd.store=off"));
    }

    @OnEachJdk
    void neverForbiddenWithTheAgent(int jdk) {
        neverForbidden(jdk, "vbd --agent", Launch::agent);
    }

    @OnEachJdk
    void theVerifierFindsEveryAccessSc(int jdk) throws IOException {
        Jvm jvm = Jvms.require(jdk);
        Path json = Programs.target().resolve("it-runs").resolve("lookalike-verify-jdk" + jdk + ".json");
        Files.createDirectories(json.getParent());
        Files.deleteIfExists(json);
        Outcome o = StoreBuffering.program().on(jvm, StoreBuffering.args(VERIFY_TRIALS, SHAPES)).verify(json);
        Map<String, Count> counts = StoreBuffering.parse(o, SHAPES);
        StoreBuffering.report("vbd verify, classes that look like vbd's own", o, counts);
        @SuppressWarnings("unchecked")
        Map<String, Object> report = (Map<String, Object>) Json.parse(Files.readString(json, StandardCharsets.UTF_8));
        assertEquals(0L, ((Number) report.get("nonSc")).longValue(), () -> "findings: " + report.get("findings"));
        assertForbiddenNever(counts, VERIFY_TRIALS, "vbd verify on " + jvm);
    }

    private static void neverForbidden(int jdk, String what, UnaryOperator<Launch> how) {
        Jvm jvm = Jvms.require(jdk);
        Outcome o = how.apply(StoreBuffering.program().on(jvm, StoreBuffering.args(TRIALS, SHAPES))).vbd();
        Map<String, Count> counts = StoreBuffering.parse(o, SHAPES);
        StoreBuffering.report(what + ", classes that look like vbd's own", o, counts);
        assertForbiddenNever(counts, TRIALS, what + " on " + jvm);
    }

    private static void assertForbiddenNever(Map<String, Count> counts, long trials, String where) {
        assertAll("store buffering under " + where, counts.values().stream().map(c -> (Executable) () -> {
            assertTrue(c.trials() >= trials, c.shape() + ": only " + c.trials() + " trials");
            assertEquals(0, c.forbidden(), () -> c.shape() + ": r1=0,r2=0 seen " + c.forbidden() + " times in "
                    + c.trials() + " trials (" + c.outcomes() + "); sequential consistency forbids it");
        }));
    }
}
