package dev.vbd.core.rewrite;

import dev.vbd.core.ClassBytesSource;
import dev.vbd.core.analysis.ClassFacts;
import dev.vbd.core.policy.Policy;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.objectweb.asm.Opcodes.ACC_FINAL;
import static org.objectweb.asm.Opcodes.ACC_PRIVATE;
import static org.objectweb.asm.Opcodes.ACC_PUBLIC;
import static org.objectweb.asm.Opcodes.ACC_STATIC;
import static org.objectweb.asm.Opcodes.ACC_VOLATILE;

/**
 * Final instance fields: kept final unless a constructor may leak {@code this} before the
 * store, in which case they lose final and become volatile (a field cannot be both).
 */
class FinalFieldsTest {
    private static final String HOLDER = """
            package ff;
            public class Holder {
                public static Object last;
                public static void publish(Object o) { last = o; }
            }
            """;

    private static Map<String, byte[]> compile(String source) {
        return Bytecode.compile(HOLDER, source);
    }

    private static RewriteResult rewrite(Map<String, byte[]> classes, String name) {
        RewriteResult r = new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(classes)).rewrite(classes.get(name));
        assertEquals(RewriteResult.Status.REWRITTEN, r.status());
        Bytecode.verify(r.bytes());
        Map<String, byte[]> all = new java.util.HashMap<>(classes);
        all.put(name, r.bytes());
        Bytecode.defineAndLink(all);
        return r;
    }

    /** Asserts the flags of field {@code x} before and after, and what the marker says of it. */
    private static void assertUnfinal(Map<String, byte[]> classes, String name, String field) {
        RewriteResult r = rewrite(classes, name);
        assertEquals(ACC_PRIVATE | ACC_FINAL, Bytecode.access(classes.get(name), field));
        assertEquals(ACC_PRIVATE | ACC_VOLATILE, Bytecode.access(r.bytes(), field));
        ClassFacts.Marker marker = ClassFacts.read(r.bytes()).marker;
        assertNotNull(marker);
        assertEquals(List.of(field), marker.unfinal);
        assertEquals(List.of(field), marker.flipped, "a field that lost final is volatile, so it is flipped too");
        assertEquals(List.of(field), r.unfinal());
    }

    private static void assertKeptFinal(Map<String, byte[]> classes, String name, String field) {
        RewriteResult r = rewrite(classes, name);
        assertEquals(ACC_PRIVATE | ACC_FINAL, Bytecode.access(classes.get(name), field));
        assertEquals(ACC_PRIVATE | ACC_FINAL, Bytecode.access(r.bytes(), field));
        ClassFacts.Marker marker = ClassFacts.read(r.bytes()).marker;
        assertEquals(List.of(), marker.unfinal);
        assertEquals(List.of(), marker.flipped);
    }

    @Test
    void keptFinalWhenConstructorsDoNotLeakThis() {
        Map<String, byte[]> c = compile("""
                package ff;
                public class Safe {
                    private final int x;
                    Safe(int x) { this.x = x; }
                    Safe() { this(42); }
                    int x() { return x; }
                }
                """);
        assertKeptFinal(c, "ff/Safe", "x");
    }

    @Test
    void lostFinalWhenThisIsPassedToAMethodBeforeTheStore() {
        Map<String, byte[]> c = compile("""
                package ff;
                public class PassesThis {
                    private final int x;
                    PassesThis() { Holder.publish(this); x = 1; }
                }
                """);
        assertUnfinal(c, "ff/PassesThis", "x");
        // only the declaration changes: the constructor's code is the same before and after
        List<String> ctor = List.of("ALOAD 0", "INVOKESPECIAL java/lang/Object.<init> ()V",
                "ALOAD 0", "INVOKESTATIC ff/Holder.publish (Ljava/lang/Object;)V",
                "ALOAD 0", "ICONST_1", "PUTFIELD ff/PassesThis.x : I", "RETURN");
        assertEquals(ctor, Bytecode.of(c.get("ff/PassesThis"), "<init>"));
        assertEquals(ctor, Bytecode.of(rewrite(c, "ff/PassesThis").bytes(), "<init>"));
    }

    @Test
    void lostFinalWhenThisIsStoredInAStaticBeforeTheStore() {
        Map<String, byte[]> c = compile("""
                package ff;
                public class StoresThis {
                    static StoresThis last;
                    private final int x;
                    StoresThis() { last = this; x = 1; }
                }
                """);
        assertEquals(ACC_PRIVATE | ACC_VOLATILE, Bytecode.access(rewrite(c, "ff/StoresThis").bytes(), "x"));
        ClassFacts.Marker marker = ClassFacts.read(rewrite(c, "ff/StoresThis").bytes()).marker;
        assertEquals(List.of("x"), marker.unfinal);
        assertEquals(List.of("last", "x"), marker.flipped);
    }

    @Test
    void lostFinalWhenAConstructorRegistersItselfAsAListener() {
        Map<String, byte[]> c = compile("""
                package ff;
                import java.util.List;
                public class Listener implements Runnable {
                    private final String name;
                    Listener(List<Runnable> listeners, String name) { listeners.add(this); this.name = name; }
                    public void run() { System.out.println(name); }
                }
                """);
        assertUnfinal(c, "ff/Listener", "name");
    }

    @Test
    void lostFinalWhenAnOverridableMethodRunsBeforeTheStore() {
        Map<String, byte[]> c = compile("""
                package ff;
                public class CallsOverridable {
                    private final int x;
                    CallsOverridable() { init(); x = 1; }
                    protected void init() {}
                }
                """);
        assertUnfinal(c, "ff/CallsOverridable", "x");
    }

    @Test
    void lostFinalWhenALambdaCapturesThisBeforeTheStore() {
        Map<String, byte[]> c = compile("""
                package ff;
                public class CapturesThis {
                    private final int x;
                    CapturesThis() { Runnable r = () -> System.out.println(this); Holder.publish(r); x = 1; }
                }
                """);
        assertUnfinal(c, "ff/CapturesThis", "x");
    }

    @Test
    void lostFinalWhenALeakOnOnePathPrecedesTheStore() {
        Map<String, byte[]> c = compile("""
                package ff;
                public class LeaksSometimes {
                    private final int x;
                    LeaksSometimes(boolean share) { if (share) Holder.publish(this); x = 1; }
                }
                """);
        assertUnfinal(c, "ff/LeaksSometimes", "x");
    }

    @Test
    void keptFinalWhenTheLeakComesOnlyAfterTheStore() {
        Map<String, byte[]> c = compile("""
                package ff;
                public class LeaksAfter {
                    private final int x;
                    LeaksAfter() { x = 1; Holder.publish(this); init(); }
                    protected void init() {}
                }
                """);
        assertKeptFinal(c, "ff/LeaksAfter", "x");
    }

    @Test
    void onlyTheFinalsStoredAfterTheLeakLoseFinal() {
        Map<String, byte[]> c = compile("""
                package ff;
                public class Partly {
                    private final int before;
                    private final int after;
                    Partly() { before = 1; Holder.publish(this); after = 2; }
                }
                """);
        RewriteResult r = rewrite(c, "ff/Partly");
        assertEquals(ACC_PRIVATE | ACC_FINAL, Bytecode.access(r.bytes(), "before"));
        assertEquals(ACC_PRIVATE | ACC_VOLATILE, Bytecode.access(r.bytes(), "after"));
        assertEquals(List.of("after"), ClassFacts.read(r.bytes()).marker.unfinal);
    }

    @Test
    void aLeakInAnyConstructorCounts() {
        Map<String, byte[]> c = compile("""
                package ff;
                public class TwoConstructors {
                    private final int x;
                    TwoConstructors() { x = 0; }
                    TwoConstructors(int v) { Holder.publish(this); x = v; }
                }
                """);
        assertUnfinal(c, "ff/TwoConstructors", "x");
    }

    private static final String LEAKY_BASE = """
            package ff;
            public class LeakyBase {
                protected LeakyBase() { init(); }
                protected void init() {}
            }
            """;
    private static final String SUB = """
            package ff;
            public class Sub extends LeakyBase {
                private final int y;
                public Sub() { super(); y = 2; }
                @Override protected void init() { System.out.println(y); }
            }
            """;

    @Test
    void subclassOfALeakySuperclassLosesFinalsStoredAfterSuper() {
        Map<String, byte[]> c = Bytecode.compile(LEAKY_BASE, SUB);
        assertUnfinal(c, "ff/Sub", "y");
    }

    @Test
    void subclassOfALeakFreeSuperclassKeepsFinals() {
        Map<String, byte[]> c = Bytecode.compile("""
                package ff;
                public class QuietBase {
                    protected final int b;
                    protected QuietBase() { b = 1; }
                }
                """, """
                package ff;
                public class QuietSub extends QuietBase {
                    private final int y;
                    public QuietSub() { super(); y = 2; }
                }
                """);
        assertKeptFinal(c, "ff/QuietSub", "y");
    }

    @Test
    void subclassOfAnUnknownSuperclassIsTreatedAsLeaky() {
        Map<String, byte[]> c = Bytecode.compile(LEAKY_BASE, SUB);
        // without the superclass's bytes the analysis cannot tell, so it takes the safe side
        RewriteResult r = new ClassRewriter(Policy.defaults(), ClassBytesSource.NONE).rewrite(c.get("ff/Sub"));
        assertEquals(ACC_PRIVATE | ACC_VOLATILE, Bytecode.access(r.bytes(), "y"));
        assertEquals(List.of("y"), r.unfinal());
    }

    /** A record's components are seen unset through a leak like any other class's finals. */
    @Test
    void recordsLoseFinalWhenTheCanonicalConstructorLeaks() {
        Map<String, byte[]> c = compile("""
                package ff;
                public record Point(int x, int y) {
                    public Point(int x, int y) { Holder.publish(this); this.x = x; this.y = y; }
                }
                """);
        RewriteResult r = rewrite(c, "ff/Point");
        assertEquals(ACC_PRIVATE | ACC_VOLATILE, Bytecode.access(r.bytes(), "x"));
        assertEquals(ACC_PRIVATE | ACC_VOLATILE, Bytecode.access(r.bytes(), "y"));
        assertEquals(List.of("x", "y"), r.unfinal());
        assertEquals(List.of("x", "y"), ClassFacts.read(r.bytes()).marker.unfinal);
        Bytecode.defineAndLink(Map.of("ff/Point", r.bytes(), "ff/Holder", c.get("ff/Holder")));
    }

    @Test
    void recordsWhoseConstructorDoesNotLeakKeepFinal() {
        Map<String, byte[]> c = compile("""
                package ff;
                public record Pair(int x, String y) {
                    public Pair { if (x < 0) throw new IllegalArgumentException(y); }
                }
                """);
        RewriteResult r = rewrite(c, "ff/Pair");
        assertEquals(ACC_PRIVATE | ACC_FINAL, Bytecode.access(r.bytes(), "x"));
        assertEquals(List.of(), r.unfinal());
    }

    /** HotSpot honours @Stable in the boot and platform loaders' classes alone; elsewhere vbd ignores it too. */
    @Test
    void stableIsHonouredInJdkClassesAlone() {
        // javac --release 17 cannot export the JDK's annotation package: compile against a stand-in, then rename it
        Map<String, byte[]> c = Bytecode.compile("""
                package ff;
                @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
                @interface Stable {}
                """, """
                package ff;
                public class Cache {
                    @Stable int[] table;
                }
                """);
        org.objectweb.asm.ClassWriter w = new org.objectweb.asm.ClassWriter(0);
        new org.objectweb.asm.ClassReader(c.get("ff/Cache")).accept(new org.objectweb.asm.commons.ClassRemapper(w,
                new org.objectweb.asm.commons.SimpleRemapper("ff/Stable", "jdk/internal/vm/annotation/Stable")), 0);
        byte[] cache = w.toByteArray();
        Map<String, byte[]> classes = Map.of("ff/Cache", cache);
        byte[] app = new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(classes)).rewrite(cache).bytes();
        assertEquals(ACC_VOLATILE, Bytecode.access(app, "table") & ACC_VOLATILE);
        byte[] jdk = new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(classes), true).rewrite(cache).bytes();
        assertEquals(0, Bytecode.access(jdk, "table") & ACC_VOLATILE);
    }

    @Test
    void decideReportsEachFieldsDecision() {
        Map<String, byte[]> c = compile("""
                package ff;
                public class Mixed {
                    static final int K = 1;
                    static int s;
                    volatile int v;
                    int p;
                    private final int safe;
                    private final int leaked;
                    Mixed() { safe = 1; Holder.publish(this); leaked = 2; }
                }
                """);
        ClassRewriter rewriter = new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(c));
        byte[] bytes = c.get("ff/Mixed");
        Map<String, FieldDecision> d = rewriter.decide(ClassFacts.read(bytes), bytes);
        assertEquals(Map.of("K", FieldDecision.KEEP, "s", FieldDecision.VOLATILE, "v", FieldDecision.KEEP,
                "p", FieldDecision.VOLATILE, "safe", FieldDecision.KEEP, "leaked", FieldDecision.UNFINAL_VOLATILE), d);
        assertEquals(java.util.Set.of("leaked"), rewriter.unsafeFinals(bytes));
    }

    /** Flags of field {@code field} of the rewritten {@code cl/A}, and the marker's lists. */
    private static RewriteResult rewriteWrites(byte[] a) {
        RewriteResult r = new ClassRewriter(Policy.defaults(), ClassBytesSource.NONE).rewrite(a);
        assertEquals(RewriteResult.Status.REWRITTEN, r.status());
        Bytecode.verify(r.bytes());
        Bytecode.defineAndLink(Map.of("cl/A", r.bytes()));
        return r;
    }

    @Test
    void finalsAClassFileOlderThan53WritesFromItsMethodsLoseFinal() {
        RewriteResult r = rewriteWrites(FinalWrites.of(org.objectweb.asm.Opcodes.V1_8)
                .setter("set", false).setter("setStatic", true).bytes());
        assertEquals(ACC_PUBLIC | ACC_VOLATILE, Bytecode.access(r.bytes(), "x"));
        assertEquals(ACC_PUBLIC | ACC_STATIC | ACC_VOLATILE, Bytecode.access(r.bytes(), "S"));
        assertEquals(java.util.Set.of("x", "S"), java.util.Set.copyOf(r.unfinal()));
        ClassFacts.Marker marker = ClassFacts.read(r.bytes()).marker;
        assertEquals(java.util.Set.of("x", "S"), java.util.Set.copyOf(marker.unfinal));
    }

    @Test
    void finalsWrittenOnlyByTheirConstructorAndInitialiserStayFinal() {
        RewriteResult r = rewriteWrites(FinalWrites.of(org.objectweb.asm.Opcodes.V1_8).bytes());
        assertEquals(ACC_PUBLIC | ACC_FINAL, Bytecode.access(r.bytes(), "x"));
        assertEquals(ACC_PUBLIC | ACC_STATIC | ACC_FINAL, Bytecode.access(r.bytes(), "S"));
        assertEquals(List.of(), r.unfinal());
    }

    @Test
    void aFinalAConstructorWritesIntoAnotherObjectLosesFinal() {
        RewriteResult r = rewriteWrites(FinalWrites.of(org.objectweb.asm.Opcodes.V17).constructorWritingOther().bytes());
        assertEquals(ACC_PUBLIC | ACC_VOLATILE, Bytecode.access(r.bytes(), "x"));
        assertEquals(ACC_PUBLIC | ACC_STATIC | ACC_FINAL, Bytecode.access(r.bytes(), "S"));
    }

    @Test
    void aFinalStoredAfterAThisCallToALeakingConstructorLosesFinal() {
        RewriteResult r = rewriteWrites(FinalWrites.of(org.objectweb.asm.Opcodes.V17).leakingConstructorThenThisCall().bytes());
        assertEquals(ACC_PUBLIC | ACC_VOLATILE, Bytecode.access(r.bytes(), "x"));
    }

    /**
     * An interface's fields must be {@code public static final}, so one that a method of a class
     * file older than 53 writes keeps {@code final}: a hole (guarantee.md), which the verifier reports.
     */
    @Test
    void anInterfacesStaticFinalStaysFinalEvenWhenWrittenOutsideItsInitialiser() {
        org.objectweb.asm.ClassWriter cw = new org.objectweb.asm.ClassWriter(org.objectweb.asm.ClassWriter.COMPUTE_MAXS);
        int itf = org.objectweb.asm.Opcodes.ACC_PUBLIC | org.objectweb.asm.Opcodes.ACC_INTERFACE | org.objectweb.asm.Opcodes.ACC_ABSTRACT;
        cw.visit(org.objectweb.asm.Opcodes.V1_8, itf, "cl/I", null, "java/lang/Object", null);
        cw.visitField(ACC_PUBLIC | ACC_STATIC | ACC_FINAL, "S", "I", null, null).visitEnd();
        org.objectweb.asm.MethodVisitor mv = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "set", "(I)V", null, null);
        mv.visitCode();
        mv.visitVarInsn(org.objectweb.asm.Opcodes.ILOAD, 0);
        mv.visitFieldInsn(org.objectweb.asm.Opcodes.PUTSTATIC, "cl/I", "S", "I");
        mv.visitInsn(org.objectweb.asm.Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        byte[] bytes = cw.toByteArray();
        RewriteResult r = new ClassRewriter(Policy.defaults(), ClassBytesSource.NONE).rewrite(bytes);
        assertEquals(ACC_PUBLIC | ACC_STATIC | ACC_FINAL, Bytecode.access(r.bytes(), "S"));
        Bytecode.defineAndLink(Map.of("cl/I", r.bytes()));
        dev.vbd.core.verify.VerifyReport report = new dev.vbd.core.verify.Verifier(Policy.defaults())
                .verify(List.of(dev.vbd.core.verify.ClassEntry.of("app", r.bytes())));
        assertEquals(1, report.nonSc(), report.findings()::toString);
        org.junit.jupiter.api.Assertions.assertTrue(report.findings().get(0).detail().contains("cl.I.S"), report.findings()::toString);
    }
}
