package dev.vbd.core.rewrite.jdk;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Gives {@code java.lang.ClassLoader} a package-private
 * {@code appendToClassPathForInstrumentation(String)} that delegates to
 * {@code jdk.internal.loader.VbdClassPath}.
 *
 * <p>The JVM starts a {@code -javaagent} by appending its jar to the system class loader's search
 * path; when the system class loader is a custom one ({@code -Djava.system.class.loader}), it calls
 * that method on it, looked up from the loader's own class upwards, and aborts the JVM ("processing
 * of -javaagent failed") when no class in the chain defines it. A loader that defines its own still
 * gets its own: the lookup finds it first, and a package-private method in {@code java.lang}
 * overrides nothing in another package.
 */
final class ClassLoaderAppendPatch extends ClassVisitor {
    static final String OWNER = "java/lang/ClassLoader";
    static final String NAME = "appendToClassPathForInstrumentation";
    static final String DESC = "(Ljava/lang/String;)V";
    static final String HELPER = "jdk/internal/loader/VbdClassPath";

    private boolean present;

    ClassLoaderAppendPatch(ClassVisitor next) {
        super(Opcodes.ASM9, next);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        if (name.equals(NAME) && descriptor.equals(DESC)) present = true;
        return super.visitMethod(access, name, descriptor, signature, exceptions);
    }

    @Override
    public void visitEnd() {
        if (!present) {
            MethodVisitor mv = super.visitMethod(Opcodes.ACC_SYNTHETIC, NAME, DESC, null, null);
            mv.visitCode();
            mv.visitVarInsn(Opcodes.ALOAD, 1);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, HELPER, "append", DESC, false);
            mv.visitInsn(Opcodes.RETURN);
            mv.visitMaxs(1, 2);
            mv.visitEnd();
        }
        super.visitEnd();
    }
}
