package dev.vbd.litmus.hole;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * A known hole in vbd's guarantee, not a failure: store buffering on two int fields through the
 * plain modes of VarHandles reached as method handles ({@code toMethodHandle(GET/SET)}). vbd fences
 * direct VarHandle call sites; this path runs the VarHandle's own plain access, with no call site
 * of the program's to fence. The fields themselves are volatile under vbd, and that does not help:
 * plain mode ignores it.
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "0, 0", expect = ACCEPTABLE_INTERESTING,
        desc = "known hole: a plain-mode VarHandle reached through a method handle stays plain")
@State
public class VarHandlePlainIndirect {
    static final MethodHandle SET_X, SET_Y, GET_X, GET_Y;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            VarHandle x = l.findVarHandle(VarHandlePlainIndirect.class, "x", int.class);
            VarHandle y = l.findVarHandle(VarHandlePlainIndirect.class, "y", int.class);
            SET_X = x.toMethodHandle(VarHandle.AccessMode.SET);
            SET_Y = y.toMethodHandle(VarHandle.AccessMode.SET);
            GET_X = x.toMethodHandle(VarHandle.AccessMode.GET);
            GET_Y = y.toMethodHandle(VarHandle.AccessMode.GET);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    int x, y;

    @Actor
    public void actor1(II_Result r) {
        try {
            SET_X.invokeExact(this, 1);
            r.r1 = (int) GET_Y.invokeExact(this);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    @Actor
    public void actor2(II_Result r) {
        try {
            SET_Y.invokeExact(this, 1);
            r.r2 = (int) GET_X.invokeExact(this);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }
}
