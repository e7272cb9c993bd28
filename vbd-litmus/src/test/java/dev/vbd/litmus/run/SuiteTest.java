package dev.vbd.litmus.run;

import dev.vbd.litmus.run.Litmus.Suite;
import dev.vbd.litmus.run.Litmus.Suite.Weak;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

class SuiteTest {
    @Test
    void aWeakOutcomeIsRelaxedWhereTheTestRelaxesSomethingAndAHoleOtherwise() {
        assertEquals(Weak.NONE, Suite.weak(dev.vbd.litmus.sb.IntField.class));
        assertEquals(Weak.RELAXED, Suite.weak(dev.vbd.litmus.sb.RelaxedActors.class));
        assertEquals(Weak.RELAXED, Suite.weak(dev.vbd.litmus.mp.RelaxedActors.class));
        assertEquals(Weak.RELAXED, Suite.weak(dev.vbd.litmus.sb.RelaxedFields.class));
        assertEquals(Weak.RELAXED, Suite.weak(dev.vbd.litmus.spin.RelaxedSpin.class));
        assertEquals(Weak.HOLE, Suite.weak(dev.vbd.litmus.hole.ReflectiveFinalSpin.class));
    }

    @Test
    void theGeneratedListHasTheHoleTestAsATerminationTest() {
        List<Suite.Test> tests = Suite.select(Pattern.compile("^dev\\.vbd\\.litmus\\.hole\\.ReflectiveFinalSpin$"), false);
        assertEquals(1, tests.size());
        assertTrue(tests.get(0).termination());
        assertEquals(Weak.HOLE, tests.get(0).weak());
    }

    @Test
    void oversubscriptionRunsTheTestsWithMoreActorsThanCpus() {
        Suite.Test iriw = new Suite.Test("dev.vbd.litmus.iriw.IntField", 4, false, 2, Weak.NONE, false);
        assertFalse(iriw.runnable());
        assertFalse(iriw.oversubscribed());
        Suite.Test over = new Suite.Test("dev.vbd.litmus.iriw.IntField", 4, false, 2, Weak.NONE, true);
        assertTrue(over.runnable());
        assertTrue(over.oversubscribed());
        Suite.Test sb = new Suite.Test("dev.vbd.litmus.sb.IntField", 2, false, 2, Weak.NONE, true);
        assertTrue(sb.runnable());
        assertFalse(sb.oversubscribed());
    }
}
