package dev.vbd.litmus.dcl;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Double-checked locking on a plain lazy field: both threads get the instance and read a field its constructor set. */
@JCStressTest
@Outcome(id = "42, 42", expect = ACCEPTABLE, desc = "whichever thread created the instance, both saw it constructed")
@Outcome(id = {"0, 42", "42, 0", "0, 0"}, expect = FORBIDDEN,
        desc = "the unlocked check saw the instance but not its constructor's store: not SC")
@State
public class DoubleCheckedLocking {
    /** The lazily created instance; its field is deliberately neither final nor volatile. */
    static class Singleton {
        int value;

        Singleton() {
            value = 42;
        }
    }

    Singleton instance;

    // One load of the field per check, into a local: a second racy load could see null again
    // under the Java Memory Model, which would fail this test for another reason.
    Singleton getInstance() {
        Singleton s = instance;
        if (s == null) {
            synchronized (this) {
                s = instance;
                if (s == null) {
                    s = new Singleton();
                    instance = s;
                }
            }
        }
        return s;
    }

    @Actor
    public void actor1(II_Result r) {
        r.r1 = getInstance().value;
    }

    @Actor
    public void actor2(II_Result r) {
        r.r2 = getInstance().value;
    }
}
