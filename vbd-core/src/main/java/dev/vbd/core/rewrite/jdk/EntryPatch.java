package dev.vbd.core.rewrite.jdk;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Calls a static method of vbd's runtime on the arguments of a JDK method before the method's first
 * instruction, and may replace an argument by what it returns. Nothing branches there, so the
 * method's stack map frames stay valid: a replaced local keeps its type.
 */
abstract class EntryPatch extends ClassVisitor {
    EntryPatch(ClassVisitor next) {
        super(Opcodes.ASM9, next);
    }

    /** Whether this method is the one to patch. */
    abstract boolean patches(String name, String descriptor);

    /** Emits the replacement of the argument; the stack is empty before and after. */
    abstract void emit(MethodVisitor mv);

    /** Stack slots the replacement needs. */
    abstract int stack();

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
        if (!patches(name, descriptor)) return mv;
        return new MethodVisitor(Opcodes.ASM9, mv) {
            @Override
            public void visitCode() {
                super.visitCode();
                emit(mv);
            }

            @Override
            public void visitMaxs(int maxStack, int maxLocals) {
                super.visitMaxs(Math.max(maxStack, stack()), maxLocals);
            }
        };
    }
}
