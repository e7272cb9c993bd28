package dev.vbd.litmus.lb;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Load buffering on two int fields through VarHandle opaque mode (getOpaque, setOpaque). */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "both loads ran before both stores")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "each load saw a store that comes after the other load: not SC")
@State
public class VarHandleOpaque {
    static final VarHandle X, Y;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            X = l.findVarHandle(VarHandleOpaque.class, "x", int.class);
            Y = l.findVarHandle(VarHandleOpaque.class, "y", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    int x, y;

    @Actor
    public void actor1(II_Result r) {
        r.r1 = (int) X.getOpaque(this);
        Y.setOpaque(this, 1);
    }

    @Actor
    public void actor2(II_Result r) {
        r.r2 = (int) Y.getOpaque(this);
        X.setOpaque(this, 1);
    }
}
