package dev.vbd.litmus.mp;

import org.openjdk.jcstress.annotations.*;
import org.openjdk.jcstress.infra.results.II_Result;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import static org.openjdk.jcstress.annotations.Expect.*;

/** Message passing on two int fields through VarHandle plain mode (set, get): data, then a flag. */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the reader ran entirely before the writer")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the reader's flag load, writer, the reader's data load")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the writer ran before the reader")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "saw the flag but not the data stored before it: not SC")
@State
public class VarHandlePlain {
    static final VarHandle DATA, FLAG;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            DATA = l.findVarHandle(VarHandlePlain.class, "data", int.class);
            FLAG = l.findVarHandle(VarHandlePlain.class, "flag", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    int data, flag;

    @Actor
    public void writer() {
        DATA.set(this, 1);
        FLAG.set(this, 1);
    }

    @Actor
    public void reader(II_Result r) {
        r.r1 = (int) FLAG.get(this);
        r.r2 = (int) DATA.get(this);
    }
}
