package dev.vbd.litmus.hole;

import org.openjdk.jcstress.annotations.*;

import java.lang.reflect.Field;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * A known hole in vbd's guarantee, not a failure: a loop spins on a final instance field that another
 * thread sets through reflection after construction. vbd leaves final fields final when no
 * constructor leaks this (it keeps them cheap, and the JMM gives finals no ordering after
 * construction), so the JIT may hoist the load out of the loop under vbd as under stock Java.
 */
@JCStressTest(Mode.Termination)
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the loop saw the store")
@Outcome(id = "STALE", expect = ACCEPTABLE_INTERESTING,
        desc = "known hole: a final field changed by reflection stays a plain final field, the load may be hoisted")
@State
public class ReflectiveFinalSpin {
    static final Field STOP;

    static {
        try {
            STOP = ReflectiveFinalSpin.class.getDeclaredField("stop");
            STOP.setAccessible(true);
        } catch (NoSuchFieldException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // set in the constructor rather than by an initializer: a constant initializer would let javac fold the loads
    final boolean stop;

    public ReflectiveFinalSpin() {
        stop = false;
    }

    @Actor
    public void spin() {
        while (!stop) {
            // empty
        }
    }

    @Signal
    public void signal() {
        try {
            STOP.setBoolean(this, true);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }
}
