package dev.vbd.core.rewrite;

import dev.vbd.core.Conventions;
import dev.vbd.core.policy.Policy;
import dev.vbd.core.verify.ClassEntry;
import dev.vbd.core.verify.Verifier;
import dev.vbd.core.verify.VerifyReport;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;

import java.util.List;
import java.util.Map;

import static dev.vbd.core.rewrite.Bytecode.ACQUIRE;
import static dev.vbd.core.rewrite.Bytecode.FULL;
import static dev.vbd.core.rewrite.Bytecode.RELEASE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fenced fields: the fields stay plain in the JVM, every access outside relaxed code carries the
 * fences of a volatile access, relaxed code keeps the plain instruction, and a constructor's
 * accesses to its own object before the object can have left it stay plain, with a release fence
 * where it may leave.
 */
class FencedFieldsTest {
    private static final Map<String, byte[]> CLASSES = Bytecode.compile("""
            package f;
            public class Point {
                int x;
                long y;
                volatile int declared;
                static int count;
                public Point(int x, long y) { this.x = x; this.y = y; }
                public Point() { this(1, 2); x = 3; }
                int sum() { return x + (int) y; }
                void move(int dx) { x = x + dx; count = dx; }
                int declared() { return declared; }
                @dev.vbd.Relaxed("test") int sumRelaxed() { return x + (int) y; }
                @dev.vbd.Relaxed("test") void moveRelaxed(int dx) { x = dx; }
            }
            """, """
            package f;
            public class Leaky {
                static Leaky last;
                int before;
                int after;
                final int fin;
                public Leaky() { before = 1; last = this; fin = 2; after = 3; }
                public Leaky(int v) { this(); before = v; }
            }
            """, """
            package f;
            public class User {
                static int read(Point p) { return p.x; }
                static int readDeclared(Point p) { return p.declared; }
                static int readElsewhere(gone.Missing m) { return m.v; }
                static int readJdk(java.awt.Point p) { return p.x; }
                static int readInherited(SubPoint p) { return p.x; }
            }
            """, """
            package f;
            public class SubPoint extends java.awt.Point {
            }
            """, """
            package f;
            public class Looping {
                static java.util.List<Looping> all = new java.util.ArrayList<>();
                int n;
                public Looping(int k) {
                    for (int i = 0; i < k; i++) { n = i; all.add(this); }
                }
            }
            """, """
            package f;
            public class Either {
                int v;
                public Either(Either other, boolean own) {
                    Either e = own ? this : other;
                    e.v = 1;
                    this.v = 2;
                }
            }
            """, """
            package gone;
            public class Missing { public int v; }
            """);

    private static final String PUBLISH = Conventions.INLINE_FENCES ? ACQUIRE : RELEASE;

    private static ClassRewriter rewriter(Map<String, byte[]> classes) {
        return new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(classes)).fields(FieldMode.FENCED);
    }

    private static byte[] rewritten(String name) {
        return Bytecode.rewritten(rewriter(CLASSES), CLASSES, name);
    }

    @Test
    void fieldsStayPlainAndAFinalFieldALeakCanExposeLosesFinalOnly() {
        byte[] point = rewritten("f/Point");
        assertEquals(0, Bytecode.access(point, "x") & Opcodes.ACC_VOLATILE);
        assertEquals(0, Bytecode.access(point, "count") & Opcodes.ACC_VOLATILE);
        assertEquals(Opcodes.ACC_VOLATILE, Bytecode.access(point, "declared") & Opcodes.ACC_VOLATILE);
        byte[] leaky = rewritten("f/Leaky");
        assertEquals(0, Bytecode.access(leaky, "fin") & (Opcodes.ACC_VOLATILE | Opcodes.ACC_FINAL));
    }

    @Test
    void loadsAndStoresOutsideConstructorsCarryTheFencesOfAVolatileAccess() {
        byte[] point = rewritten("f/Point");
        assertEquals(List.of(
                "ALOAD 0", "GETFIELD f/Point.x : I", ACQUIRE,
                "ALOAD 0", "GETFIELD f/Point.y : J", ACQUIRE, "L2I", "IADD", "IRETURN"),
                Bytecode.of(point, "sum"));
        assertEquals(List.of(
                "ALOAD 0", "ALOAD 0", "GETFIELD f/Point.x : I", ACQUIRE, "ILOAD 1", "IADD",
                RELEASE, "PUTFIELD f/Point.x : I", FULL,
                "ILOAD 1", RELEASE, "PUTSTATIC f/Point.count : I", FULL, "RETURN"),
                Bytecode.of(point, "move"));
    }

    @Test
    void aFieldTheProgrammerDeclaredVolatileNeedsNoFences() {
        assertEquals(List.of("ALOAD 0", "GETFIELD f/Point.declared : I", "IRETURN"),
                Bytecode.of(rewritten("f/Point"), "declared"));
        assertEquals(List.of("ALOAD 0", "GETFIELD f/Point.declared : I", "IRETURN"),
                Bytecode.of(rewritten("f/User"), "readDeclared"));
    }

    /** A class of the running JDK, as its modules hold it. */
    private static byte[] jdkClass(String name) {
        try (java.io.InputStream in = ClassLoader.getSystemResourceAsStream(name + ".class")) {
            return in == null ? null : in.readAllBytes();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** java.awt.Point as the JDK prepared with {@code mode} fields holds it: rewritten, with its marker. */
    private static byte[] preparedJdkPoint(FieldMode mode) {
        RewriteResult r = ClassRewriter.forJdk(Policy.defaults(), FencedFieldsTest::jdkClass).fields(mode)
                .rewrite(jdkClass("java/awt/Point"));
        assertEquals(RewriteResult.Status.REWRITTEN, r.status(), r::reason);
        return r.bytes();
    }

    private static List<String> readJdk(FieldMode jdk, FieldMode program) {
        Map<String, byte[]> classes = new java.util.HashMap<>(CLASSES);
        classes.put("java/awt/Point", preparedJdkPoint(jdk));
        ClassRewriter r = new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(classes)).fields(program);
        return Bytecode.of(Bytecode.rewritten(r, classes, "f/User"), "readJdk");
    }

    @Test
    void aFieldOfAJdkPreparedWithVolatileFieldsIsVolatileInTheJvmAndNeedsNoFences() {
        assertEquals(List.of("ALOAD 0", "GETFIELD java/awt/Point.x : I", "IRETURN"), readJdk(FieldMode.VOLATILE, FieldMode.FENCED));
    }

    @Test
    void aFieldOfAJdkPreparedWithFencedFieldsIsFencedAndNeverSpeculative() {
        List<String> fenced = List.of("ALOAD 0", "GETFIELD java/awt/Point.x : I", ACQUIRE, "IRETURN");
        assertEquals(fenced, readJdk(FieldMode.FENCED, FieldMode.FENCED));
        // the JDK's own code accesses it unchecked: an owner's fast path would miss another thread's access
        assertEquals(fenced, readJdk(FieldMode.FENCED, FieldMode.SPECULATIVE));
    }

    /**
     * The program's rewriter given the table of the JDK's fenced fields: it answers for a field of a
     * {@code java.*} class, declared there or inherited by a program class, without the class file.
     */
    private static List<String> readJdkWithTable(List<String> fencedKeys, String method) throws java.io.IOException {
        java.nio.file.Path file = java.nio.file.Files.createTempFile("fenced-fields", ".txt");
        try {
            assertTrue(JdkFencedFields.write(file, fencedKeys));
            Map<String, byte[]> classes = new java.util.HashMap<>(CLASSES);
            classes.put("java/awt/Point", preparedJdkPoint(FieldMode.FENCED));
            java.util.Set<String> asked = java.util.concurrent.ConcurrentHashMap.newKeySet();
            ClassRewriter r = new ClassRewriter(Policy.defaults(), name -> {
                asked.add(name);
                return classes.get(name);
            }).fields(FieldMode.FENCED).jdkFencedFields(JdkFencedFields.read(file.toFile()));
            List<String> code = Bytecode.of(Bytecode.rewritten(r, classes, "f/User"), method);
            assertFalse(asked.contains("java/awt/Point"), "read the JDK's class file: " + asked);
            return code;
        } finally {
            java.nio.file.Files.delete(file);
        }
    }

    @Test
    void theJdksTableOfFencedFieldsAnswersWithoutReadingTheJdk() throws Exception {
        JdkFencedFields.Builder jdk = new JdkFencedFields.Builder();
        jdk.add(preparedJdkPoint(FieldMode.FENCED));
        List<String> keys = List.copyOf(jdk.keys());
        assertEquals(java.util.Set.of("x.I", "y.I"), jdk.keys());
        assertEquals(List.of("ALOAD 0", "GETFIELD java/awt/Point.x : I", ACQUIRE, "IRETURN"), readJdkWithTable(keys, "readJdk"));
        assertEquals(List.of("ALOAD 0", "GETFIELD f/SubPoint.x : I", ACQUIRE, "IRETURN"), readJdkWithTable(keys, "readInherited"));
        // a field the table does not list needs no fences: the JDK declares it final or volatile
        assertEquals(List.of("ALOAD 0", "GETFIELD java/awt/Point.x : I", "IRETURN"), readJdkWithTable(List.of("y.I"), "readJdk"));
        assertEquals(List.of("ALOAD 0", "GETFIELD f/SubPoint.x : I", "IRETURN"), readJdkWithTable(List.of(), "readInherited"));
        // a JDK prepared with volatile fields has none
        JdkFencedFields.Builder volatileJdk = new JdkFencedFields.Builder();
        volatileJdk.add(preparedJdkPoint(FieldMode.VOLATILE));
        assertEquals(java.util.Set.of(), volatileJdk.keys());
    }

    @Test
    void theJdksOwnLoadersTakeNoTable() {
        assertThrows(IllegalStateException.class,
                () -> new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(CLASSES), true).jdkFencedFields(null));
        assertThrows(IllegalStateException.class,
                () -> ClassRewriter.forJdk(Policy.defaults(), Bytecode.sourceOf(CLASSES)).jdkFencedFields(null));
    }

    @Test
    void theJdksModulesTakeFencedFieldsWithPlainConstructorsAndPlainRelaxedMethods() throws Exception {
        byte[] point = preparedJdkPoint(FieldMode.FENCED);
        assertEquals(0, Bytecode.access(point, "x") & (Opcodes.ACC_VOLATILE | Opcodes.ACC_FINAL));
        assertEquals(List.of("ALOAD 0", "GETFIELD java/awt/Point.x : I", ACQUIRE, "I2D", "DRETURN"), Bytecode.of(point, "getX"));
        List<String> init = Bytecode.of(point, "<init>(II)V");
        assertEquals(List.of("ALOAD 0", "INVOKESPECIAL java/awt/geom/Point2D.<init> ()V",
                "ALOAD 0", "ILOAD 1", "PUTFIELD java/awt/Point.x : I",
                "ALOAD 0", "ILOAD 2", "PUTFIELD java/awt/Point.y : I", PUBLISH, "RETURN"), init);
        Policy relaxed = new Policy(dev.vbd.core.policy.RelaxedConfig.parse("test", List.of("method java.awt.Point#getX")));
        byte[] relaxedPoint = ClassRewriter.forJdk(relaxed, FencedFieldsTest::jdkClass).fields(FieldMode.FENCED)
                .rewrite(jdkClass("java/awt/Point")).bytes();
        assertEquals(List.of("ALOAD 0", "GETFIELD java/awt/Point.x : I", "I2D", "DRETURN"), Bytecode.of(relaxedPoint, "getX"));
        // with volatile fields, the same relaxed JDK method keeps the volatile access: no invokedynamic in the JDK
        byte[] volatilePoint = ClassRewriter.forJdk(relaxed, FencedFieldsTest::jdkClass).rewrite(jdkClass("java/awt/Point")).bytes();
        assertEquals(Opcodes.ACC_VOLATILE, Bytecode.access(volatilePoint, "x") & Opcodes.ACC_VOLATILE);
        assertEquals(List.of("ALOAD 0", "GETFIELD java/awt/Point.x : I", "I2D", "DRETURN"), Bytecode.of(volatilePoint, "getX"));
    }

    @Test
    void relaxedCodeKeepsThePlainInstruction() {
        byte[] point = rewritten("f/Point");
        assertEquals(List.of("ALOAD 0", "GETFIELD f/Point.x : I", "ALOAD 0", "GETFIELD f/Point.y : J", "L2I", "IADD",
                "IRETURN"), Bytecode.of(point, "sumRelaxed"));
        assertEquals(List.of("ALOAD 0", "ILOAD 1", "PUTFIELD f/Point.x : I", "RETURN"), Bytecode.of(point, "moveRelaxed"));
    }

    @Test
    void anotherClassFencesItsAccessesAndAClassItCannotReadCountsAsFenced() {
        assertEquals(List.of("ALOAD 0", "GETFIELD f/Point.x : I", ACQUIRE, "IRETURN"),
                Bytecode.of(rewritten("f/User"), "read"));
        Map<String, byte[]> withoutMissing = new java.util.HashMap<>(CLASSES);
        withoutMissing.remove("gone/Missing");
        byte[] user = Bytecode.rewritten(rewriter(withoutMissing), withoutMissing, "f/User");
        assertEquals(List.of("ALOAD 0", "GETFIELD gone/Missing.v : I", ACQUIRE, "IRETURN"),
                Bytecode.of(user, "readElsewhere"));
    }

    @Test
    void aConstructorStoresToItsOwnObjectPlainAndFencesItsReturn() {
        assertEquals(List.of(
                "ALOAD 0", "INVOKESPECIAL java/lang/Object.<init> ()V",
                "ALOAD 0", "ILOAD 1", "PUTFIELD f/Point.x : I",
                "ALOAD 0", "LLOAD 2", "PUTFIELD f/Point.y : J",
                PUBLISH, "RETURN"),
                Bytecode.of(rewritten("f/Point"), "<init>(IJ)V"));
        // this(...) calls a constructor that leaks nothing, so the object is still this thread's alone
        assertEquals(List.of(
                "ALOAD 0", "ICONST_1", "LDC 2L", "INVOKESPECIAL f/Point.<init> (IJ)V",
                "ALOAD 0", "ICONST_3", "PUTFIELD f/Point.x : I",
                PUBLISH, "RETURN"),
                Bytecode.of(rewritten("f/Point"), "<init>()V"));
    }

    @Test
    void withoutTheProofAConstructorFencesEveryStoreAndAddsNoReturnFence() {
        for (Optimisations without : List.of(Optimisations.LOCAL_ARRAYS, Optimisations.NONE)) {
            byte[] point = Bytecode.rewritten(rewriter(CLASSES).optimise(without), CLASSES, "f/Point");
            assertEquals(List.of(
                    "ALOAD 0", "INVOKESPECIAL java/lang/Object.<init> ()V",
                    "ALOAD 0", "ILOAD 1", RELEASE, "PUTFIELD f/Point.x : I", FULL,
                    "ALOAD 0", "LLOAD 2", RELEASE, "PUTFIELD f/Point.y : J", FULL,
                    "RETURN"),
                    Bytecode.of(point, "<init>(IJ)V"), without.word());
        }
    }

    @Test
    void onceThisMayHaveLeakedEveryLaterAccessIsFenced() {
        byte[] leaky = rewritten("f/Leaky");
        assertEquals(List.of(
                "ALOAD 0", "INVOKESPECIAL java/lang/Object.<init> ()V",
                "ALOAD 0", "ICONST_1", "PUTFIELD f/Leaky.before : I",
                "ALOAD 0", PUBLISH, RELEASE, "PUTSTATIC f/Leaky.last : Lf/Leaky;", FULL,
                "ALOAD 0", "ICONST_2", RELEASE, "PUTFIELD f/Leaky.fin : I", FULL,
                "ALOAD 0", "ICONST_3", RELEASE, "PUTFIELD f/Leaky.after : I", FULL,
                PUBLISH, "RETURN"),
                Bytecode.of(leaky, "<init>()V"));
        // the constructor this(...) calls leaks this: what follows it is fenced
        assertEquals(List.of(
                "ALOAD 0", "INVOKESPECIAL f/Leaky.<init> ()V",
                "ALOAD 0", "ILOAD 1", RELEASE, "PUTFIELD f/Leaky.before : I", FULL,
                "RETURN"),
                Bytecode.of(leaky, "<init>(I)V"));
    }

    @Test
    void aStoreALeakCanReachOnAnotherTripOfALoopIsFenced() {
        List<String> code = Bytecode.of(rewritten("f/Looping"), "<init>");
        int store = code.indexOf("PUTFIELD f/Looping.n : I");
        assertEquals(RELEASE, code.get(store - 1), () -> String.valueOf(code));
        assertEquals(FULL, code.get(store + 1), () -> String.valueOf(code));
    }

    @Test
    void aStoreToAnObjectThatIsThisOnlyOnSomePathsIsFenced() {
        List<String> code = Bytecode.of(rewritten("f/Either"), "<init>");
        assertEquals(List.of(RELEASE, "PUTFIELD f/Either.v : I", FULL), code.subList(code.indexOf("PUTFIELD f/Either.v : I") - 1,
                code.indexOf("PUTFIELD f/Either.v : I") + 2), () -> String.valueOf(code));
        assertEquals("ICONST_2", code.get(code.lastIndexOf("PUTFIELD f/Either.v : I") - 1), () -> String.valueOf(code));
    }

    @Test
    void theVerifierAcceptsUnpublishedAccessesOnlyWithTheirReleaseFence() {
        List<ClassEntry> rewritten = new java.util.ArrayList<>();
        for (String name : List.of("f/Point", "f/Leaky", "f/User", "f/Looping")) {
            rewritten.add(ClassEntry.of("app", rewritten(name)));
        }
        VerifyReport ok = new Verifier(Policy.defaults()).verify(rewritten);
        assertEquals(0, ok.nonSc(), () -> String.valueOf(ok.findings()));
        // Point(int, long) stores x and y, Point() x; Leaky() stores before before its leak
        assertEquals(4, ok.unpublishedAccesses());

        // without the fence before its return, Point's constructor stores are reported
        byte[] point = rewritten("f/Point");
        org.objectweb.asm.tree.ClassNode cn = Bytecode.node(point);
        for (org.objectweb.asm.tree.MethodNode m : cn.methods) {
            if (!m.name.equals("<init>")) continue;
            for (org.objectweb.asm.tree.AbstractInsnNode i : m.instructions.toArray()) {
                if (i instanceof org.objectweb.asm.tree.FieldInsnNode f && f.owner.equals(Conventions.RUNTIME)
                        || i.getOpcode() == Opcodes.POP || (i instanceof org.objectweb.asm.tree.MethodInsnNode c
                        && c.owner.equals(Conventions.RUNTIME))) {
                    m.instructions.remove(i);
                }
            }
        }
        org.objectweb.asm.ClassWriter w = new org.objectweb.asm.ClassWriter(org.objectweb.asm.ClassWriter.COMPUTE_MAXS);
        cn.accept(w);
        VerifyReport bad = new Verifier(Policy.defaults()).verify(List.of(ClassEntry.of("app", w.toByteArray())));
        List<String> details = bad.findings().stream().map(f -> f.method() + ": " + f.detail()).toList();
        assertEquals(List.of(
                "<init>(IJ)V: writes f.Point.x (I), neither volatile nor final nor fenced",
                "<init>(IJ)V: writes f.Point.y (J), neither volatile nor final nor fenced",
                "<init>()V: writes f.Point.x (I), neither volatile nor final nor fenced"), details);
    }

    @Test
    void theJdksModulesTakeNoSpeculativeFields() {
        assertThrows(IllegalStateException.class,
                () -> ClassRewriter.forJdk(Policy.defaults(), Bytecode.sourceOf(CLASSES)).fields(FieldMode.SPECULATIVE));
    }
}
