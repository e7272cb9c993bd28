package dev.vbd.litmus.mp;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;
import sun.misc.Unsafe;

import java.lang.reflect.Field;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Message passing on two int fields through sun.misc.Unsafe plain putInt and getInt: data, then a flag. */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the reader ran entirely before the writer")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the reader's flag load, writer, the reader's data load")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the writer ran before the reader")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "saw the flag but not the data stored before it: not SC")
@State
public class UnsafePlain {
    static final Unsafe U;
    static final long DATA, FLAG;

    static {
        try {
            Field f = Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            U = (Unsafe) f.get(null);
            DATA = U.objectFieldOffset(UnsafePlain.class.getDeclaredField("data"));
            FLAG = U.objectFieldOffset(UnsafePlain.class.getDeclaredField("flag"));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    int data, flag;

    @Actor
    public void writer() {
        U.putInt(this, DATA, 1);
        U.putInt(this, FLAG, 1);
    }

    @Actor
    public void reader(II_Result r) {
        r.r1 = U.getInt(this, FLAG);
        r.r2 = U.getInt(this, DATA);
    }
}
