package dev.vbd.it;

import dev.vbd.it.support.Jvm;
import dev.vbd.it.support.Jvms;
import dev.vbd.it.support.OnEachJdk;
import dev.vbd.it.support.Outcome;
import dev.vbd.it.support.Program;
import dev.vbd.it.support.Programs;
import dev.vbd.it.support.Reports;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Spin loops whose read of the shared array element is compiled by {@code java.lang.invoke} into
 * a class of its own: a spreader, a spread invoker and an array element getter (programs/handlespin).
 * Stock C2 inlines the handle and hoists the plain load, and the loop never ends (reported, not
 * asserted); under vbd, through the image's define path and through the agent, it must end.
 */
class HandleSpinLoopTest {
    static final List<String> VARIANTS = List.of("spreader", "spread-invoker", "element-getter");

    @OnEachJdk
    void endsUnderVbd(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        for (String variant : VARIANTS) {
            Outcome o = program().on(jvm, variant, SpinLoopTest.WAIT_MILLIS).vbd();
            report(o, variant);
            assertEnded(o, variant);
        }
    }

    @OnEachJdk
    void endsUnderVbdsAgent(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        for (String variant : VARIANTS) {
            Outcome o = program().on(jvm, variant, SpinLoopTest.WAIT_MILLIS).agent().vbd();
            report(o, variant);
            assertEnded(o, variant);
        }
    }

    /** Stock Java's behaviour here, for the report (target/handlespin-report.txt). */
    @OnEachJdk
    void reportStock(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        for (String variant : VARIANTS) {
            Outcome o = program().on(jvm, variant, SpinLoopTest.WAIT_MILLIS).stock();
            String out = o.requireExit(0).stdout().strip();
            report(o, variant);
            if (!out.equals("handlespin " + variant + " ended") && !out.equals("handlespin " + variant + " still spinning")) {
                throw new AssertionError("unexpected output from the handlespin program:\n" + o.describe());
            }
        }
    }

    private static void assertEnded(Outcome o, String variant) {
        assertEquals("handlespin " + variant + " ended", o.requireExit(0).stdout().strip(),
                () -> "a spin loop through a method handle (" + variant + ") did not see the element under vbd:\n" + o.describe());
    }

    private static void report(Outcome o, String variant) {
        Reports.append("handlespin-report.txt", "while (!handle(array)) {} with the element set 1 s later by another thread;"
                + " 'still spinning' = " + SpinLoopTest.WAIT_MILLIS + " ms after that",
                String.format("%-16s %-12s %s: %s%n", variant, o.mode(), o.jvm(), o.stdout().strip()));
    }

    private static Program program() {
        return Programs.compile("handlespin");
    }
}
