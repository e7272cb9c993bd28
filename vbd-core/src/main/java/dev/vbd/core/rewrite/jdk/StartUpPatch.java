package dev.vbd.core.rewrite.jdk;

import dev.vbd.core.Conventions;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The end of {@code System.initPhase3}, the JVM's last step of start-up before the program's main
 * class loads, asks {@code VbdRuntime.rewritesDefinedClasses()}. In a prepared runtime image that
 * starts vbd's own rewriting there, whether or not the program then defines any class through
 * java.base (a main class on the boot class path, or classes from an application class data
 * sharing archive, define none): the program's hidden classes are rewritten from the first, and a
 * command line the image must refuse is refused before the program runs.
 */
final class StartUpPatch extends ClassVisitor {
    static final String OWNER = "java/lang/System";
    static final String METHOD = "initPhase3";
    static final String ASK = "rewritesDefinedClasses";

    StartUpPatch(ClassVisitor next) {
        super(Opcodes.ASM9, next);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
        if (!name.equals(METHOD) || !descriptor.equals("()V")) return mv;
        return new MethodVisitor(Opcodes.ASM9, mv) {
            @Override
            public void visitInsn(int opcode) {
                if (opcode == Opcodes.RETURN) {
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, Conventions.RUNTIME, ASK, "()Z", false);
                    super.visitInsn(Opcodes.POP);
                }
                super.visitInsn(opcode);
            }
        };
    }
}
