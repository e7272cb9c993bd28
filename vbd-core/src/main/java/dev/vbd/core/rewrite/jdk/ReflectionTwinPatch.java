package dev.vbd.core.rewrite.jdk;

import dev.vbd.core.Conventions;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * {@code ReflectionFactory.newMethodAccessor(Method, ...)} (JDK 17 takes the method alone, later
 * JDKs a caller-sensitivity flag too) builds its accessor for
 * {@code VbdRuntime.reflectiveTwin(method)}: reflection invokes native methods without any call
 * site vbd could fence.
 */
final class ReflectionTwinPatch extends EntryPatch {
    static final String OWNER = "jdk/internal/reflect/ReflectionFactory";

    ReflectionTwinPatch(ClassVisitor next) {
        super(next);
    }

    @Override
    boolean patches(String name, String descriptor) {
        return name.equals("newMethodAccessor") && descriptor.startsWith("(Ljava/lang/reflect/Method;");
    }

    @Override
    void emit(MethodVisitor mv) {
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, Conventions.RUNTIME, "reflectiveTwin",
                "(Ljava/lang/reflect/Method;)Ljava/lang/reflect/Method;", false);
        mv.visitVarInsn(Opcodes.ASTORE, 1);
    }

    @Override
    int stack() {
        return 1;
    }
}
