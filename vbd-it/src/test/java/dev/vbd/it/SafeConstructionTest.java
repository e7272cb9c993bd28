package dev.vbd.it;

import dev.vbd.it.support.Jvm;
import dev.vbd.it.support.Jvms;
import dev.vbd.it.support.OnEachJdk;
import dev.vbd.it.support.Outcome;
import dev.vbd.it.support.Program;
import dev.vbd.it.support.Programs;
import dev.vbd.it.support.StoreBuffering;
import dev.vbd.it.support.StoreBuffering.Count;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code bin/vbd run --mode safe-construction}: programs behave as on stock Java, and the mode is
 * not SC: store buffering on plain fields still shows its weak outcome (the racy publications it
 * does forbid are the litmus suite's, {@code vbd litmus --mode safe-construction}).
 */
class SafeConstructionTest {
    static final String MODE = "safe-construction";
    static final long SEARCH_TRIALS = 2_000_000;
    static final int ATTEMPTS = 2;

    @OnEachJdk
    void programsBehaveAsOnStock(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        for (String name : List.of("collections", "strings", "records", "threads", "exceptions")) {
            Program program = Programs.compile(name);
            Outcome expected = program.on(jvm).stock().requireExit(0);
            Outcome actual = program.on(jvm).mode(MODE).vbd().requireCompleted();
            assertAll("program '" + name + "' under vbd --mode " + MODE + " vs stock on " + jvm,
                    () -> assertEquals(expected.stdout(), actual.stdout(), () -> "stdout differs\n" + actual.describe()),
                    () -> assertEquals(expected.stderr(), actual.stderr(), () -> "stderr differs\n" + actual.describe()),
                    () -> assertEquals(expected.exitStatus(), actual.exitStatus(), () -> "exit status differs\n" + actual.describe()));
        }
    }

    /** The mode leaves plain fields plain: r1 = 0, r2 = 0 shows, as on stock Java, in one of a few runs. */
    @OnEachJdk
    void storeBufferingKeepsItsWeakOutcome(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        List<String> shapes = List.of(StoreBuffering.searching("instance", SEARCH_TRIALS), StoreBuffering.searching("int[]", SEARCH_TRIALS));
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            Outcome o = StoreBuffering.program().on(jvm, StoreBuffering.args(SEARCH_TRIALS, shapes)).mode(MODE).vbd();
            Map<String, Count> counts = StoreBuffering.parse(o, shapes);
            StoreBuffering.report("vbd --mode " + MODE + ", attempt " + attempt, o, counts);
            if (StoreBuffering.totalForbidden(counts) > 0) return;
        }
        fail("store buffering never showed r1=0,r2=0 under --mode " + MODE + " on " + jvm + " in " + ATTEMPTS
                + " runs: the mode made plain fields SC, or the actors did not race (see target/sb-report.txt)");
    }
}
