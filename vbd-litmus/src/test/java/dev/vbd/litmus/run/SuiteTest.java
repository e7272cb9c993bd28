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
        List<Suite.Test> tests = Suite.select(Pattern.compile("^dev\\.vbd\\.litmus\\.hole\\.ReflectiveFinalSpin$"), false, false);
        assertEquals(1, tests.size());
        assertTrue(tests.get(0).termination());
        assertEquals(Weak.HOLE, tests.get(0).weak());
    }

    @Test
    void safeConstructionSelectsTheTestsItHoldsToAndStoreBufferingWhichItDoesNot() {
        List<Suite.Test> tests = Suite.select(null, true, false);
        java.util.Map<String, Weak> byName = new java.util.TreeMap<>();
        for (Suite.Test t : tests) byName.put(t.shortName(), t.weak());
        for (String promised : List.of("construction.PlainFields", "construction.ArrayFilled", "construction.NestedObjects",
                "construction.JdkList", "construction.FinalAndPlain", "ctor.LeakedThisPlain", "publication.NonFinalFields")) {
            assertEquals(Weak.NONE, byName.get(promised), promised + " in " + byName);
        }
        assertEquals(Weak.NOT_PROMISED, byName.get("sb.IntField"), byName.toString());
        assertEquals(Weak.NOT_PROMISED, byName.get("sb.IntArray"), byName.toString());
        // final fields leaked before their stores: safe construction promises nothing there, as for final
        assertFalse(byName.containsKey("ctor.LeakedThisFinal"), byName.toString());
        assertFalse(byName.containsKey("mp.IntField"), byName.toString());
        // in SC mode every test is selected and keeps its own classification
        assertEquals(Weak.NONE, Suite.select(Pattern.compile("^dev\\.vbd\\.litmus\\.sb\\.IntField$"), false, false).get(0).weak());
    }

    @Test
    void theTestsLeftOutOfTheOtherFieldModesRaceOnlyOnArrayElementsOrInTheRelaxedLockLibrary() {
        for (String same : List.of("sb.IntArray", "sb.ObjectArray", "sb.BooleanArray", "bulk.FillMethodRef", "bulk.ArraycopyReflect",
                "bulk.CopyOfMethodRef", "locks.MutualExclusion", "locks.FreshLock")) {
            assertTrue(Suite.sameInEveryFieldMode("dev.vbd.litmus." + same), same);
        }
        // a field in the race, a field's access path, or a field made SC by its own mode
        for (String differs : List.of("sb.IntField", "sb.StaticInt", "sb.ReflectedField", "bulk.ArraycopyThenField",
                "mp.IntField", "construction.PlainFields", "speculation.OwnershipTransition")) {
            assertFalse(Suite.sameInEveryFieldMode("dev.vbd.litmus." + differs), differs);
        }
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
