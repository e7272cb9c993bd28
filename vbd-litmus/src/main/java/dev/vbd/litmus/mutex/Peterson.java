package dev.vbd.litmus.mutex;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Peterson's lock on plain fields: each thread tries once to enter, waits a bounded time, and never leaves. */
@JCStressTest
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "actor1 entered; actor2 waited in vain until its bound")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "actor2 entered; actor1 waited in vain until its bound")
@Outcome(id = "0, 0", expect = ACCEPTABLE,
        desc = "one thread gave up while the other sat between its two stores, whose turn store then shut itself out")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "both entered: mutual exclusion broken, not SC")
@State
public class Peterson {
    // Large enough that a thread gives up only if the other stalls between its two stores.
    static final int BOUND = 1000;

    boolean[] flag = new boolean[2];
    int turn;

    @Actor
    public void actor1(II_Result r) {
        r.r1 = tryLock(0);
    }

    @Actor
    public void actor2(II_Result r) {
        r.r2 = tryLock(1);
    }

    /** 1 if the thread entered the critical section, 0 if it gave up waiting. */
    private int tryLock(int me) {
        int other = 1 - me;
        flag[me] = true;
        turn = other;
        for (int i = 0; i < BOUND; i++) {
            if (!(flag[other] && turn == other)) return 1;
        }
        return 0;
    }
}
