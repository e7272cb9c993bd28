package dev.vbd.it;

import dev.vbd.it.support.Jvm;
import dev.vbd.it.support.Jvms;
import dev.vbd.it.support.OnEachJdk;
import dev.vbd.it.support.Outcome;
import dev.vbd.it.support.StoreBuffering;
import dev.vbd.it.support.StoreBuffering.Count;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.List;
import java.util.Map;

import static dev.vbd.it.support.StoreBuffering.SC_SHAPES;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Store buffering on instance fields, static fields and the elements of all nine array kinds:
 * under vbd the SC-forbidden outcome must never show; under stock Java it is reported, and
 * over all shapes together it must show at least once, or the harness could not catch a
 * regression.
 */
class StoreBufferingTest {
    static final long TRIALS = 1_000_000;
    /**
     * Looking for the forbidden outcome on stock Java, each shape runs until it shows or this
     * many trials have run: on a busy machine the actors rarely get two cores at once.
     */
    static final long SEARCH_TRIALS = 2_000_000;
    static final int STOCK_ATTEMPTS = 2;

    @OnEachJdk
    void neverForbiddenUnderVbd(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        Outcome o = StoreBuffering.program().on(jvm, StoreBuffering.args(TRIALS, SC_SHAPES)).vbd();
        Map<String, Count> counts = StoreBuffering.parse(o, SC_SHAPES);
        StoreBuffering.report("vbd", o, counts);
        assertAll("store buffering under vbd on " + jvm, counts.values().stream().map(c -> (Executable) () -> {
            assertTrue(c.trials() >= TRIALS, c.shape() + ": only " + c.trials() + " trials");
            assertEquals(0, c.forbidden(), () -> c.shape() + ": r1=0,r2=0 seen " + c.forbidden() + " times in "
                    + c.trials() + " trials (" + c.outcomes() + "); sequential consistency forbids it");
        }));
    }

    /** What the hardware shows without vbd: reported in target/sb-report.txt, not asserted per shape. */
    @OnEachJdk
    void reportStock(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        Outcome o = StoreBuffering.program().on(jvm, StoreBuffering.args(TRIALS, SC_SHAPES)).stock();
        Map<String, Count> counts = StoreBuffering.parse(o, SC_SHAPES);
        StoreBuffering.report("stock", o, counts);
        assertAll("the SB program on " + jvm, counts.values().stream().map(c -> (Executable) () ->
                assertTrue(c.trials() >= TRIALS, c.shape() + ": only " + c.trials() + " trials")));
    }

    @Test
    void stockShowsTheForbiddenOutcome() {
        Jvm jvm = Jvms.require(17);
        List<String> shapes = SC_SHAPES.stream().map(s -> StoreBuffering.searching(s, SEARCH_TRIALS)).toList();
        for (int attempt = 1; attempt <= STOCK_ATTEMPTS; attempt++) {
            Outcome o = StoreBuffering.program().on(jvm, StoreBuffering.args(TRIALS, shapes)).stock();
            Map<String, Count> counts = StoreBuffering.parse(o, shapes);
            StoreBuffering.report("stock, harness check attempt " + attempt, o, counts);
            if (StoreBuffering.totalForbidden(counts) > 0) return;
        }
        fail("stock Java showed no r1=0,r2=0 in " + STOCK_ATTEMPTS + " runs of " + SC_SHAPES.size() + " shapes x "
                + SEARCH_TRIALS + " trials on " + jvm + ": the harness does not make the actors race, so its zero under vbd"
                + " proves nothing (see target/sb-report.txt)");
    }
}
