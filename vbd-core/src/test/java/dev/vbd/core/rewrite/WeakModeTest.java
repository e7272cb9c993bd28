package dev.vbd.core.rewrite;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.vbd.core.rewrite.Bytecode.ACQUIRE;
import static dev.vbd.core.rewrite.Bytecode.FULL;
import static dev.vbd.core.rewrite.Bytecode.RELEASE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Weak access modes become the volatile mode of the same operation: a rename with the
 * descriptor unchanged, or, where no volatile twin exists, the call fenced like a volatile access.
 */
class WeakModeTest {
    private static final Map<String, byte[]> CLASSES = Bytecode.compile("""
            package weak;
            import java.lang.invoke.MethodHandles;
            import java.lang.invoke.VarHandle;
            import java.util.concurrent.atomic.*;
            @SuppressWarnings("deprecation")
            public class Modes {
                volatile int x;
                Object ref;
                static final VarHandle X;
                static {
                    try {
                        X = MethodHandles.lookup().findVarHandle(Modes.class, "x", int.class);
                    } catch (ReflectiveOperationException e) {
                        throw new ExceptionInInitializerError(e);
                    }
                }
                static final AtomicIntegerFieldUpdater<Modes> UPDATER = AtomicIntegerFieldUpdater.newUpdater(Modes.class, "x");
                static final sun.misc.Unsafe U = null;

                int vhGet() { return (int) X.get(this); }
                void vhSet(int v) { X.set(this, v); }
                int vhGetOpaque() { return (int) X.getOpaque(this); }
                void vhSetOpaque(int v) { X.setOpaque(this, v); }
                int vhGetAcquire() { return (int) X.getAcquire(this); }
                void vhSetRelease(int v) { X.setRelease(this, v); }
                boolean vhWeakPlain(int e, int n) { return X.weakCompareAndSetPlain(this, e, n); }
                boolean vhWeakAcquire(int e, int n) { return X.weakCompareAndSetAcquire(this, e, n); }
                int vhExchangeAcquire(int e, int n) { return (int) X.compareAndExchangeAcquire(this, e, n); }
                int vhAddRelease(int d) { return (int) X.getAndAddRelease(this, d); }
                int vhVolatile() { return (int) X.getVolatile(this); }
                boolean vhCas(int e, int n) { return X.compareAndSet(this, e, n); }

                static void aiLazySet(AtomicInteger a) { a.lazySet(1); }
                static void aiSetPlain(AtomicInteger a) { a.setPlain(1); }
                static int aiGetPlain(AtomicInteger a) { return a.getPlain(); }
                static int aiGetAcquire(AtomicInteger a) { return a.getAcquire(); }
                static void aiSetRelease(AtomicInteger a) { a.setRelease(1); }
                static boolean aiWeak(AtomicInteger a) { return a.weakCompareAndSet(0, 1); }
                static boolean aiWeakPlain(AtomicInteger a) { return a.weakCompareAndSetPlain(0, 1); }
                static int aiExchangeAcquire(AtomicInteger a) { return a.compareAndExchangeAcquire(0, 1); }
                static int aiGet(AtomicInteger a) { return a.get(); }
                static void alLazySet(AtomicLong a) { a.lazySet(1L); }
                static Object arGetPlain(AtomicReference<Object> a) { return a.getPlain(); }
                static void aiaLazySet(AtomicIntegerArray a) { a.lazySet(0, 1); }
                static void updLazySet(Modes m) { UPDATER.lazySet(m, 1); }
                static boolean updWeak(Modes m) { return UPDATER.weakCompareAndSet(m, 0, 1); }

                static int unsafeGetInt(Object o, long off) { return U.getInt(o, off); }
                static void unsafePutInt(Object o, long off) { U.putInt(o, off, 1); }
                static Object unsafeGetObject(Object o, long off) { return U.getObject(o, off); }
                static void unsafePutOrderedInt(Object o, long off) { U.putOrderedInt(o, off, 1); }
                static void unsafePutOrderedObject(Object o, long off, Object v) { U.putOrderedObject(o, off, v); }
                static int unsafeGetIntVolatile(Object o, long off) { return U.getIntVolatile(o, off); }
                static int unsafeGetIntAddress(long address) { return U.getInt(address); }
                static void unsafePutLongAddress(long address) { U.putLong(address, 7L); }
                static long unsafeGetAddress(long address) { return U.getAddress(address); }
                static void unsafePutAddress(long address, long value) { U.putAddress(address, value); }
                static int reflectGet(Object array) { return java.lang.reflect.Array.getInt(array, 1); }
                static void reflectSet(Object array, Object v) { java.lang.reflect.Array.set(array, 1, v); }
                static int reflectLength(Object array) { return java.lang.reflect.Array.getLength(array); }
            }
            """);
    private static final byte[] BEFORE = CLASSES.get("weak/Modes");
    private static final byte[] AFTER = Bytecode.rewritten(CLASSES, "weak/Modes");

    /**
     * Asserts that {@code method} makes exactly one call to {@code owner.from desc} and that
     * the rewrite renames it to {@code to} and changes nothing else.
     */
    private static void assertRenamed(String method, String owner, String from, String to, String desc) {
        List<String> before = Bytecode.of(BEFORE, method);
        String call = "INVOKEVIRTUAL " + owner + "." + from + " " + desc;
        assertEquals(1, before.stream().filter(call::equals).count(), () -> "expected " + call + " in " + before);
        List<String> expected = new ArrayList<>(before);
        expected.set(before.indexOf(call), "INVOKEVIRTUAL " + owner + "." + to + " " + desc);
        assertEquals(expected, Bytecode.of(AFTER, method));
    }

    @ParameterizedTest(name = "VarHandle.{1} -> {2}")
    @CsvSource(delimiter = '|', value = {
            "vhGetOpaque       | getOpaque                 | getVolatile       | (Lweak/Modes;)I",
            "vhSetOpaque       | setOpaque                 | setVolatile       | (Lweak/Modes;I)V",
            "vhGetAcquire      | getAcquire                | getVolatile       | (Lweak/Modes;)I",
            "vhSetRelease      | setRelease                | setVolatile       | (Lweak/Modes;I)V",
            "vhWeakPlain       | weakCompareAndSetPlain    | weakCompareAndSet | (Lweak/Modes;II)Z",
            "vhWeakAcquire     | weakCompareAndSetAcquire  | weakCompareAndSet | (Lweak/Modes;II)Z",
            "vhExchangeAcquire | compareAndExchangeAcquire | compareAndExchange| (Lweak/Modes;II)I",
            "vhAddRelease      | getAndAddRelease          | getAndAdd         | (Lweak/Modes;I)I"})
    void varHandleWeakModesBecomeVolatile(String method, String from, String to, String desc) {
        assertRenamed(method, "java/lang/invoke/VarHandle", from, to, desc);
    }

    @Test
    void varHandleExampleInFull() {
        assertEquals(List.of("GETSTATIC weak/Modes.X : Ljava/lang/invoke/VarHandle;", "ALOAD 0",
                "INVOKEVIRTUAL java/lang/invoke/VarHandle.get (Lweak/Modes;)I", "IRETURN"), Bytecode.of(BEFORE, "vhGet"));
        assertEquals(List.of("GETSTATIC weak/Modes.X : Ljava/lang/invoke/VarHandle;", "ALOAD 0",
                "INVOKEVIRTUAL java/lang/invoke/VarHandle.get (Lweak/Modes;)I",
                ACQUIRE, "IRETURN"), Bytecode.of(AFTER, "vhGet"));
    }

    @Test
    void varHandlePlainSetKeepsItsCallBetweenFences() {
        List<String> after = Bytecode.of(AFTER, "vhSet");
        int call = after.indexOf("INVOKEVIRTUAL java/lang/invoke/VarHandle.set (Lweak/Modes;I)V");
        assertEquals(RELEASE, after.get(call - 1), after::toString);
        assertEquals(FULL, after.get(call + 1), after::toString);
    }

    @Test
    void volatileAndAtomicModesAreUnchanged() {
        for (String m : List.of("vhVolatile", "vhCas", "aiGet", "unsafeGetIntVolatile")) {
            assertEquals(Bytecode.of(BEFORE, m), Bytecode.of(AFTER, m), m);
        }
    }

    @ParameterizedTest(name = "{1}.{2} -> {3}")
    @CsvSource(delimiter = '|', value = {
            "aiLazySet         | AtomicInteger       | lazySet                   | set                       | (I)V",
            "aiSetPlain        | AtomicInteger       | setPlain                  | set                       | (I)V",
            "aiGetPlain        | AtomicInteger       | getPlain                  | get                       | ()I",
            "aiGetAcquire      | AtomicInteger       | getAcquire                | get                       | ()I",
            "aiSetRelease      | AtomicInteger       | setRelease                | set                       | (I)V",
            "aiWeak            | AtomicInteger       | weakCompareAndSet         | weakCompareAndSetVolatile | (II)Z",
            "aiWeakPlain       | AtomicInteger       | weakCompareAndSetPlain    | weakCompareAndSetVolatile | (II)Z",
            "aiExchangeAcquire | AtomicInteger       | compareAndExchangeAcquire | compareAndExchange        | (II)I",
            "alLazySet         | AtomicLong          | lazySet                   | set                       | (J)V",
            "arGetPlain        | AtomicReference     | getPlain                  | get                       | ()Ljava/lang/Object;",
            "aiaLazySet        | AtomicIntegerArray  | lazySet                   | set                       | (II)V",
            "updLazySet        | AtomicIntegerFieldUpdater | lazySet             | set                       | (Ljava/lang/Object;I)V",
            "updWeak           | AtomicIntegerFieldUpdater | weakCompareAndSet   | compareAndSet             | (Ljava/lang/Object;II)Z"})
    void atomicWeakModesBecomeVolatile(String method, String cls, String from, String to, String desc) {
        assertRenamed(method, "java/util/concurrent/atomic/" + cls, from, to, desc);
    }

    @Test
    void renamedAtomicMethodsExistWithTheSameDescriptor() throws Exception {
        // a rename that pointed at a missing method would fail only at run time: NoSuchMethodError
        assertEquals(void.class, java.util.concurrent.atomic.AtomicInteger.class.getMethod("set", int.class).getReturnType());
        assertEquals(boolean.class, java.util.concurrent.atomic.AtomicInteger.class
                .getMethod("weakCompareAndSetVolatile", int.class, int.class).getReturnType());
        assertEquals(boolean.class, java.util.concurrent.atomic.AtomicIntegerFieldUpdater.class
                .getMethod("compareAndSet", Object.class, int.class, int.class).getReturnType());
        assertEquals(void.class, java.util.concurrent.atomic.AtomicIntegerArray.class
                .getMethod("set", int.class, int.class).getReturnType());
    }

    @ParameterizedTest(name = "Unsafe.{1} -> {2}")
    @CsvSource(delimiter = '|', value = {
            "unsafeGetInt           | getInt            | getIntVolatile    | (Ljava/lang/Object;J)I",
            "unsafePutInt           | putInt            | putIntVolatile    | (Ljava/lang/Object;JI)V",
            "unsafeGetObject        | getObject         | getObjectVolatile | (Ljava/lang/Object;J)Ljava/lang/Object;",
            "unsafePutOrderedInt    | putOrderedInt     | putIntVolatile    | (Ljava/lang/Object;JI)V",
            "unsafePutOrderedObject | putOrderedObject  | putObjectVolatile | (Ljava/lang/Object;JLjava/lang/Object;)V"})
    void sunMiscUnsafeHeapAccessesBecomeVolatile(String method, String from, String to, String desc) {
        assertRenamed(method, "sun/misc/Unsafe", from, to, desc);
    }

    @Test
    void sunMiscUnsafeAddressLoadIsFollowedByAcquire() {
        String call = "INVOKEVIRTUAL sun/misc/Unsafe.getInt (J)I";
        String u = "GETSTATIC weak/Modes.U : Lsun/misc/Unsafe;";
        assertEquals(List.of(u, "LLOAD 0", call, "IRETURN"), Bytecode.of(BEFORE, "unsafeGetIntAddress"));
        assertEquals(List.of(u, "LLOAD 0", call, ACQUIRE, "IRETURN"), Bytecode.of(AFTER, "unsafeGetIntAddress"));
    }

    @Test
    void sunMiscUnsafeAddressStoreIsFencedLikeAVolatileStore() {
        String call = "INVOKEVIRTUAL sun/misc/Unsafe.putLong (JJ)V";
        String u = "GETSTATIC weak/Modes.U : Lsun/misc/Unsafe;";
        assertEquals(List.of(u, "LLOAD 0", "LDC 7L", call, "RETURN"), Bytecode.of(BEFORE, "unsafePutLongAddress"));
        assertEquals(List.of(u, "LLOAD 0", "LDC 7L", RELEASE, call, FULL, "RETURN"),
                Bytecode.of(AFTER, "unsafePutLongAddress"));
    }

    /** getAddress/putAddress are plain accesses to native memory with no volatile twin. */
    @Test
    void sunMiscUnsafeGetAddressAndPutAddressAreFenced() {
        String u = "GETSTATIC weak/Modes.U : Lsun/misc/Unsafe;";
        assertEquals(List.of(u, "LLOAD 0", "INVOKEVIRTUAL sun/misc/Unsafe.getAddress (J)J", ACQUIRE, "LRETURN"),
                Bytecode.of(AFTER, "unsafeGetAddress"));
        assertEquals(List.of(u, "LLOAD 0", "LLOAD 2", RELEASE, "INVOKEVIRTUAL sun/misc/Unsafe.putAddress (JJ)V",
                FULL, "RETURN"), Bytecode.of(AFTER, "unsafePutAddress"));
    }

    /** java.lang.reflect.Array's element accesses are native, with no volatile mode: fenced like array accesses. */
    @Test
    void reflectiveArrayAccessesAreFenced() {
        assertEquals(List.of("ALOAD 0", "ICONST_1", "INVOKESTATIC java/lang/reflect/Array.getInt (Ljava/lang/Object;I)I", ACQUIRE, "IRETURN"),
                Bytecode.of(AFTER, "reflectGet"));
        assertEquals(List.of("ALOAD 0", "ICONST_1", "ALOAD 1", RELEASE,
                "INVOKESTATIC java/lang/reflect/Array.set (Ljava/lang/Object;ILjava/lang/Object;)V", FULL, "RETURN"),
                Bytecode.of(AFTER, "reflectSet"));
        assertEquals(Bytecode.of(BEFORE, "reflectLength"), Bytecode.of(AFTER, "reflectLength"));
    }

    /** jdk.internal.misc.Unsafe is not exported to the compiler here, so its call sites are generated. */
    @Test
    void jdkInternalUnsafeWeakModes() {
        String unsafe = "jdk/internal/misc/Unsafe";
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "weak/Internal", null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_STATIC, "calls", "(L" + unsafe + ";Ljava/lang/Object;J)V", null, null);
        mv.visitCode();
        // name, descriptor, the operands pushed after (unsafe, object, offset), the pop of the result
        Object[][] calls = {
                {"weakCompareAndSetIntPlain", "(Ljava/lang/Object;JII)Z", new int[]{Opcodes.ICONST_1, Opcodes.ICONST_1}, Opcodes.POP},
                {"getReferenceAcquire", "(Ljava/lang/Object;J)Ljava/lang/Object;", new int[0], Opcodes.POP},
                {"getAndAddLongRelease", "(Ljava/lang/Object;JJ)J", new int[]{Opcodes.LCONST_1}, Opcodes.POP2},
                {"getIntUnaligned", "(Ljava/lang/Object;J)I", new int[0], Opcodes.POP},
                {"putLongUnaligned", "(Ljava/lang/Object;JJ)V", new int[]{Opcodes.LCONST_1}, Opcodes.NOP},
                {"getLong", "(Ljava/lang/Object;J)J", new int[0], Opcodes.POP2},
                {"putReferenceRelease", "(Ljava/lang/Object;JLjava/lang/Object;)V", new int[]{Opcodes.ACONST_NULL}, Opcodes.NOP}};
        for (Object[] c : calls) {
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            mv.visitVarInsn(Opcodes.ALOAD, 1);
            mv.visitVarInsn(Opcodes.LLOAD, 2);
            for (int op : (int[]) c[2]) mv.visitInsn(op);
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, unsafe, (String) c[0], (String) c[1], false);
            if ((int) c[3] != Opcodes.NOP) mv.visitInsn((int) c[3]);
        }
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        byte[] before = cw.toByteArray();
        Bytecode.verify(before);
        byte[] after = Bytecode.rewritten(Map.of("weak/Internal", before), "weak/Internal");
        String p = "INVOKEVIRTUAL " + unsafe + ".";
        List<String> args = List.of("ALOAD 0", "ALOAD 1", "LLOAD 2");
        List<String> expected = new ArrayList<>();
        expected.addAll(args);
        expected.addAll(List.of("ICONST_1", "ICONST_1", p + "weakCompareAndSetInt (Ljava/lang/Object;JII)Z", "POP"));
        expected.addAll(args);
        expected.addAll(List.of(p + "getReferenceVolatile (Ljava/lang/Object;J)Ljava/lang/Object;", "POP"));
        expected.addAll(args);
        expected.addAll(List.of("LCONST_1", p + "getAndAddLong (Ljava/lang/Object;JJ)J", "POP2"));
        expected.addAll(args);
        expected.addAll(List.of(p + "getIntUnaligned (Ljava/lang/Object;J)I", ACQUIRE, "POP"));
        expected.addAll(args);
        expected.addAll(List.of("LCONST_1", RELEASE, p + "putLongUnaligned (Ljava/lang/Object;JJ)V", FULL));
        expected.addAll(args);
        expected.addAll(List.of(p + "getLongVolatile (Ljava/lang/Object;J)J", "POP2"));
        expected.addAll(args);
        expected.addAll(List.of("ACONST_NULL", p + "putReferenceVolatile (Ljava/lang/Object;JLjava/lang/Object;)V"));
        expected.add("RETURN");
        assertEquals(expected, Bytecode.of(after, "calls"));
    }

    @Test
    void classifyLeavesOtherCallsAlone() {
        assertNull(WeakModes.classify("java/lang/invoke/VarHandle", "getVolatile", "(Ljava/lang/Object;)I"));
        assertNull(WeakModes.classify("java/util/concurrent/atomic/AtomicInteger", "incrementAndGet", "()I"));
        assertNull(WeakModes.classify("sun/misc/Unsafe", "getIntVolatile", "(Ljava/lang/Object;J)I"));
        assertNull(WeakModes.classify("sun/misc/Unsafe", "allocateMemory", "(J)J"));
        assertNull(WeakModes.classify("p/MyAtomic", "lazySet", "(I)V"));
        assertEquals(new WeakModes.Fence(WeakModes.Kind.LOAD), WeakModes.classify("java/lang/invoke/VarHandle", "get", "()I"));
        assertEquals(new WeakModes.Upgrade("getVolatile"), WeakModes.classify("java/lang/invoke/VarHandle", "getAcquire", "()I"));
        assertEquals(new WeakModes.Fence(WeakModes.Kind.LOAD), WeakModes.classify("sun/misc/Unsafe", "getByte", "(J)B"));
        assertEquals(new WeakModes.Fence(WeakModes.Kind.STORE), WeakModes.classify("sun/misc/Unsafe", "putByte", "(JB)V"));
    }

    @Test
    void rewrittenWeakModeCodeLinks() {
        Bytecode.defineAndLink(Map.of("weak/Modes", AFTER));
    }
}
