package dev.vbd.core.rewrite.jdk;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Every call of the native {@code ClassLoader.defineClass0}, the JDK's one way to define a hidden
 * class, calls {@code java.lang.VbdHiddenClasses.defineClass0} instead: same arguments, and for
 * hidden classes the class file first passes through vbd's rewriter.
 */
final class HiddenClassDefinePatch extends ClassVisitor {
    static final String DEFINE = "defineClass0";
    static final String DESC = "(Ljava/lang/ClassLoader;Ljava/lang/Class;Ljava/lang/String;[BIILjava/security/ProtectionDomain;ZILjava/lang/Object;)Ljava/lang/Class;";
    static final String HOOK = "java/lang/VbdHiddenClasses";

    HiddenClassDefinePatch(ClassVisitor next) {
        super(Opcodes.ASM9, next);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        return new MethodVisitor(Opcodes.ASM9, super.visitMethod(access, name, descriptor, signature, exceptions)) {
            @Override
            public void visitMethodInsn(int opcode, String owner, String mName, String mDesc, boolean isInterface) {
                if (opcode == Opcodes.INVOKESTATIC && owner.equals("java/lang/ClassLoader")
                        && mName.equals(DEFINE) && mDesc.equals(DESC)) {
                    owner = HOOK;
                }
                super.visitMethodInsn(opcode, owner, mName, mDesc, isInterface);
            }
        };
    }
}
