package dev.vbd.core.rewrite;

import dev.vbd.core.Conventions;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** Emits calls to the runtime's fences. */
final class Fences {
    private Fences() {}

    static void acquire(MethodVisitor mv) { call(mv, Conventions.ACQUIRE); }
    static void release(MethodVisitor mv) { call(mv, Conventions.RELEASE); }
    static void full(MethodVisitor mv) { call(mv, Conventions.FULL); }

    private static void call(MethodVisitor mv, String name) {
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, Conventions.RUNTIME, name, Conventions.FENCE_DESC, false);
    }
}
