package dev.vbd.core.rewrite;

import dev.vbd.core.Conventions;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.BitSet;

/**
 * Fences accesses to fields that should be volatile but are plain in the running JVM: the fields
 * of classes rewritten with fenced fields ({@link ClassRewriter#fields}), and those of
 * classes loaded before the agent started, whose modifiers retransformation cannot change. Each
 * access gets the barriers of a volatile access, as an array element does: a load is followed by
 * an acquire fence; a store is preceded by a release fence and followed by a full fence. On
 * 64-bit HotSpot a plain {@code long}/{@code double} field access is one instruction, so it does
 * not tear either. Accesses no other thread can see (a constructor's, on its own object, before
 * the object can have left it) stay plain.
 */
public class FencedFieldVisitor extends FencingVisitor {
    private static final BitSet NONE = new BitSet();
    private final FieldOracle fence;
    /** By position among the method's field instructions (the runtime's own excepted): which stay plain. */
    private BitSet unpublished = NONE;
    private int ordinal;

    /** {@code fence} answers, per field reference, whether this access needs the fences. */
    public FencedFieldVisitor(MethodVisitor next, FieldOracle fence) {
        super(next);
        this.fence = fence;
    }

    /** Set before the method's code is visited. */
    void unpublished(BitSet accesses) {
        this.unpublished = accesses;
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
        if (owner.equals(Conventions.RUNTIME)) {
            // an inline fence placed before this visitor runs, not one of the method's own accesses
            super.visitFieldInsn(opcode, owner, name, descriptor);
            return;
        }
        if (unpublished.get(ordinal++) || !fence.madeVolatile(owner, name, descriptor)) {
            super.visitFieldInsn(opcode, owner, name, descriptor);
        } else {
            fenced(opcode, owner, name, descriptor);
        }
    }

    /** Emits an access that must be sequentially consistent. */
    void fenced(int opcode, String owner, String name, String descriptor) {
        if (opcode == Opcodes.GETFIELD || opcode == Opcodes.GETSTATIC) {
            super.visitFieldInsn(opcode, owner, name, descriptor);
            acquire();
        } else {
            release();
            super.visitFieldInsn(opcode, owner, name, descriptor);
            full();
        }
    }
}
