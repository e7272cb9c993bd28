package dev.vbd.litmus.spin;

import org.openjdk.jcstress.annotations.*;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import static org.openjdk.jcstress.annotations.Expect.*;

/** A loop spinning on a VarHandle plain-mode load of a flag that another thread sets. */
@JCStressTest(Mode.Termination)
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the loop saw the store")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "the load was hoisted out of the loop: not SC")
@State
public class VarHandlePlainFlag {
    static final VarHandle STOP;

    static {
        try {
            STOP = MethodHandles.lookup().findVarHandle(VarHandlePlainFlag.class, "stop", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    boolean stop;

    @Actor
    public void spin() {
        while (!(boolean) STOP.get(this)) {
            // empty
        }
    }

    @Signal
    public void signal() {
        STOP.set(this, true);
    }
}
