package dev.vbd.core.rewrite;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Fences accesses to fields that should be volatile but are not in the running JVM: the fields of
 * classes loaded before the agent started, whose modifiers retransformation cannot change. Each
 * access gets the barriers of a volatile access, as an array element does: a load is followed by
 * an acquire fence; a store is preceded by a release fence and followed by a full fence. On
 * 64-bit HotSpot a plain {@code long}/{@code double} field access is one instruction, so it does
 * not tear either.
 */
public final class FencedFieldVisitor extends FencingVisitor {
    private final FieldOracle fence;

    /** {@code fence} answers, per field reference, whether this access needs the fences. */
    public FencedFieldVisitor(MethodVisitor next, FieldOracle fence) {
        super(next);
        this.fence = fence;
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
        if (!fence.madeVolatile(owner, name, descriptor)) {
            super.visitFieldInsn(opcode, owner, name, descriptor);
        } else if (opcode == Opcodes.GETFIELD || opcode == Opcodes.GETSTATIC) {
            super.visitFieldInsn(opcode, owner, name, descriptor);
            acquire();
        } else {
            release();
            super.visitFieldInsn(opcode, owner, name, descriptor);
            full();
        }
    }
}
