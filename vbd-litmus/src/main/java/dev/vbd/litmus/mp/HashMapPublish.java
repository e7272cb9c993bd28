package dev.vbd.litmus.mp;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.HashMap;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Message passing through a JDK collection: a put into a plain HashMap, then a plain flag. */
@JCStressTest
@Outcome(id = "0, -1", expect = ACCEPTABLE, desc = "the get ran before the put stored its entry")
@Outcome(id = "0, 42", expect = ACCEPTABLE, desc = "the reader's flag load, writer, the reader's get")
@Outcome(id = "1, 42", expect = ACCEPTABLE, desc = "the writer ran before the reader")
@Outcome(id = "1, -1", expect = FORBIDDEN, desc = "saw the flag but not the entry put before it: not SC")
@State
public class HashMapPublish {
    HashMap<Integer, Integer> map = new HashMap<>();
    int flag;

    @Actor
    public void writer() {
        map.put(1, 42);
        flag = 1;
    }

    @Actor
    public void reader(II_Result r) {
        r.r1 = flag;
        Integer v = map.get(1);
        r.r2 = v == null ? -1 : v;
    }
}
