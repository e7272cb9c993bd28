package dev.vbd.core.rewrite;

import dev.vbd.core.Conventions;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Opcodes;

/** Declares the owner field of speculative fields, in the topmost program class of a hierarchy. */
final class OwnerFieldVisitor extends ClassVisitor {
    OwnerFieldVisitor(ClassVisitor next) {
        super(Opcodes.ASM9, next);
    }

    @Override
    public void visitEnd() {
        // private transient: neither serialization nor the default serialVersionUID sees it
        super.visitField(Opcodes.ACC_PRIVATE | Opcodes.ACC_TRANSIENT | Opcodes.ACC_SYNTHETIC,
                Conventions.OWNER_FIELD, Conventions.OWNER_FIELD_DESC, null, null).visitEnd();
        super.visitEnd();
    }
}
