package dev.vbd.cli;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
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
final class ClassLoaderHook {
    static final String CLASS_FILE = "java/lang/ClassLoader.class";
    static final String NAME = "appendToClassPathForInstrumentation";
    static final String DESC = "(Ljava/lang/String;)V";
    static final String HELPER = "jdk/internal/loader/VbdClassPath";

    private ClassLoaderHook() {}

    static byte[] apply(byte[] classLoader) {
        ClassReader reader = new ClassReader(classLoader);
        boolean[] present = {false};
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                if (name.equals(NAME) && descriptor.equals(DESC)) present[0] = true;
                return null;
            }
        }, ClassReader.SKIP_CODE);
        if (present[0]) return classLoader;
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public void visitEnd() {
                MethodVisitor mv = super.visitMethod(Opcodes.ACC_SYNTHETIC, NAME, DESC, null, null);
                mv.visitCode();
                mv.visitVarInsn(Opcodes.ALOAD, 1);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, HELPER, "append", DESC, false);
                mv.visitInsn(Opcodes.RETURN);
                mv.visitMaxs(1, 2);
                mv.visitEnd();
                super.visitEnd();
            }
        }, 0);
        return writer.toByteArray();
    }
}
