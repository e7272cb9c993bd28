package dev.vbd.core.rewrite;

/** Answers, for relaxed code, whether vbd made a field volatile (as opposed to the programmer). */
public interface FieldOracle {
    boolean madeVolatile(String owner, String name, String descriptor);
}
