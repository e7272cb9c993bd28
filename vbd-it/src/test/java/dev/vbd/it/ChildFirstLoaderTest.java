package dev.vbd.it;

import dev.vbd.it.support.Jvm;
import dev.vbd.it.support.Jvms;
import dev.vbd.it.support.OnEachJdk;
import dev.vbd.it.support.Outcome;
import dev.vbd.it.support.Program;
import dev.vbd.it.support.Programs;
import dev.vbd.it.support.Reports;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A final field stored after a superclass constructor that published {@code this}, where the
 * loader that defines the subclass links it to a leaking superclass while its resources show a
 * harmless one (program {@code childfirst}): a child-first loader with parent-first resources, and
 * a loader whose resources lie. The leak analysis must judge the superclass the JVM links, so the
 * field loses {@code final} and the loop on it ends, with the image, with the agent and under the
 * verifier. Stock Java may hoist the loop (reported, not asserted).
 */
class ChildFirstLoaderTest {
    static final String WAIT_MILLIS = "3000";
    static final List<String> VARIANTS = List.of("child-first", "lying");

    @OnEachJdk
    void theLoopEndsUnderVbd(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        for (String variant : VARIANTS) ends(run(jvm, variant).vbd(), variant);
    }

    @OnEachJdk
    void theLoopEndsUnderVbdsAgent(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        for (String variant : VARIANTS) ends(run(jvm, variant).agent().vbd(), variant);
    }

    @OnEachJdk
    void theLoopEndsUnderTheVerifierWhichReportsNothing(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        for (String variant : VARIANTS) {
            Outcome o = run(jvm, variant).verify(Programs.target().resolve("childfirst-verify-" + jdk + "-" + variant + ".json"));
            ends(o, variant);
            assertTrue(o.stdout().contains("vbd verify: nonSc = 0"), o::describe);
        }
    }

    /** Stock Java's behaviour, for the report (target/childfirst-report.txt). */
    @OnEachJdk
    void reportStock(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        for (String variant : VARIANTS) report(run(jvm, variant).stock(), variant);
    }

    private static dev.vbd.it.support.Launch run(Jvm jvm, String variant) {
        Path leaky = Programs.compile("childfirst-leaky").classes();
        Path benign = Programs.compile("childfirst-benign").classes();
        Program main = Programs.compile("childfirst");
        return main.on(jvm, variant, leaky.toString(), benign.toString(), WAIT_MILLIS);
    }

    private static void ends(Outcome o, String variant) {
        report(o, variant);
        assertEquals("spin " + variant + " ended", o.requireExit(0).stdout().lines().findFirst().orElse("").strip(),
                () -> "a spin loop on a final field stored after a leaking superclass constructor (" + variant
                        + ") did not see the store under vbd:\n" + o.describe());
    }

    private static void report(Outcome o, String variant) {
        Reports.append("childfirst-report.txt", "while (b.x == 0) {} on a final field B stores after super() published this; "
                + "'still spinning' = " + WAIT_MILLIS + " ms after the store", String.format("%-12s %-12s %s: %s%n",
                variant, o.mode(), o.jvm(), o.stdout().lines().findFirst().orElse("").strip()));
    }
}
