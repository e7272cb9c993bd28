package dev.vbd.litmus.sb;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;
import sun.misc.Unsafe;

import java.lang.reflect.Field;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Store buffering (Dekker) on two int fields through sun.misc.Unsafe plain putInt and getInt. */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "both loads passed the other thread's store: not SC")
@State
public class UnsafePlain {
    static final Unsafe U;
    static final long X, Y;

    static {
        try {
            Field f = Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            U = (Unsafe) f.get(null);
            X = U.objectFieldOffset(UnsafePlain.class.getDeclaredField("x"));
            Y = U.objectFieldOffset(UnsafePlain.class.getDeclaredField("y"));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    int x, y;

    @Actor
    public void actor1(II_Result r) {
        U.putInt(this, X, 1);
        r.r1 = U.getInt(this, Y);
    }

    @Actor
    public void actor2(II_Result r) {
        U.putInt(this, Y, 1);
        r.r2 = U.getInt(this, X);
    }
}
