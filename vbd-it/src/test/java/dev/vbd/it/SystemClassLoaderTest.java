package dev.vbd.it;

import dev.vbd.it.support.Jvm;
import dev.vbd.it.support.Jvms;
import dev.vbd.it.support.OnEachJdk;
import dev.vbd.it.support.Outcome;
import dev.vbd.it.support.Program;
import dev.vbd.it.support.Programs;
import dev.vbd.it.support.Reports;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Store buffering in a class the JVM loads before any agent starts: a custom system class loader
 * (programs/sysloader) racing on its own fields. Under vbd the forbidden outcome must never show;
 * under stock Java it is reported (target/sysloader-report.txt).
 */
class SystemClassLoaderTest {
    static final String TRIALS = "200000";
    private static final Pattern LINE = Pattern.compile("SB shape=system-class-loader trials=(\\d+) forbidden=(\\d+) outcomes=(\\S+)");

    @OnEachJdk
    void neverForbiddenUnderVbd(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        Outcome o = program().on(jvm, TRIALS).jvmOptions("-Djava.system.class.loader=SbLoader").vbd();
        Matcher m = parse(o);
        report(o, m);
        assertTrue(Long.parseLong(m.group(1)) >= Long.parseLong(TRIALS), "only " + m.group(1) + " trials");
        assertEquals(0, Long.parseLong(m.group(2)), () -> "r1=0,r2=0 seen " + m.group(2) + " times in " + m.group(1)
                + " trials (" + m.group(3) + ") in a system class loader loaded before vbd's agent, on " + jvm
                + "; sequential consistency forbids it");
    }

    /** What the hardware shows without vbd: reported, not asserted. */
    @OnEachJdk
    void reportStock(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        Outcome o = program().on(jvm, TRIALS).jvmOptions("-Djava.system.class.loader=SbLoader").stock();
        report(o, parse(o));
    }

    private static Program program() {
        return Programs.compile("sysloader");
    }

    private static Matcher parse(Outcome o) {
        Matcher m = LINE.matcher(o.requireExit(0).stdout());
        if (!m.find()) fail("no result line from the sysloader program:\n" + o.describe());
        return m;
    }

    private static void report(Outcome o, Matcher m) {
        Reports.append("sysloader-report.txt",
                "Store buffering in a custom system class loader's own fields: r1=0,r2=0 is forbidden under SC",
                o.mode() + " on " + o.jvm() + ": trials=" + m.group(1) + " forbidden=" + m.group(2) + " outcomes=" + m.group(3) + "\n");
    }
}
