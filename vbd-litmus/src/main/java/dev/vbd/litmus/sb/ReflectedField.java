package dev.vbd.litmus.sb;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import java.lang.reflect.Field;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Store buffering on two plain int fields reached through core reflection ({@code Field.setInt}/{@code getInt}). */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "both loads passed the other thread's store: not SC")
@State
public class ReflectedField {
    private static final Field X, Y;

    static {
        try {
            X = ReflectedField.class.getDeclaredField("x");
            Y = ReflectedField.class.getDeclaredField("y");
        } catch (NoSuchFieldException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    int x, y;

    @Actor
    public void actor1(II_Result r) {
        try {
            X.setInt(this, 1);
            r.r1 = Y.getInt(this);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    @Actor
    public void actor2(II_Result r) {
        try {
            Y.setInt(this, 1);
            r.r2 = X.getInt(this);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }
}
