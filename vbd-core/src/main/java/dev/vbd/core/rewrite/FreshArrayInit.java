package dev.vbd.core.rewrite;

import org.objectweb.asm.Opcodes;

/**
 * Recognises stores into an array that has only ever lived on the operand stack since its
 * allocation: no other thread can see such an array, so the store needs no fence. The pattern is
 * javac's array initialiser ({@code newarray}, then {@code dup}, constant index, constant value,
 * {@code xastore}, repeated), which keeps large constant tables in static initialisers inside the
 * JVM's 64 KiB method limit.
 *
 * <p>The rewriter and the verifier both feed it the instruction stream, so that they cannot
 * disagree on which stores are plain. A caller must call {@link #reset()} at least wherever
 * control can arrive from elsewhere (branch targets, exception handlers); resetting more often
 * only makes more stores count as shared, which is always safe.
 */
public final class FreshArrayInit {
    private enum State { NONE, TOP, DUP, INDEX, VALUE }

    private State state = State.NONE;

    /** {@code newarray} or {@code anewarray}: a fresh array is now on top of the stack. */
    public void newArray() { state = State.TOP; }

    /** {@code dup}. */
    public void dup() { state = state == State.TOP ? State.DUP : State.NONE; }

    /** A constant pushed: {@code aconst_null} to {@code dconst_1}, {@code bipush}, {@code sipush}, or {@code ldc} of a number, string or char. */
    public void constant() {
        state = switch (state) {
            case DUP -> State.INDEX;
            case INDEX -> State.VALUE;
            default -> State.NONE;
        };
    }

    /**
     * An {@code xastore}; answers whether it stores into the fresh array (and needs no fence).
     * Either way the tracker moves on: after a fresh store the array is again on top.
     */
    public boolean store() {
        boolean fresh = state == State.VALUE;
        state = fresh ? State.TOP : State.NONE;
        return fresh;
    }

    /** Any other instruction, or a point control may reach from elsewhere. */
    public void reset() { state = State.NONE; }

    /** The single-byte constants the pattern accepts as index or value: {@code aconst_null} to {@code dconst_1}. */
    public static boolean isConstantOpcode(int opcode) {
        return opcode >= Opcodes.ACONST_NULL && opcode <= Opcodes.DCONST_1;
    }

    /** An {@code ldc} operand that is a plain value (not a class, method type, handle or dynamic constant). */
    public static boolean isConstantLdc(Object value) {
        return value instanceof Number || value instanceof String || value instanceof Character;
    }

    /** {@code iaload} to {@code saload}. */
    public static boolean isArrayLoad(int opcode) {
        return opcode >= Opcodes.IALOAD && opcode <= Opcodes.SALOAD;
    }

    /** {@code iastore} to {@code sastore}. */
    public static boolean isArrayStore(int opcode) {
        return opcode >= Opcodes.IASTORE && opcode <= Opcodes.SASTORE;
    }
}
