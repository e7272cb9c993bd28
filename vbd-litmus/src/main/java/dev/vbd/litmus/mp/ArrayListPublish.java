package dev.vbd.litmus.mp;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.ArrayList;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Message passing through a JDK collection: a new object added to a plain ArrayList, read by size, then get. */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the size load ran before the add completed")
@Outcome(id = "1, 42", expect = ACCEPTABLE, desc = "the add ran before the size load")
@Outcome(id = "1, -1", expect = FORBIDDEN, desc = "saw the new size but not the element stored before it: not SC")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "saw the element but not the value its constructor stored: not SC")
@State
public class ArrayListPublish {
    /** The element; its field is deliberately neither final nor volatile. */
    static class Box {
        int v;

        Box(int v) {
            this.v = v;
        }
    }

    ArrayList<Box> list = new ArrayList<>();

    @Actor
    public void writer() {
        list.add(new Box(42));
    }

    @Actor
    public void reader(II_Result r) {
        int size = list.size();
        r.r1 = size;
        if (size > 0) {
            Box b = list.get(0);
            r.r2 = b == null ? -1 : b.v;
        }
    }
}
