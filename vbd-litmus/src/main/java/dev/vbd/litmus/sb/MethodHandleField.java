package dev.vbd.litmus.sb;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Store buffering on two plain int fields reached through method handles ({@code findSetter}/{@code findGetter}). */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "both loads passed the other thread's store: not SC")
@State
public class MethodHandleField {
    private static final MethodHandle SET_X, SET_Y, GET_X, GET_Y;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SET_X = l.findSetter(MethodHandleField.class, "x", int.class);
            SET_Y = l.findSetter(MethodHandleField.class, "y", int.class);
            GET_X = l.findGetter(MethodHandleField.class, "x", int.class);
            GET_Y = l.findGetter(MethodHandleField.class, "y", int.class);
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
