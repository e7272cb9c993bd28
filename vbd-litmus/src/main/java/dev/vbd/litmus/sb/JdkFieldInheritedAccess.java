package dev.vbd.litmus.sb;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.AbstractList;

import static org.openjdk.jcstress.annotations.Expect.*;

/**
 * Store buffering on a field a JDK class declares and a program class inherits
 * ({@code AbstractList}'s protected {@code modCount}), named through the program class: the
 * program's rewriter finds it in the JDK's superclass, and with fenced JDK fields learns from the
 * prepared JDK's table of fenced fields that it needs fences.
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor1 ran entirely before actor2")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor2 ran entirely before actor1")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both stores ran before both loads")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "both loads passed the other thread's store: not SC")
@State
public class JdkFieldInheritedAccess {
    static final class Counted extends AbstractList<Object> {
        @Override
        public Object get(int index) {
            throw new IndexOutOfBoundsException(index);
        }

        @Override
        public int size() {
            return 0;
        }

        void changed() {
            modCount = 1;
        }

        int changes() {
            return modCount;
        }
    }

    final Counted a = new Counted(), b = new Counted();

    @Actor
    public void actor1(II_Result r) {
        a.changed();
        r.r1 = b.changes();
    }

    @Actor
    public void actor2(II_Result r) {
        b.changed();
        r.r2 = a.changes();
    }
}
