package dev.vbd.core.analysis;

import dev.vbd.core.ClassBytesSource;
import dev.vbd.core.rewrite.Bytecode;
import org.junit.jupiter.api.Test;
import dev.vbd.core.rewrite.FinalWrites;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which final fields may be read through a leaked {@code this} before their store. */
class ConstructorLeaksTest {
    private static final String HOLDER = """
            package cl;
            public class Holder {
                public static Object last;
                public static void publish(Object o) { last = o; }
            }
            """;

    /** The unsafe finals of class {@code cl.<simpleName>} declared by {@code body}. */
    private static Set<String> unsafe(String simpleName, String body) {
        Map<String, byte[]> c = Bytecode.compile(HOLDER, "package cl;\npublic class " + simpleName + " " + body);
        return new ConstructorLeaks(Bytecode.sourceOf(c)).unsafeFinals(c.get("cl/" + simpleName));
    }

    @Test
    void noLeakNoUnsafeFinals() {
        assertEquals(Set.of(), unsafe("A", """
                {
                    private final int x; private final String s; private int z = 3;
                    A(java.util.List<String> l) { l.add("s"); x = z; s = String.valueOf(x); Holder.last = s; }
                }"""));
    }

    @Test
    void storingThisIntoAnArrayLeaksIt() {
        assertEquals(Set.of("x"), unsafe("A", """
                {
                    private final int x;
                    A(Object[] slots) { slots[0] = this; x = 1; }
                }"""));
    }

    @Test
    void storingThisIntoAFieldLeaksIt() {
        assertEquals(Set.of("x"), unsafe("A", """
                {
                    A self; private final int x;
                    A() { self = this; x = 1; }
                }"""));
    }

    @Test
    void thisThroughALocalVariableIsTracked() {
        assertEquals(Set.of("x"), unsafe("A", """
                {
                    private final int x;
                    A() { Object me = this; Holder.publish(me); x = 1; }
                }"""));
    }

    @Test
    void creatingAnInnerClassInstanceLeaksThis() {
        assertEquals(Set.of("x"), unsafe("A", """
                {
                    private final int x;
                    class Inner { int read() { return x; } }
                    A() { Holder.publish(new Inner()); x = 1; }
                }"""));
    }

    @Test
    void leakInsideATryBlockReachesTheStoreAfterIt() {
        assertEquals(Set.of("x"), unsafe("A", """
                {
                    private final int x;
                    A() { try { Holder.publish(this); } catch (RuntimeException e) { } x = 1; }
                }"""));
    }

    @Test
    void leakInALoopAfterTheStoreIsSafe() {
        assertEquals(Set.of(), unsafe("A", """
                {
                    private final int x;
                    A(int n) { x = n; for (int i = 0; i < n; i++) Holder.publish(this); }
                }"""));
    }

    @Test
    void delegatingToAnotherConstructorIsNotALeak() {
        assertEquals(Set.of(), unsafe("A", """
                {
                    private final int x;
                    A(int v) { x = v; }
                    A() { this(7); Holder.publish(this); }
                }"""));
    }

    @Test
    void leakThroughASuperclassChainIsTransitive() {
        Map<String, byte[]> c = Bytecode.compile("""
                package cl;
                public class Top { protected Top() { hook(); } protected void hook() {} }
                """, """
                package cl;
                public class Middle extends Top { protected final int m; protected Middle() { m = 1; } }
                """, """
                package cl;
                public class Bottom extends Middle { private final int b; public Bottom() { b = 2; } }
                """);
        ConstructorLeaks leaks = new ConstructorLeaks(Bytecode.sourceOf(c));
        assertFalse(leaks.leakFree("cl/Top"));
        assertFalse(leaks.leakFree("cl/Middle"), "Middle's super() runs Top's leaking constructor");
        assertEquals(Set.of("m"), leaks.unsafeFinals(c.get("cl/Middle")));
        assertEquals(Set.of("b"), leaks.unsafeFinals(c.get("cl/Bottom")));
    }

    @Test
    void wellKnownSuperclassesAreLeakFreeWithoutTheirBytes() {
        ConstructorLeaks leaks = new ConstructorLeaks(ClassBytesSource.NONE);
        assertTrue(leaks.leakFree("java/lang/Object"));
        assertTrue(leaks.leakFree("java/lang/Record"));
        assertTrue(leaks.leakFree("java/lang/Enum"));
        assertFalse(leaks.leakFree("java/util/AbstractList"), "unknown bytes: assume the worst");
    }

    @Test
    void enumFinalsAreSafe() {
        Map<String, byte[]> c = Bytecode.compile("""
                package cl;
                public enum Color {
                    RED(1), GREEN(2);
                    private final int code;
                    Color(int code) { this.code = code; }
                }
                """);
        assertEquals(Set.of(), new ConstructorLeaks(ClassBytesSource.NONE).unsafeFinals(c.get("cl/Color")));
    }

    @Test
    void staticFinalsTheInitialiserWritesAreSafe() {
        assertEquals(Set.of(), unsafe("A", """
                {
                    static final Object S = new Object();
                    A() { Holder.publish(this); }
                }"""));
    }

    /*
     * Writes javac never emits but the JVM allows, as bytecode generators and weavers emit them.
     * Each class has {@code final int x} and {@code static final int S}, a constructor that
     * stores {@code x} into {@code this} first, and a class initialiser that stores {@code S}.
     */

    @Test
    void aClassFileOlderThan53MayWriteItsFinalsFromAnyMethod() {
        byte[] a = FinalWrites.of(Opcodes.V1_8).setter("set", false).setter("setStatic", true).bytes();
        assertEquals(Set.of("x", "S"), new ConstructorLeaks(ClassBytesSource.NONE).unsafeFinals(a));
        byte[] onlyInstance = FinalWrites.of(Opcodes.V1_8).setter("set", false).bytes();
        assertEquals(Set.of("x"), new ConstructorLeaks(ClassBytesSource.NONE).unsafeFinals(onlyInstance));
        byte[] none = FinalWrites.of(Opcodes.V1_8).bytes();
        assertEquals(Set.of(), new ConstructorLeaks(ClassBytesSource.NONE).unsafeFinals(none));
    }

    @Test
    void aConstructorWritingTheFinalOfAnotherObjectMakesItUnsafe() {
        byte[] a = FinalWrites.of(Opcodes.V17).constructorWritingOther().bytes();
        assertEquals(Set.of("x"), new ConstructorLeaks(ClassBytesSource.NONE).unsafeFinals(a));
    }

    @Test
    void aThisCallToALeakingConstructorIsALeak() {
        byte[] a = FinalWrites.of(Opcodes.V17).leakingConstructorThenThisCall().bytes();
        assertEquals(Set.of("x"), new ConstructorLeaks(ClassBytesSource.NONE).unsafeFinals(a));
    }

    @Test
    void aWriteThroughASubclassNameResolvesToTheField() {
        byte[] a = FinalWrites.of(Opcodes.V1_8).setterThrough("set", "cl/Sub").bytes();
        ClassWriter sub = new ClassWriter(0);
        sub.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC, "cl/Sub", null, "cl/A", null);
        sub.visitEnd();
        Map<String, byte[]> classes = Map.of("cl/A", a, "cl/Sub", sub.toByteArray());
        assertEquals(Set.of("x"), new ConstructorLeaks(Bytecode.sourceOf(classes)).unsafeFinals(a));
        ClassWriter shadow = new ClassWriter(0);
        shadow.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC, "cl/Sub", null, "cl/A", null);
        shadow.visitField(Opcodes.ACC_PUBLIC, "x", "I", null, null).visitEnd();
        shadow.visitEnd();
        Map<String, byte[]> shadowed = Map.of("cl/A", a, "cl/Sub", shadow.toByteArray());
        assertEquals(Set.of(), new ConstructorLeaks(Bytecode.sourceOf(shadowed)).unsafeFinals(a),
                "a subclass's own field of that name is another field");
    }

    /** A superclass whose constructor only stores, and a subclass that stores its final after {@code super()}. */
    private static final String BENIGN_BASE = "package cl;\npublic class Base { int a; public Base() { a = 1; } }";
    private static final String SUB = "package cl;\npublic class Sub extends Base { final int x; public Sub() { super(); x = 2; } }";

    @Test
    void aLinkerMayAskForTheBytesOfTheClassItIsJudging() {
        Map<String, byte[]> c = Bytecode.compile(BENIGN_BASE, SUB);
        ConstructorLeaks leaks = new ConstructorLeaks(ClassBytesSource.NONE);
        // as a loader's linker does when the superclass is its own: judge the bytes it defined
        leaks.linkedBy(name -> c.containsKey(name) && leaks.leakFree(name, c.get(name)));
        assertTrue(leaks.leakFree("cl/Base"), "asking for the bytes of the class being judged is no cycle");
        assertEquals(Set.of(), leaks.unsafeFinals(c.get("cl/Sub")));
    }

    @Test
    void anotherThreadNeverTakesAJudgementInProgressForItsAnswer() throws Exception {
        Map<String, byte[]> c = Bytecode.compile(BENIGN_BASE, SUB);
        java.util.concurrent.CountDownLatch inside = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean first = new java.util.concurrent.atomic.AtomicBoolean(true);
        ConstructorLeaks leaks = new ConstructorLeaks(ClassBytesSource.NONE);
        leaks.linkedBy(name -> {
            if (first.getAndSet(false)) {
                inside.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return c.containsKey(name) && leaks.constructorsLeakFree(c.get(name));
        });
        java.util.concurrent.atomic.AtomicBoolean slow = new java.util.concurrent.atomic.AtomicBoolean();
        Thread judge = new Thread(() -> slow.set(leaks.leakFree("cl/Base")));
        judge.start();
        inside.await();
        try {
            assertTrue(leaks.leakFree("cl/Base"), "the other thread is still judging: that is no answer");
        } finally {
            release.countDown();
            judge.join();
        }
        assertTrue(slow.get());
    }
}
