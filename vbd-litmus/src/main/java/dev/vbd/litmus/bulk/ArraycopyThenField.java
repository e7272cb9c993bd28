package dev.vbd.litmus.bulk;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * Store buffering between an array element and a field: actor1 stores element 0 through the method
 * reference System::arraycopy, then loads the field; actor2 stores the field, then loads the element.
 * One unordered store is enough for the forbidden outcome.
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "both loads passed the other thread's store: not SC")
@State
public class ArraycopyThenField {
    interface Copy {
        void copy(Object src, int srcPos, Object dst, int dstPos, int length);
    }

    static final Copy COPY = System::arraycopy;
    static final int[] ONE = {1};
    int[] a = new int[1];
    int y;

    @Actor
    public void actor1(II_Result r) {
        COPY.copy(ONE, 0, a, 0, 1);
        r.r1 = y;
    }

    @Actor
    public void actor2(II_Result r) {
        y = 1;
        r.r2 = a[0];
    }
}
