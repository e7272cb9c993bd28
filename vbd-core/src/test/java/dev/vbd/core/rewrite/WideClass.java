package dev.vbd.core.rewrite;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Generates a class with many fields, for measuring how the rewrite scales with them:
 * {@code f0 .. f<n-1>}, all {@code int}. The first {@link #finals} are final instance fields stored
 * by the constructor, which leaks {@code this} half-way (so the second half must lose {@code final});
 * the rest are static and plain, and {@code <clinit>} stores as many of them as the constant pool
 * still has room for (each field reference costs two entries; declarations alone take one each).
 *
 * <p>{@code java -cp ... dev.vbd.core.rewrite.WideClass DIR N} writes {@code DIR/Wide.class} and a
 * {@code DIR/Main.class} that loads, initialises and instantiates it.
 */
public final class WideClass {
    /** Stores per method: each takes at most 5 bytes, well under the 64 KiB code limit. */
    private static final int PER_METHOD = 10_000;

    private WideClass() {}

    /** Field references left room for in the constant pool once every field is declared. */
    private static int room(int n) {
        return Math.max(0, (65_535 - n - 64) / 2);
    }

    public static int finals(int n) {
        return Math.min(Math.min(n, PER_METHOD), Math.max(2, room(n) / 2));
    }

    /** How many statics {@code <clinit>} stores: what the constant pool leaves room for. */
    public static int touchedStatics(int n) {
        return Math.max(0, Math.min(n - finals(n), room(n) - finals(n)));
    }

    public static byte[] generate(String name, int n) {
        ClassWriter cw = new ClassWriter(0);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, name, null, "java/lang/Object", null);
        int finals = finals(n);
        for (int i = 0; i < n; i++) {
            int access = i < finals ? Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL : Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC;
            cw.visitField(access, "f" + i, "I", null, null).visitEnd();
        }
        cw.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "seen", "Ljava/lang/Object;", null, null).visitEnd();

        MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        for (int i = 0; i < finals; i++) {
            if (i == finals / 2) {
                init.visitVarInsn(Opcodes.ALOAD, 0);
                init.visitFieldInsn(Opcodes.PUTSTATIC, name, "seen", "Ljava/lang/Object;");
            }
            init.visitVarInsn(Opcodes.ALOAD, 0);
            init.visitInsn(Opcodes.ICONST_1);
            init.visitFieldInsn(Opcodes.PUTFIELD, name, "f" + i, "I");
        }
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(2, 1);
        init.visitEnd();

        int touched = touchedStatics(n);
        int helpers = (touched + PER_METHOD - 1) / PER_METHOD;
        MethodVisitor clinit = cw.visitMethod(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
        clinit.visitCode();
        for (int h = 0; h < helpers; h++) clinit.visitMethodInsn(Opcodes.INVOKESTATIC, name, "init" + h, "()V", false);
        clinit.visitInsn(Opcodes.RETURN);
        clinit.visitMaxs(0, 0);
        clinit.visitEnd();
        for (int h = 0; h < helpers; h++) {
            MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC, "init" + h, "()V", null, null);
            mv.visitCode();
            for (int i = finals + h * PER_METHOD, end = Math.min(finals + touched, i + PER_METHOD); i < end; i++) {
                mv.visitInsn(Opcodes.ICONST_1);
                mv.visitFieldInsn(Opcodes.PUTSTATIC, name, "f" + i, "I");
            }
            mv.visitInsn(Opcodes.RETURN);
            mv.visitMaxs(1, 0);
            mv.visitEnd();
        }
        cw.visitEnd();
        return cw.toByteArray();
    }

    /** {@code Main}: {@code new Wide()}, then prints a checksum so that nothing is optimised away. */
    static byte[] main(String wide) {
        ClassWriter cw = new ClassWriter(0);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, "Main", null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "main", "([Ljava/lang/String;)V", null, null);
        mv.visitCode();
        mv.visitFieldInsn(Opcodes.GETSTATIC, "java/lang/System", "out", "Ljava/io/PrintStream;");
        mv.visitTypeInsn(Opcodes.NEW, wide);
        mv.visitInsn(Opcodes.DUP);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, wide, "<init>", "()V", false);
        mv.visitFieldInsn(Opcodes.GETFIELD, wide, "f0", "I");
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/io/PrintStream", "println", "(I)V", false);
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(3, 1);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: WideClass DIR FIELDS");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        int n = Integer.parseInt(args[1]);
        Files.createDirectories(dir);
        Files.write(dir.resolve("Wide.class"), generate("Wide", n));
        Files.write(dir.resolve("Main.class"), main("Wide"));
    }
}
