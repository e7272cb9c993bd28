package dev.vbd.litmus.construction;

import dev.vbd.litmus.ConstructionGuarantee;
import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.ArrayList;
import java.util.List;

import static org.openjdk.jcstress.annotations.Expect.*;

/** A JDK object, an ArrayList copied from another list by its constructor, published through a plain field. */
@JCStressTest
@ConstructionGuarantee
@Outcome(id = "-1, -1", expect = ACCEPTABLE, desc = "the reader ran first")
@Outcome(id = "2, 20", expect = ACCEPTABLE, desc = "the list, whole")
@Outcome(expect = FORBIDDEN, desc = "saw the list but not all of what its constructor stored (size, array or element)")
@State
public class JdkList {
    static final List<Integer> SOURCE = List.of(10, 20);

    ArrayList<Integer> shared;

    @Actor
    public void writer() {
        shared = new ArrayList<>(SOURCE);
    }

    @Actor
    public void reader(II_Result r) {
        ArrayList<Integer> l = shared;
        if (l == null) {
            r.r1 = r.r2 = -1;
        } else {
            r.r1 = l.size();
            try {
                Integer second = l.get(1);
                r.r2 = second == null ? 0 : second;
            } catch (RuntimeException e) {
                r.r2 = -2; // the size not yet seen, or its array not yet seen
            }
        }
    }
}
