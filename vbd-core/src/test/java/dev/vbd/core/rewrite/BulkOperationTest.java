package dev.vbd.core.rewrite;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.vbd.core.rewrite.Bytecode.FULL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Native bulk operations: a full fence immediately before and after the call. */
class BulkOperationTest {
    private static final Map<String, byte[]> CLASSES = Bytecode.compile("""
            package bulk;
            import java.util.Arrays;
            public class Bulk implements Cloneable {
                int f;
                static void copy(int[] from, int[] to) { System.arraycopy(from, 0, to, 0, 4); }
                static void fill(long[] a) { Arrays.fill(a, 1L); }
                static Object[] grow(Object[] a) { return Arrays.copyOf(a, 8); }
                static byte[] slice(byte[] a) { return Arrays.copyOfRange(a, 1, 3); }
                static int[] dup(int[] a) { return a.clone(); }
                Bulk copySelf() throws CloneNotSupportedException { return (Bulk) clone(); }
                static String notBulk(int[] a) { return Arrays.toString(a); }
            }
            """);
    private static final byte[] BEFORE = CLASSES.get("bulk/Bulk");
    private static final byte[] AFTER = Bytecode.rewritten(CLASSES, "bulk/Bulk");

    @Test
    void systemArraycopy() {
        String call = "INVOKESTATIC java/lang/System.arraycopy (Ljava/lang/Object;ILjava/lang/Object;II)V";
        assertEquals(List.of("ALOAD 0", "ICONST_0", "ALOAD 1", "ICONST_0", "ICONST_4", call, "RETURN"),
                Bytecode.of(BEFORE, "copy"));
        assertEquals(List.of("ALOAD 0", "ICONST_0", "ALOAD 1", "ICONST_0", "ICONST_4", FULL, call, FULL, "RETURN"),
                Bytecode.of(AFTER, "copy"));
    }

    /** Arrays.fill, copyOf and copyOfRange carry their fences in their JDK bodies (see JdkPatchesTest). */
    @Test
    void javaBodiedBulkOperationsAreCalledAsTheyAre() {
        for (String m : List.of("fill", "grow", "slice")) {
            assertEquals(Bytecode.of(BEFORE, m), Bytecode.of(AFTER, m), m);
        }
    }

    @Test
    void arrayClone() {
        String call = "INVOKEVIRTUAL [I.clone ()Ljava/lang/Object;";
        assertEquals(List.of("ALOAD 0", call, "CHECKCAST [I", "ARETURN"), Bytecode.of(BEFORE, "dup"));
        assertEquals(List.of("ALOAD 0", FULL, call, FULL, "CHECKCAST [I", "ARETURN"), Bytecode.of(AFTER, "dup"));
    }

    @Test
    void objectClone() {
        String call = "INVOKEVIRTUAL java/lang/Object.clone ()Ljava/lang/Object;";
        assertEquals(List.of("ALOAD 0", FULL, call, FULL, "CHECKCAST bulk/Bulk", "ARETURN"),
                Bytecode.of(AFTER, "copySelf"));
    }

    @Test
    void otherArraysMethodsAreNotFenced() {
        assertEquals(Bytecode.of(BEFORE, "notBulk"), Bytecode.of(AFTER, "notBulk"));
    }

    @Test
    void classification() {
        assertTrue(BulkOperations.isBulk("java/lang/System", "arraycopy", "(Ljava/lang/Object;ILjava/lang/Object;II)V"));
        // Java-bodied bulk operations carry their fences in the JDK's body, where every path to them goes
        assertFalse(BulkOperations.isBulk("java/util/Arrays", "fill", "([IIII)V"));
        // ... except where C2 may replace that body by an intrinsic, fences and all
        assertTrue(BulkOperations.isBulk("java/util/Arrays", "copyOf", "([Ljava/lang/Object;ILjava/lang/Class;)[Ljava/lang/Object;"));
        assertTrue(BulkOperations.isBulk("java/util/Arrays", "copyOfRange", "([Ljava/lang/Object;IILjava/lang/Class;)[Ljava/lang/Object;"));
        assertFalse(BulkOperations.isBulk("java/util/Arrays", "copyOf", "([Ljava/lang/Object;I)[Ljava/lang/Object;"));
        assertTrue(BulkOperations.isFencedBody("java/util/Arrays", "fill"));
        assertTrue(BulkOperations.isFencedBody("java/util/Arrays", "copyOfRange"));
        assertTrue(BulkOperations.isFencedBody("jdk/internal/misc/Unsafe", "setMemory"));
        assertFalse(BulkOperations.isFencedBody("jdk/internal/misc/Unsafe", "setMemory0"), "the native behind it");
        assertFalse(BulkOperations.isFencedBody("java/util/Arrays", "sort"));
        assertTrue(BulkOperations.isBulk("java/util/ArrayList", "clone", "()Ljava/lang/Object;"));
        assertFalse(BulkOperations.isBulk("java/lang/System", "currentTimeMillis", "()J"));
        assertFalse(BulkOperations.isBulk("java/util/Arrays", "sort", "([I)V"));
        assertFalse(BulkOperations.isBulk("p/Q", "clone", "(I)Lp/Q;"), "clone with arguments is an ordinary method");
    }

    @Test
    void rewrittenBulkCodeLinks() {
        Bytecode.defineAndLink(Map.of("bulk/Bulk", AFTER));
    }
}
