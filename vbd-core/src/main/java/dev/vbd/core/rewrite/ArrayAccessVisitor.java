package dev.vbd.core.rewrite;

import dev.vbd.core.analysis.LocalArrays;
import org.objectweb.asm.MethodVisitor;

import java.util.BitSet;

/**
 * Array elements cannot be declared volatile, so each element access gets the barriers HotSpot
 * puts around a volatile access: a load is followed by an acquire fence; a store is preceded by
 * a release fence and followed by a full fence. The original {@code xaload}/{@code xastore}
 * stays, so NullPointerException, ArrayIndexOutOfBoundsException and ArrayStoreException
 * keep their type, order and message. Accesses to an array no other thread can have seen yet
 * ({@link LocalArrays}) stay plain.
 */
final class ArrayAccessVisitor extends FencingVisitor {
    private static final BitSet NONE = new BitSet();
    /** By position among the method's array accesses: which stay plain. */
    private BitSet unshared = NONE;
    private int ordinal;
    /** Every element access stays plain: the method's arrays are relaxed. */
    private final boolean relaxed;

    ArrayAccessVisitor(MethodVisitor next) {
        this(next, false);
    }

    ArrayAccessVisitor(MethodVisitor next, boolean relaxed) {
        super(next);
        this.relaxed = relaxed;
    }

    /** Set before the method's code is visited. */
    void unshared(BitSet accesses) {
        this.unshared = accesses;
    }

    @Override
    public void visitInsn(int opcode) {
        if (LocalArrays.isArrayLoad(opcode)) {
            boolean plain = unshared.get(ordinal++) || relaxed;
            super.visitInsn(opcode);
            if (!plain) acquire();
        } else if (LocalArrays.isArrayStore(opcode)) {
            if (unshared.get(ordinal++) || relaxed) {
                super.visitInsn(opcode);
            } else {
                release();
                super.visitInsn(opcode);
                full();
            }
        } else {
            super.visitInsn(opcode);
        }
    }
}
