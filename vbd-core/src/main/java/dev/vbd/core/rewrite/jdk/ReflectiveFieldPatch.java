package dev.vbd.core.rewrite.jdk;

import dev.vbd.core.Conventions;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * {@code ReflectionFactory.newFieldAccessor(Field, boolean)} first shows its field to
 * {@code VbdRuntime.reflectiveField}: a field whose class the JVM defined before vbd's agent stays
 * plain in the JVM, and a reflective accessor to it is recorded for the verifier.
 */
final class ReflectiveFieldPatch extends EntryPatch {
    static final String OWNER = ReflectionTwinPatch.OWNER;

    ReflectiveFieldPatch(ClassVisitor next) {
        super(next);
    }

    @Override
    boolean patches(String name, String descriptor) {
        return name.equals("newFieldAccessor") && descriptor.startsWith("(Ljava/lang/reflect/Field;");
    }

    @Override
    void emit(MethodVisitor mv) {
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, Conventions.RUNTIME, "reflectiveField",
                "(Ljava/lang/reflect/Field;)V", false);
    }

    @Override
    int stack() {
        return 1;
    }
}
