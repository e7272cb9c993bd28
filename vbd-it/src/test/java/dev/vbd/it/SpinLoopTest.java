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
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code while (!flag) {}} on a plain field, set by another thread a second later. Stock C2
 * hoists the load and spins forever (reported, not asserted); vbd must end the loop; a loop in
 * a {@code @Relaxed} method must be hoisted again.
 */
class SpinLoopTest {
    /** How long the program waits for its spinner after setting the flag; a volatile loop ends within microseconds of it. */
    static final String WAIT_MILLIS = "3000";
    /**
     * A loop may end only because it had not been C2-compiled yet when the flag changed (a
     * loaded machine delays the compiler thread), so "hoisted" is asserted as: in one of a few runs.
     */
    static final int ATTEMPTS = 3;

    @OnEachJdk
    void endsUnderVbd(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        for (String variant : List.of("static", "instance")) {
            Outcome o = program().on(jvm, variant, WAIT_MILLIS).vbd();
            report(o, variant);
            assertEquals("spin " + variant + " ended", o.requireExit(0).stdout().strip(),
                    () -> "a spin loop on a plain " + variant + " field did not see the flag under vbd:\n" + o.describe());
        }
    }

    @OnEachJdk
    void relaxedLoopIsHoistedAgainUnderVbd(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        for (String variant : List.of("relaxed-static", "relaxed-instance")) {
            if (!spinsInSomeRun(jvm, variant, true)) {
                fail("the spin loop in a @Relaxed method (" + variant + ") always ended under vbd on " + jvm
                        + " in " + ATTEMPTS + " runs: the relaxed method still reads the field as volatile");
            }
        }
    }

    /** Stock Java's behaviour here, for the report (target/spin-report.txt). */
    @OnEachJdk
    void reportStock(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        for (String variant : List.of("static", "instance")) {
            spinsInSomeRun(jvm, variant, false);
        }
    }

    private static boolean spinsInSomeRun(Jvm jvm, String variant, boolean underVbd) {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            var launch = program().on(jvm, variant, WAIT_MILLIS);
            Outcome o = underVbd ? launch.vbd() : launch.stock();
            String out = o.requireExit(0).stdout().strip();
            report(o, variant);
            if (out.equals("spin " + variant + " still spinning")) return true;
            if (!out.equals("spin " + variant + " ended")) {
                throw new AssertionError("unexpected output from the spin program:\n" + o.describe());
            }
        }
        return false;
    }

    private static void report(Outcome o, String variant) {
        Reports.append("spin-report.txt", "while (!flag) {} with the flag set 1 s later by another thread; 'still spinning' = "
                + WAIT_MILLIS + " ms after that", String.format("%-16s %-6s %s: %s%n", variant, o.mode(), o.jvm(), o.stdout().strip()));
    }

    private static Program program() {
        return Programs.compile("spin");
    }
}
