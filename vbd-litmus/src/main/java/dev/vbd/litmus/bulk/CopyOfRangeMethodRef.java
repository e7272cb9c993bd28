package dev.vbd.litmus.bulk;

import java.util.Arrays;
import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * Store buffering on element 0 of two int[]s: each actor stores through the method reference
 * System::arraycopy and loads the other array's element through Arrays.copyOfRange reached by the
 * method reference Arrays::copyOfRange (on x86 only the store side can be reordered past a later load).
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "both loads passed the other thread's store: not SC")
@State
public class CopyOfRangeMethodRef {
    interface Copy {
        void copy(Object src, int srcPos, Object dst, int dstPos, int length);
    }

    interface CopyOfRange {
        int[] copyOfRange(int[] a, int from, int to);
    }

    static final Copy COPY = System::arraycopy;
    static final CopyOfRange COPY_OF_RANGE = Arrays::copyOfRange;
    static final int[] ONE = {1};
    int[] a = new int[1];
    int[] b = new int[1];

    @Actor
    public void actor1(II_Result r) {
        COPY.copy(ONE, 0, a, 0, 1);
        r.r1 = COPY_OF_RANGE.copyOfRange(b, 0, 1)[0];
    }

    @Actor
    public void actor2(II_Result r) {
        COPY.copy(ONE, 0, b, 0, 1);
        r.r2 = COPY_OF_RANGE.copyOfRange(a, 0, 1)[0];
    }
}
