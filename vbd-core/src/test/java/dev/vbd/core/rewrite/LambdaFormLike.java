package dev.vbd.core.rewrite;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;

import static org.objectweb.asm.Opcodes.*;

/**
 * Test support: classes shaped like those {@code java.lang.invoke}'s {@code InvokerBytecodeGenerator}
 * spins for lambda forms, assembled with ASM so that every offset is known by construction.
 */
public final class LambdaFormLike {
    private LambdaFormLike() {}

    public static final String NAME = "java/lang/invoke/LambdaForm$MH";
    private static final String MH = "java/lang/invoke/MethodHandle";

    /**
     * A spreader, an element setter and a collector:
     * <pre>
     * static Object spread(Object mh, Object a)  0 aload_1, 1 checkcast [I, 4 iconst_0, 5 iaload,
     *                                            6 aload_0, 7 swap, 8 invokevirtual invokeBasic(I)Object, 11 areturn
     * static void set(Object a, int i, int v)    0 aload_0, 1 checkcast [I, 4 iload_1, 5 iload_2, 6 iastore, 7 return
     * static Object collect(Object mh, Object x) 0 iconst_1, 1 anewarray Object, 4 dup, 5 iconst_0, 6 aload_1,
     *                                            7 aastore, 8 astore_2, 9 aload_0, 10 aload_2,
     *                                            11 invokevirtual invokeBasic(Object)Object, 14 areturn
     * </pre>
     */
    public static byte[] withArrays() {
        ClassWriter cw = start();
        MethodVisitor mv = cw.visitMethod(ACC_STATIC, "spread", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", null, null);
        mv.visitCode();
        mv.visitVarInsn(ALOAD, 1);
        mv.visitTypeInsn(CHECKCAST, "[I");
        mv.visitInsn(ICONST_0);
        mv.visitInsn(IALOAD);
        mv.visitVarInsn(ALOAD, 0);
        mv.visitInsn(SWAP);
        mv.visitMethodInsn(INVOKEVIRTUAL, MH, "invokeBasic", "(I)Ljava/lang/Object;", false);
        mv.visitInsn(ARETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();

        mv = cw.visitMethod(ACC_STATIC, "set", "(Ljava/lang/Object;II)V", null, null);
        mv.visitCode();
        mv.visitVarInsn(ALOAD, 0);
        mv.visitTypeInsn(CHECKCAST, "[I");
        mv.visitVarInsn(ILOAD, 1);
        mv.visitVarInsn(ILOAD, 2);
        mv.visitInsn(IASTORE);
        mv.visitInsn(RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();

        mv = cw.visitMethod(ACC_STATIC, "collect", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", null, null);
        mv.visitCode();
        mv.visitInsn(ICONST_1);
        mv.visitTypeInsn(ANEWARRAY, "java/lang/Object");
        mv.visitInsn(DUP);
        mv.visitInsn(ICONST_0);
        mv.visitVarInsn(ALOAD, 1);
        mv.visitInsn(AASTORE);
        mv.visitVarInsn(ASTORE, 2);
        mv.visitVarInsn(ALOAD, 0);
        mv.visitVarInsn(ALOAD, 2);
        mv.visitMethodInsn(INVOKEVIRTUAL, MH, "invokeBasic", "(Ljava/lang/Object;)Ljava/lang/Object;", false);
        mv.visitInsn(ARETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    /** A form with no array in it: {@code static Object invoke(Object mh, Object x)} that calls the handle. */
    public static byte[] withoutArrays() {
        ClassWriter cw = start();
        MethodVisitor mv = cw.visitMethod(ACC_STATIC, "invoke", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", null, null);
        mv.visitCode();
        mv.visitVarInsn(ALOAD, 0);
        mv.visitTypeInsn(CHECKCAST, MH);
        mv.visitVarInsn(ALOAD, 1);
        mv.visitMethodInsn(INVOKEVIRTUAL, MH, "invokeBasic", "(Ljava/lang/Object;)Ljava/lang/Object;", false);
        mv.visitInsn(ARETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    private static ClassWriter start() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES);
        cw.visit(V17, ACC_FINAL | ACC_SUPER | ACC_SYNTHETIC, NAME, null, "java/lang/Object", null);
        return cw;
    }
}
