package dev.vbd.litmus.bulk;

import java.util.function.UnaryOperator;
import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * Store buffering on element 0 of two int[]s: each actor stores through the method reference
 * System::arraycopy and loads the other array's element from a clone made through the method
 * reference int[]::clone (on x86 only the store side can be reordered past a later load). javac
 * compiles a method reference to an array clone into a lambda method of the test class, so the
 * clone call itself is a call site of the test, and a fence vbd places before it also orders the
 * store: the test checks that path stays ordered rather than showing a hole of its own.
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "both loads passed the other thread's store: not SC")
@State
public class CloneMethodRef {
    interface Copy {
        void copy(Object src, int srcPos, Object dst, int dstPos, int length);
    }

    static final Copy COPY = System::arraycopy;
    static final UnaryOperator<int[]> CLONE = int[]::clone;
    static final int[] ONE = {1};
    int[] a = new int[1];
    int[] b = new int[1];

    @Actor
    public void actor1(II_Result r) {
        COPY.copy(ONE, 0, a, 0, 1);
        r.r1 = CLONE.apply(b)[0];
    }

    @Actor
    public void actor2(II_Result r) {
        COPY.copy(ONE, 0, b, 0, 1);
        r.r2 = CLONE.apply(a)[0];
    }
}
