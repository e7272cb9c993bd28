package dev.vbd.core.rewrite.jdk;

import dev.vbd.core.Conventions;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * {@code jdk.internal.misc.Unsafe.objectFieldOffset(Field)} and {@code objectFieldOffset(Class, String)}
 * first tell {@code VbdSpeculation.reflected} which field is asked for: code holding the offset
 * (field updaters, serialization, reflection up to JDK 17, programs using {@code sun.misc.Unsafe})
 * accesses the field without the check of speculative fields, so its hierarchy becomes fenced.
 */
final class FieldOffsetPatch extends ClassVisitor {
    static final String OWNER = "jdk/internal/misc/Unsafe";
    private static final String BY_FIELD = "(Ljava/lang/reflect/Field;)J";
    private static final String BY_NAME = "(Ljava/lang/Class;Ljava/lang/String;)J";

    FieldOffsetPatch(ClassVisitor next) {
        super(Opcodes.ASM9, next);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
        if (!name.equals("objectFieldOffset") || !(descriptor.equals(BY_FIELD) || descriptor.equals(BY_NAME))) return mv;
        boolean byField = descriptor.equals(BY_FIELD);
        return new MethodVisitor(Opcodes.ASM9, mv) {
            @Override
            public void visitCode() {
                super.visitCode();
                mv.visitVarInsn(Opcodes.ALOAD, 1);
                if (!byField) mv.visitVarInsn(Opcodes.ALOAD, 2);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, Conventions.SPECULATION, "reflected",
                        byField ? "(Ljava/lang/reflect/Field;)V" : "(Ljava/lang/Class;Ljava/lang/String;)V", false);
            }

            @Override
            public void visitMaxs(int maxStack, int maxLocals) {
                super.visitMaxs(Math.max(maxStack, 2), maxLocals);
            }
        };
    }
}
