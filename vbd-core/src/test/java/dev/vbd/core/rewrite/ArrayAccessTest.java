package dev.vbd.core.rewrite;

import dev.vbd.core.Conventions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.List;
import java.util.Map;

import static dev.vbd.core.rewrite.Bytecode.ACQUIRE;
import static dev.vbd.core.rewrite.Bytecode.FULL;
import static dev.vbd.core.rewrite.Bytecode.RELEASE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Array element accesses: acquire after every load, release before and full after every store. */
class ArrayAccessTest {
    private static final Map<String, byte[]> CLASSES = Bytecode.compile("""
            package arr;
            public class Elements {
                static int li(int[] a) { return a[0]; }
                static long ll(long[] a) { return a[0]; }
                static float lf(float[] a) { return a[0]; }
                static double ld(double[] a) { return a[0]; }
                static Object la(Object[] a) { return a[0]; }
                static byte lb(byte[] a) { return a[0]; }
                static boolean lz(boolean[] a) { return a[0]; }
                static char lc(char[] a) { return a[0]; }
                static short ls(short[] a) { return a[0]; }

                static void si(int[] a, int v) { a[0] = v; }
                static void sl(long[] a, long v) { a[0] = v; }
                static void sf(float[] a, float v) { a[0] = v; }
                static void sd(double[] a, double v) { a[0] = v; }
                static void sa(Object[] a, Object v) { a[0] = v; }
                static void sb(byte[] a, byte v) { a[0] = v; }
                static void sz(boolean[] a, boolean v) { a[0] = v; }
                static void sc(char[] a, char v) { a[0] = v; }
                static void ss(short[] a, short v) { a[0] = v; }

                static int[] initialiser() { int[] a = {1, 2, 3}; return a; }
                static String[] names() { return new String[] {"x", "y"}; }
                static long[] longs() { return new long[] {1L, 1234567890123L}; }

                int[] data;
                void put(int i, int v) { data[i] = v; }

                static int[][] grid;
                static void cell(int i, int j, int v) { grid[i][j] = v; }

                static void increment(int[] a, int i) { a[i]++; }
            }
            """);
    private static final byte[] BEFORE = CLASSES.get("arr/Elements");
    private static final byte[] AFTER = Bytecode.rewritten(CLASSES, "arr/Elements");

    @ParameterizedTest(name = "{1}")
    @CsvSource({
            "li, IALOAD, IRETURN", "ll, LALOAD, LRETURN", "lf, FALOAD, FRETURN", "ld, DALOAD, DRETURN",
            "la, AALOAD, ARETURN", "lb, BALOAD, IRETURN", "lz, BALOAD, IRETURN", "lc, CALOAD, IRETURN",
            "ls, SALOAD, IRETURN"})
    void everyLoadIsFollowedByAcquire(String method, String load, String ret) {
        assertEquals(List.of("ALOAD 0", "ICONST_0", load, ret), Bytecode.of(BEFORE, method));
        assertEquals(List.of("ALOAD 0", "ICONST_0", load, ACQUIRE, ret), Bytecode.of(AFTER, method));
    }

    /**
     * An inline fence holds an int on the operand stack for one instruction: after a long loaded at
     * the method's deepest point the stack needs one slot more than the original code did.
     */
    @Test
    void inlineFencesFitTheOperandStack() {
        assertEquals(2, Bytecode.method(BEFORE, "ll").maxStack);
        assertEquals(Conventions.INLINE_FENCES ? 3 : 2, Bytecode.method(AFTER, "ll").maxStack);
        Bytecode.verify(AFTER);
        Bytecode.defineAndLink(Map.of("arr/Elements", AFTER));
    }

    /** Inline acquire and release fences on x86-64 alone; elsewhere they are calls, as on AArch64. */
    @Test
    void fencesAreInlineOnX86Only() {
        assertTrue(Conventions.inlineFences("amd64"));
        assertTrue(Conventions.inlineFences("x86_64"));
        assertFalse(Conventions.inlineFences("aarch64"));
        assertFalse(Conventions.inlineFences("riscv64"));
        assertFalse(Conventions.inlineFences("ppc64le"));
        assertFalse(Conventions.inlineFences(""));
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource({
            "si, IASTORE, ILOAD 1", "sl, LASTORE, LLOAD 1", "sf, FASTORE, FLOAD 1", "sd, DASTORE, DLOAD 1",
            "sa, AASTORE, ALOAD 1", "sb, BASTORE, ILOAD 1", "sz, BASTORE, ILOAD 1", "sc, CASTORE, ILOAD 1",
            "ss, SASTORE, ILOAD 1"})
    void everyStoreIsPrecededByReleaseAndFollowedByFull(String method, String store, String value) {
        assertEquals(List.of("ALOAD 0", "ICONST_0", value, store, "RETURN"), Bytecode.of(BEFORE, method));
        assertEquals(List.of("ALOAD 0", "ICONST_0", value, RELEASE, store, FULL, "RETURN"),
                Bytecode.of(AFTER, method));
    }

    @Test
    void arrayInitialiserIsLeftPlain() {
        List<String> init = List.of("ICONST_3", "NEWARRAY T_INT",
                "DUP", "ICONST_0", "ICONST_1", "IASTORE",
                "DUP", "ICONST_1", "ICONST_2", "IASTORE",
                "DUP", "ICONST_2", "ICONST_3", "IASTORE",
                "ASTORE 0", "ALOAD 0", "ARETURN");
        assertEquals(init, Bytecode.of(BEFORE, "initialiser"));
        assertEquals(init, Bytecode.of(AFTER, "initialiser"));
    }

    @Test
    void referenceAndWideArrayInitialisersAreLeftPlain() {
        List<String> names = List.of("ICONST_2", "ANEWARRAY java/lang/String",
                "DUP", "ICONST_0", "LDC \"x\"", "AASTORE",
                "DUP", "ICONST_1", "LDC \"y\"", "AASTORE", "ARETURN");
        assertEquals(names, Bytecode.of(BEFORE, "names"));
        assertEquals(names, Bytecode.of(AFTER, "names"));
        List<String> longs = List.of("ICONST_2", "NEWARRAY T_LONG",
                "DUP", "ICONST_0", "LCONST_1", "LASTORE",
                "DUP", "ICONST_1", "LDC 1234567890123L", "LASTORE", "ARETURN");
        assertEquals(longs, Bytecode.of(BEFORE, "longs"));
        assertEquals(longs, Bytecode.of(AFTER, "longs"));
    }

    @Test
    void storeIntoAnArrayReadFromAFieldIsFenced() {
        assertEquals(List.of("ALOAD 0", "GETFIELD arr/Elements.data : [I", "ILOAD 1", "ILOAD 2", "IASTORE", "RETURN"),
                Bytecode.of(BEFORE, "put"));
        assertEquals(List.of("ALOAD 0", "GETFIELD arr/Elements.data : [I", "ILOAD 1", "ILOAD 2",
                RELEASE, "IASTORE", FULL, "RETURN"), Bytecode.of(AFTER, "put"));
    }

    @Test
    void nestedArrayAccessFencesBothLevels() {
        assertEquals(List.of("GETSTATIC arr/Elements.grid : [[I", "ILOAD 0", "AALOAD", ACQUIRE,
                "ILOAD 1", "ILOAD 2", RELEASE, "IASTORE", FULL, "RETURN"), Bytecode.of(AFTER, "cell"));
    }

    @Test
    void compoundAssignmentFencesTheLoadAndTheStore() {
        assertEquals(List.of("ALOAD 0", "ILOAD 1", "DUP2", "IALOAD", "ICONST_1", "IADD", "IASTORE", "RETURN"),
                Bytecode.of(BEFORE, "increment"));
        assertEquals(List.of("ALOAD 0", "ILOAD 1", "DUP2", "IALOAD", ACQUIRE, "ICONST_1", "IADD",
                RELEASE, "IASTORE", FULL, "RETURN"), Bytecode.of(AFTER, "increment"));
    }

    /** A class {@code arr/Gen} with a static {@code int[] table} and one method {@code ()V} built by {@code body}. */
    private static byte[] generated(java.util.function.Consumer<MethodVisitor> body) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "arr/Gen", null, "java/lang/Object", null);
        cw.visitField(Opcodes.ACC_STATIC, "table", "[I", null, null).visitEnd();
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_STATIC, "body", "()V", null, null);
        mv.visitCode();
        body.accept(mv);
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    private static List<String> rewrittenBody(byte[] cls) {
        byte[] after = Bytecode.rewritten(Map.of("arr/Gen", cls), "arr/Gen");
        Bytecode.defineAndLink(Map.of("arr/Gen", after));
        return Bytecode.of(after, "body");
    }

    private static void dupStore(MethodVisitor mv) {
        mv.visitInsn(Opcodes.DUP);
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitInsn(Opcodes.IASTORE);
    }

    /**
     * The initialiser shape (dup, constant index, constant value, store) applied to an array
     * that came from a field is a store into shared memory and must be fenced.
     */
    @Test
    void initialiserShapeOnASharedArrayIsFenced() {
        byte[] before = generated(mv -> {
            mv.visitFieldInsn(Opcodes.GETSTATIC, "arr/Gen", "table", "[I");
            dupStore(mv);
            mv.visitInsn(Opcodes.POP);
        });
        assertEquals(List.of("GETSTATIC arr/Gen.table : [I", "DUP", "ICONST_0", "ICONST_1",
                RELEASE, "IASTORE", FULL, "POP", "RETURN"), rewrittenBody(before));
    }

    /** A new array published before it is filled is shared from then on. */
    @Test
    void freshArrayPublishedBeforeItsStoresIsFenced() {
        byte[] before = generated(mv -> {
            mv.visitInsn(Opcodes.ICONST_2);
            mv.visitIntInsn(Opcodes.NEWARRAY, Opcodes.T_INT);
            mv.visitInsn(Opcodes.DUP);
            mv.visitFieldInsn(Opcodes.PUTSTATIC, "arr/Gen", "table", "[I");
            dupStore(mv);
            mv.visitInsn(Opcodes.POP);
        });
        assertEquals(List.of("ICONST_2", "NEWARRAY T_INT", "DUP", "PUTSTATIC arr/Gen.table : [I",
                "DUP", "ICONST_0", "ICONST_1", RELEASE, "IASTORE", FULL, "POP", "RETURN"), rewrittenBody(before));
    }

    /** A branch target may bring an array from elsewhere: a store there is fenced. */
    @Test
    void jumpTargetInsideTheInitialiserShapeEndsIt() {
        byte[] before = generated(mv -> {
            org.objectweb.asm.Label join = new org.objectweb.asm.Label();
            org.objectweb.asm.Label other = new org.objectweb.asm.Label();
            mv.visitFieldInsn(Opcodes.GETSTATIC, "arr/Gen", "table", "[I");
            mv.visitJumpInsn(Opcodes.IFNONNULL, other);
            mv.visitInsn(Opcodes.ICONST_2);
            mv.visitIntInsn(Opcodes.NEWARRAY, Opcodes.T_INT);
            mv.visitJumpInsn(Opcodes.GOTO, join);
            mv.visitLabel(other);
            mv.visitFieldInsn(Opcodes.GETSTATIC, "arr/Gen", "table", "[I");
            mv.visitLabel(join);
            dupStore(mv);
            mv.visitInsn(Opcodes.POP);
        });
        assertEquals(List.of("GETSTATIC arr/Gen.table : [I", "IFNONNULL L0", "ICONST_2", "NEWARRAY T_INT", "GOTO L1",
                "GETSTATIC arr/Gen.table : [I", "DUP", "ICONST_0", "ICONST_1", RELEASE, "IASTORE", FULL, "POP", "RETURN"),
                rewrittenBody(before));
    }

    /** A new multi-dimensional array that has not left the method: its outer level is as local as any. */
    @Test
    void storeIntoANewMultiDimensionalArrayIsPlain() {
        byte[] before = generated(mv -> {
            mv.visitInsn(Opcodes.ICONST_2);
            mv.visitInsn(Opcodes.ICONST_2);
            mv.visitMultiANewArrayInsn("[[I", 2);
            mv.visitInsn(Opcodes.DUP);
            mv.visitInsn(Opcodes.ICONST_0);
            mv.visitInsn(Opcodes.ACONST_NULL);
            mv.visitInsn(Opcodes.AASTORE);
            mv.visitInsn(Opcodes.POP);
        });
        assertEquals(List.of("ICONST_2", "ICONST_2", "MULTIANEWARRAY [[I 2", "DUP", "ICONST_0", "ACONST_NULL",
                "AASTORE", "POP", "RETURN"), rewrittenBody(before));
    }

    @Test
    void staticFinalTableInitialiserStaysPlain() {
        Map<String, byte[]> c = Bytecode.compile("""
                package arr;
                public class Table {
                    static final int[] TABLE = {7, 8};
                }
                """);
        List<String> clinit = List.of("ICONST_2", "NEWARRAY T_INT",
                "DUP", "ICONST_0", "BIPUSH 7", "IASTORE",
                "DUP", "ICONST_1", "BIPUSH 8", "IASTORE",
                "PUTSTATIC arr/Table.TABLE : [I", "RETURN");
        assertEquals(clinit, Bytecode.of(c.get("arr/Table"), "<clinit>"));
        assertEquals(clinit, Bytecode.of(Bytecode.rewritten(c, "arr/Table"), "<clinit>"));
    }

    /** Real class files carry line numbers; an initialiser spread over lines must still stay plain. */
    @Test
    void multiLineInitialiserWithLineNumbersIsLeftPlain() {
        Map<String, byte[]> c = Bytecode.compile("""
                package arr;
                public class Lines {
                    static final String[] NAMES = {
                        "a",
                        "b",
                    };
                    static final long[] TABLE = {
                        1L,
                        2L,
                    };
                }
                """);
        List<String> clinit = Bytecode.of(c.get("arr/Lines"), "<clinit>");
        assertEquals(clinit, Bytecode.of(Bytecode.rewritten(c, "arr/Lines"), "<clinit>"));
    }

    @Test
    void rewrittenArrayCodeLinks() {
        Bytecode.defineAndLink(Map.of("arr/Elements", AFTER));
    }
}
