package dev.vbd.core.rewrite.jdk;

import dev.vbd.core.Conventions;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * {@code jdk.internal.reflect.Reflection.filterFields(Class, Field[])}, through which
 * {@code Class.getDeclaredFields} and every reflective field lookup pass, first drops the owner
 * field that speculative fields add: programs, and the serialization they drive, never see it.
 */
final class OwnerFieldFilterPatch extends EntryPatch {
    static final String OWNER = "jdk/internal/reflect/Reflection";

    OwnerFieldFilterPatch(ClassVisitor next) {
        super(next);
    }

    @Override
    boolean patches(String name, String descriptor) {
        return name.equals("filterFields") && descriptor.equals("(Ljava/lang/Class;[Ljava/lang/reflect/Field;)[Ljava/lang/reflect/Field;");
    }

    @Override
    void emit(MethodVisitor mv) {
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, Conventions.SPECULATION, "withoutOwner",
                "([Ljava/lang/reflect/Field;)[Ljava/lang/reflect/Field;", false);
        mv.visitVarInsn(Opcodes.ASTORE, 1);
    }

    @Override
    int stack() {
        return 1;
    }
}
