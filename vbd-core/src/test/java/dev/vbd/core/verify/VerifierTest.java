package dev.vbd.core.verify;

import dev.vbd.core.Conventions;
import dev.vbd.core.policy.Policy;
import dev.vbd.core.rewrite.ClassRewriter;
import dev.vbd.core.rewrite.RewriteResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.objectweb.asm.Opcodes.*;

class VerifierTest {
    private static final Policy POLICY = Policy.defaults();

    /** Classes compiled by javac from {@link #SOURCES}, by internal name. */
    private static final Map<String, byte[]> compiled = new LinkedHashMap<>();

    private static final Map<String, String> SOURCES = Map.of(
            "t/Counter", """
                    package t;
                    import java.util.concurrent.atomic.AtomicInteger;
                    public class Counter {
                        int count;
                        long[] history = new long[4];
                        static final int[] TABLE = {3, 1, 4, 1, 5, 9, 2, 6};
                        final AtomicInteger hits = new AtomicInteger();
                        void tick(int i) {
                            count++;
                            history[i & 3] = count;
                            hits.lazySet(count + TABLE[i & 7]);
                        }
                        long[] snapshot() {
                            long[] copy = new long[4];
                            System.arraycopy(history, 0, copy, 0, 4);
                            return copy.clone();
                        }
                        @dev.vbd.Relaxed
                        long sum() {
                            long s = count;
                            for (long h : history) s += h;
                            return s;
                        }
                    }
                    """,
            "t/Holder", """
                    package t;
                    public class Holder {
                        public Object value;
                        public static int seen;
                    }
                    """);

    @BeforeAll
    static void compile(@TempDir Path dir) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of("--release", "17", "-d", dir.resolve("out").toString(),
                "-cp", Path.of(dev.vbd.Relaxed.class.getProtectionDomain().getCodeSource().getLocation().getPath()).toString()));
        for (Map.Entry<String, String> e : SOURCES.entrySet()) {
            Path src = dir.resolve("src").resolve(e.getKey() + ".java");
            Files.createDirectories(src.getParent());
            Files.writeString(src, e.getValue());
            args.add(src.toString());
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = javac.run(null, null, err, args.toArray(String[]::new));
        assertEquals(0, rc, err::toString);
        for (String name : SOURCES.keySet()) {
            compiled.put(name, Files.readAllBytes(dir.resolve("out").resolve(name + ".class")));
        }
    }

    private static byte[] rewrite(byte[] original, Map<String, byte[]> others) {
        ClassRewriter rw = new ClassRewriter(POLICY, others::get);
        RewriteResult r = rw.rewrite(original);
        assertEquals(RewriteResult.Status.REWRITTEN, r.status());
        return r.bytes();
    }

    private static VerifyReport verify(byte[]... classes) {
        List<ClassEntry> entries = new ArrayList<>();
        for (byte[] b : classes) entries.add(ClassEntry.of("app", b));
        return new Verifier(POLICY).verify(entries);
    }

    private static Set<String> sites(VerifyReport r) {
        Set<String> out = new TreeSet<>();
        for (Finding f : r.findings()) out.add(f.method() + "@" + f.offset() + ":" + f.kind());
        return out;
    }

    // --- hand-assembled classes: the offsets are known by construction ---

    /**
     * {@code t/Plain}: a non-volatile int field {@code x}, and
     * <pre>
     * int get(int[] a)         0 aload_1, 1 iconst_0, 2 iaload, 3 aload_0, 4 getfield x, 7 iadd, 8 ireturn
     * void put(int[] a, int[] b) 0 aload_1, 1 iconst_0, 2 iconst_5, 3 iastore,
     *                          4 aload_1, 5 iconst_0, 6 aload_2, 7 iconst_0, 8 iconst_1, 9 invokestatic arraycopy, 12 return
     * static int[] table()     0 iconst_2, 1 newarray int, 3 dup, 4 iconst_0, 5 bipush 7, 7 iastore, 8 areturn
     * </pre>
     */
    static byte[] plainClass() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES);
        cw.visit(V17, ACC_PUBLIC | ACC_SUPER, "t/Plain", null, "java/lang/Object", null);
        cw.visitField(0, "x", "I", null, null).visitEnd();
        MethodVisitor mv = cw.visitMethod(0, "get", "([I)I", null, null);
        mv.visitCode();
        mv.visitVarInsn(ALOAD, 1);
        mv.visitInsn(ICONST_0);
        mv.visitInsn(IALOAD);
        mv.visitVarInsn(ALOAD, 0);
        mv.visitFieldInsn(GETFIELD, "t/Plain", "x", "I");
        mv.visitInsn(IADD);
        mv.visitInsn(IRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        mv = cw.visitMethod(0, "put", "([I[I)V", null, null);
        mv.visitCode();
        mv.visitVarInsn(ALOAD, 1);
        mv.visitInsn(ICONST_0);
        mv.visitInsn(ICONST_5);
        mv.visitInsn(IASTORE);
        mv.visitVarInsn(ALOAD, 1);
        mv.visitInsn(ICONST_0);
        mv.visitVarInsn(ALOAD, 2);
        mv.visitInsn(ICONST_0);
        mv.visitInsn(ICONST_1);
        mv.visitMethodInsn(INVOKESTATIC, "java/lang/System", "arraycopy", "(Ljava/lang/Object;ILjava/lang/Object;II)V", false);
        mv.visitInsn(RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        mv = cw.visitMethod(ACC_STATIC, "table", "()[I", null, null);
        mv.visitCode();
        mv.visitInsn(ICONST_2);
        mv.visitIntInsn(NEWARRAY, T_INT);
        mv.visitInsn(DUP);
        mv.visitInsn(ICONST_0);
        mv.visitIntInsn(BIPUSH, 7);
        mv.visitInsn(IASTORE);
        mv.visitInsn(ARETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    /**
     * {@code t/Leak}, two methods that fill a new int[1] through a local; {@code leak()} first
     * stores it into the static field {@code sink}:
     * <pre>
     * static void leak()  0 iconst_1, 1 newarray int, 3 astore_0, 4 aload_0, 5 putstatic sink,
     *                     8 aload_0, 9 iconst_0, 10 iconst_1, 11 iastore, 12 return
     * static void keep()  the same without 4 and 5
     * </pre>
     */
    static byte[] leakClass() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES);
        cw.visit(V17, ACC_PUBLIC | ACC_SUPER, "t/Leak", null, "java/lang/Object", null);
        cw.visitField(ACC_STATIC, "sink", "[I", null, null).visitEnd();
        for (String name : List.of("leak", "keep")) {
            MethodVisitor mv = cw.visitMethod(ACC_STATIC, name, "()V", null, null);
            mv.visitCode();
            mv.visitInsn(ICONST_1);
            mv.visitIntInsn(NEWARRAY, T_INT);
            mv.visitVarInsn(ASTORE, 0);
            if (name.equals("leak")) {
                mv.visitVarInsn(ALOAD, 0);
                mv.visitFieldInsn(PUTSTATIC, "t/Leak", "sink", "[I");
            }
            mv.visitVarInsn(ALOAD, 0);
            mv.visitInsn(ICONST_0);
            mv.visitInsn(ICONST_1);
            mv.visitInsn(IASTORE);
            mv.visitInsn(RETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
        }
        cw.visitEnd();
        return cw.toByteArray();
    }

    @Test
    void plainStoreIntoAnArrayThatLeftTheMethodIsAFinding() {
        VerifyReport r = verify(leakClass());
        assertEquals(Set.of("leak()V@5:FIELD", "leak()V@11:ARRAY_STORE"), sites(r));
        assertEquals(1, r.localArrayAccesses(), "keep()'s store: its array never left the method");
    }

    @Test
    void rewrittenLocalArraysPassTheVerifier() {
        VerifyReport r = verify(rewrite(leakClass(), Map.of()));
        assertEquals(List.of(), r.findings());
        assertEquals(1, r.localArrayAccesses());
    }

    @Test
    void aLocalArrayAccessFencedWithoutTheProofCountsAsScNotAsUnshared() {
        VerifyReport optimised = verify(rewrite(plainClass(), Map.of()));
        ClassRewriter unproved = new ClassRewriter(POLICY, name -> null).optimise(dev.vbd.core.rewrite.Optimisations.NONE);
        VerifyReport r = verify(unproved.rewrite(plainClass()).bytes());
        assertEquals(List.of(), r.findings());
        assertEquals(0, r.localArrayAccesses());
        assertEquals(optimised.scSites() + optimised.localArrayAccesses(), r.scSites());
    }

    @Test
    void unrewrittenClassListsEachSiteWithItsOffset() {
        VerifyReport r = verify(plainClass());
        assertEquals(Set.of("get([I)I@2:ARRAY_LOAD", "get([I)I@4:FIELD", "put([I[I)V@3:ARRAY_STORE",
                "put([I[I)V@9:BULK"), sites(r));
        assertEquals(4, r.nonSc());
        assertEquals(1, r.uncovered());
        assertEquals(0, r.rewritten());
        assertEquals(1, r.localArrayAccesses(), "the array initialiser's store needs no fence");
        assertTrue(r.uncoveredClasses().get(0).reason().contains("no vbd marker"));
    }

    /**
     * A class shaped like a lambda form of {@code java.lang.invoke}: as generated, its spreader's
     * load and its element setter's store are findings; with its array accesses fenced, none is,
     * and the collector's stores into its own new array stay plain.
     */
    @Test
    void generatedInvokeCodeIsScOnceItsArraysAreFenced() {
        VerifyReport before = verify(dev.vbd.core.rewrite.LambdaFormLike.withArrays());
        assertEquals(Set.of("spread(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;@5:ARRAY_LOAD",
                "set(Ljava/lang/Object;II)V@6:ARRAY_STORE"), sites(before));
        VerifyReport after = verify(dev.vbd.core.rewrite.GeneratedArrayFences.fence(dev.vbd.core.rewrite.LambdaFormLike.withArrays()));
        assertEquals(List.of(), after.findings());
        assertEquals(1, after.rewritten());
        assertEquals(0, after.uncovered());
        assertEquals(1, after.localArrayAccesses(), "the collector's store into the array it made");
    }

    @Test
    void rewrittenClassIsSequentiallyConsistent() {
        VerifyReport r = verify(rewrite(plainClass(), Map.of()));
        assertEquals(List.of(), r.findings());
        assertEquals(1, r.rewritten());
        assertEquals(0, r.uncovered());
        assertEquals(4, r.scSites());
        // the rewriter and the verifier share the fresh-array rule: the store stayed plain and passes
        assertEquals(1, r.localArrayAccesses());
    }

    @Test
    void compiledProgramBeforeAndAfterRewrite() {
        byte[] counter = compiled.get("t/Counter");
        VerifyReport before = verify(counter);
        Set<Finding.Kind> kinds = new TreeSet<>();
        for (Finding f : before.findings()) kinds.add(f.kind());
        assertEquals(Set.of(Finding.Kind.ARRAY_LOAD, Finding.Kind.ARRAY_STORE, Finding.Kind.BULK,
                Finding.Kind.WEAK_MODE, Finding.Kind.FIELD), kinds);
        assertTrue(before.findings().stream().anyMatch(f -> f.method().equals("tick(I)V")
                && f.kind() == Finding.Kind.WEAK_MODE && f.detail().contains("lazySet")), before.findings()::toString);
        // TABLE's static initialiser is javac's array initialiser: no findings there
        assertTrue(before.findings().stream().noneMatch(f -> f.method().equals("<clinit>()V")), before.findings()::toString);
        assertTrue(before.relaxedSites() > 0, "sum() is @Relaxed even where unrewritten");

        VerifyReport after = verify(rewrite(counter, compiled));
        assertEquals(List.of(), after.findings());
        assertEquals(1, after.rewritten());
        assertTrue(after.scSites() >= 8, "sites checked: " + after.scSites());
        assertEquals(8, after.localArrayAccesses(), "TABLE's eight initialiser stores stay plain");
    }

    @Test
    void anArraysRuleIsReadFromTheMarkerAndFromThePolicy() throws Exception {
        Policy arrays = new Policy(dev.vbd.core.policy.RelaxedConfig.parse("test.relaxed", List.of("arrays t.Plain#get")));
        ClassRewriter rw = new ClassRewriter(arrays, Map.<String, byte[]>of()::get);
        byte[] after = rw.rewrite(plainClass()).bytes();
        // rewritten: get's iaload is plain and relaxed, its getfield of the field made volatile SC
        VerifyReport r = new Verifier(POLICY).verify(List.of(ClassEntry.of("app", after)));
        assertEquals(List.of(), r.findings());
        assertEquals(1, r.relaxedSites());
        // unrewritten: the policy says which sites are relaxed; the getfield is still not SC
        VerifyReport before = new Verifier(arrays).verify(List.of(ClassEntry.of("app", plainClass())));
        assertEquals(Set.of("get([I)I@4:FIELD"), sites(before).stream().filter(f -> f.startsWith("get(")).collect(
                java.util.stream.Collectors.toSet()));
        assertEquals(1, before.relaxedSites());
    }

    @Test
    void relaxedMethodSitesAreCountedNotReported() {
        VerifyReport after = verify(rewrite(compiled.get("t/Counter"), compiled));
        // sum(): getfield count, getfield history, laload  (javac's for-each reads the array once)
        assertEquals(3, after.relaxedSites());
        assertEquals(0, after.nonSc());
    }

    @Test
    void fieldOfAnUnrewrittenClassIsNotSc() {
        byte[] reader = accessor("t/Reader", "t/Holder", "value", "Ljava/lang/Object;", GETFIELD);
        byte[] holder = compiled.get("t/Holder");
        VerifyReport r = verify(rewrite(reader, Map.of("t/Holder", holder)), holder);
        assertEquals(Set.of("read(Ljava/lang/Object;)V@4:FIELD"), sites(r));
        assertTrue(r.findings().get(0).detail().contains("t.Holder.value"), r.findings()::toString);
        assertEquals(1, r.uncovered());

        VerifyReport both = verify(rewrite(reader, Map.of("t/Holder", holder)), rewrite(holder, Map.of()));
        assertEquals(0, both.nonSc(), both.findings()::toString);
        assertEquals(2, both.rewritten());
    }

    @Test
    void fieldOfAClassNeverLoadedIsUnresolvedNotNonSc() {
        byte[] reader = accessor("t/Reader", "t/Missing", "value", "Ljava/lang/Object;", GETFIELD);
        VerifyReport r = verify(rewrite(reader, Map.of()));
        assertEquals(0, r.nonSc());
        assertEquals(1, r.unresolvedFields());
    }

    @Test
    void fieldResolvesThroughSuperclass() {
        // t/Sub extends t/Holder; the instruction names t/Sub but the field is Holder's
        ClassWriter cw = new ClassWriter(0);
        cw.visit(V17, ACC_PUBLIC | ACC_SUPER, "t/Sub", null, "t/Holder", null);
        cw.visitEnd();
        byte[] sub = cw.toByteArray();
        byte[] reader = accessor("t/Reader", "t/Sub", "seen", "I", GETSTATIC);
        VerifyReport r = verify(reader, sub, compiled.get("t/Holder"));
        assertTrue(sites(r).contains("read(Ljava/lang/Object;)V@0:FIELD"), sites(r)::toString);
        assertEquals(0, r.unresolvedFields());
    }

    /** {@code void read(Object o)}: {@code 0 [getstatic | aload_1, checkcast(1..3), getfield(4)] ..., pop, return}. */
    private static byte[] accessor(String name, String owner, String field, String desc, int opcode) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES);
        cw.visit(V17, ACC_PUBLIC | ACC_SUPER, name, null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(0, "read", "(Ljava/lang/Object;)V", null, null);
        mv.visitCode();
        if (opcode == GETFIELD) {
            mv.visitVarInsn(ALOAD, 1);
            mv.visitTypeInsn(CHECKCAST, owner);
        }
        mv.visitFieldInsn(opcode, owner, field, desc);
        mv.visitInsn(Type.getType(desc).getSize() == 2 ? POP2 : POP);
        mv.visitInsn(RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    /** A marked class whose store is fenced, but a jump lands between release() and the store. */
    @Test
    void jumpPastTheReleaseFenceIsFound() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES);
        cw.visit(V17, ACC_PUBLIC | ACC_SUPER, "t/Jump", null, "java/lang/Object", null);
        marker(cw, List.of());
        MethodVisitor mv = cw.visitMethod(ACC_STATIC, "put", "([IZ)V", null, null);
        mv.visitCode();
        Label store = new Label();
        mv.visitVarInsn(ALOAD, 0);   // 0
        mv.visitInsn(ICONST_0);      // 1
        mv.visitInsn(ICONST_1);      // 2
        mv.visitVarInsn(ILOAD, 1);   // 3
        mv.visitJumpInsn(IFNE, store); // 4
        fence(mv, Conventions.RELEASE); // 7
        mv.visitLabel(store);
        mv.visitInsn(IASTORE);       // 10
        fence(mv, Conventions.FULL); // 11
        mv.visitInsn(RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        VerifyReport r = verify(cw.toByteArray());
        assertEquals(Set.of("put([IZ)V@10:ARRAY_STORE"), sites(r));
        assertEquals(1, r.rewritten());
    }

    /**
     * The inline acquire fence (x86-64): a load of the runtime's order field, dropped. {@code get}
     * is fenced; {@code early} loads the field before the element instead of after it; in
     * {@code jump} a branch lands between the fence's load and its POP; {@code put} has it where a
     * release fence belongs, which it does not stand for.
     */
    @Test
    void inlineAcquireCountsOnlyAfterTheLoad() {
        assumeTrue(Conventions.INLINE_FENCES, "the rewriter writes fences inline on x86-64 only");
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES);
        cw.visit(V17, ACC_PUBLIC | ACC_SUPER, "t/Inline", null, "java/lang/Object", null);
        marker(cw, List.of());
        MethodVisitor mv = cw.visitMethod(ACC_STATIC, "get", "([I)I", null, null);
        mv.visitCode();
        mv.visitVarInsn(ALOAD, 0);   // 0
        mv.visitInsn(ICONST_0);      // 1
        mv.visitInsn(IALOAD);        // 2
        order(mv);                   // 3, 6
        mv.visitInsn(IRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        mv = cw.visitMethod(ACC_STATIC, "early", "([I)I", null, null);
        mv.visitCode();
        mv.visitVarInsn(ALOAD, 0);   // 0
        mv.visitInsn(ICONST_0);      // 1
        order(mv);                   // 2, 5
        mv.visitInsn(IALOAD);        // 6
        mv.visitInsn(IRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        mv = cw.visitMethod(ACC_STATIC, "jump", "([IZ)I", null, null);
        mv.visitCode();
        Label pop = new Label();
        mv.visitVarInsn(ALOAD, 0);   // 0
        mv.visitInsn(ICONST_0);      // 1
        mv.visitInsn(IALOAD);        // 2
        mv.visitInsn(ICONST_1);      // 3
        mv.visitVarInsn(ILOAD, 1);   // 4
        mv.visitJumpInsn(IFNE, pop); // 5
        mv.visitInsn(POP);           // 8
        mv.visitFieldInsn(GETSTATIC, Conventions.RUNTIME, Conventions.ORDER, Conventions.ORDER_DESC); // 9
        mv.visitLabel(pop);
        mv.visitInsn(POP);           // 12
        mv.visitInsn(IRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        mv = cw.visitMethod(ACC_STATIC, "put", "([I)V", null, null);
        mv.visitCode();
        mv.visitVarInsn(ALOAD, 0);   // 0
        mv.visitInsn(ICONST_0);      // 1
        mv.visitInsn(ICONST_1);      // 2
        order(mv);                   // 3, 6
        mv.visitInsn(IASTORE);       // 7
        fence(mv, Conventions.FULL); // 8
        mv.visitInsn(RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        VerifyReport r = verify(cw.toByteArray());
        assertEquals(Set.of("early([I)I@6:ARRAY_LOAD", "jump([IZ)I@2:ARRAY_LOAD", "put([I)V@7:ARRAY_STORE"), sites(r));
        assertEquals(1, r.scSites(), "the fenced load; the order field's loads are fences, not accesses");
    }

    private static void order(MethodVisitor mv) {
        mv.visitFieldInsn(GETSTATIC, Conventions.RUNTIME, Conventions.ORDER, Conventions.ORDER_DESC);
        mv.visitInsn(POP);
    }

    @Test
    void plainFieldLinkOutsideRelaxedCodeIsFound() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES);
        cw.visit(V17, ACC_PUBLIC | ACC_SUPER, "t/Indy", null, "java/lang/Object", null);
        marker(cw, List.of("relaxed()I"));
        cw.visitField(ACC_VOLATILE, "x", "I", null, null).visitEnd();
        Handle bsm = new Handle(H_INVOKESTATIC, Conventions.RUNTIME, Conventions.PLAIN_FIELD_BSM,
                Conventions.PLAIN_FIELD_BSM_DESC, false);
        for (String m : new String[]{"relaxed", "strict"}) {
            MethodVisitor mv = cw.visitMethod(0, m, "()I", null, null);
            mv.visitCode();
            mv.visitVarInsn(ALOAD, 0);
            mv.visitInvokeDynamicInsn("x", "(Lt/Indy;)I", bsm, Type.getObjectType("t/Indy"), GETFIELD);
            mv.visitInsn(IRETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
        }
        cw.visitEnd();
        VerifyReport r = verify(cw.toByteArray());
        assertEquals(Set.of("strict()I@1:PLAIN_FIELD"), sites(r));
        assertEquals(1, r.relaxedSites());
    }

    @Test
    void intrinsicCandidatesWithHeapAccessesAreListedApart() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES);
        cw.visit(V17, ACC_PUBLIC | ACC_SUPER, "t/Intrinsic", null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(ACC_STATIC, "first", "([I)I", null, null);
        mv.visitAnnotation("Ljdk/internal/vm/annotation/IntrinsicCandidate;", true).visitEnd();
        mv.visitCode();
        mv.visitVarInsn(ALOAD, 0);
        mv.visitInsn(ICONST_0);
        mv.visitInsn(IALOAD);
        mv.visitInsn(IRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        VerifyReport r = verify(rewrite(cw.toByteArray(), Map.of()));
        assertEquals(0, r.nonSc());
        assertEquals(List.of(new VerifyReport.Intrinsic("t.Intrinsic", "first([I)I", 1)), r.intrinsics());
    }

    @Test
    void recordedMarkerStandsInForTheOneAJvmDrops() {
        byte[] rewritten = rewrite(plainClass(), Map.of());
        dev.vbd.core.analysis.ClassFacts.Marker m = dev.vbd.core.analysis.ClassFacts.read(rewritten).marker;
        byte[] withoutMarker = stripInvisibleAnnotations(rewritten);
        assertEquals(null, dev.vbd.core.analysis.ClassFacts.read(withoutMarker).marker);
        VerifyReport r = new Verifier(POLICY).verify(List.of(new ClassEntry("app", () -> withoutMarker, m)));
        assertEquals(1, r.rewritten());
        assertEquals(0, r.nonSc());
    }

    @Test
    void vbdsRuntimeClassesInTheJdkAreCountedNotChecked() {
        byte[] runtime = readsItsField("jdk/internal/misc/VbdTool", false, null);
        VerifyReport r = new Verifier(POLICY).verify(List.of(ClassEntry.of("boot", runtime), ClassEntry.of("app", plainClass())));
        assertEquals(2, r.classes());
        assertEquals(1, r.excluded());
        assertEquals(1, r.uncovered());
        // the same name from a program's loader is the program's
        VerifyReport app = verify(runtime);
        assertEquals(0, app.excluded());
        assertEquals(1, app.uncovered());
        assertEquals(1, app.nonSc());
    }

    /** A program's class is checked whatever its name: none makes it vbd's own or a harness's. */
    @Test
    void aProgramClassNamedAsVbdsOrJmhsIsChecked() {
        for (String name : List.of("dev/vbd/internal/Foo", "dev/vbd/core/X", "dev/vbd/agent/Y", "dev/vbd/shaded/Z",
                "org/openjdk/jmh/infra/Blackhole", "org/openjdk/jmh/infra/BlackholeX")) {
            VerifyReport r = verify(readsItsField(name, false, null));
            assertEquals(0, r.excluded(), name);
            assertEquals(1, r.uncovered(), name);
            assertEquals(Set.of("get()I@1:FIELD"), sites(r), name);
        }
    }

    /**
     * Bytes read back from a running JVM keep no invisible annotation, so a marker in them is one the
     * program declared (visible); a jar's class files are the program's too. Neither counts.
     */
    @Test
    void aForgedMarkerCountsForNothing() {
        for (boolean visible : new boolean[]{false, true}) {
            byte[] forged = readsItsField("dev/vbd/internal/Forged", visible, null);
            VerifyReport r = new Verifier(POLICY).verify(List.of(ClassEntry.unmarked("app", () -> forged, null)));
            assertEquals(0, r.rewritten());
            assertEquals(1, r.uncovered());
            assertEquals(1, r.nonSc());
        }
    }

    @Test
    void theMarkersNameAsAStringIsNoMarker() {
        byte[] literal = readsItsField("app/Literal", false, Conventions.MARKER_DESC);
        VerifyReport r = verify(literal);
        assertEquals(0, r.rewritten());
        assertEquals(1, r.uncovered());
        assertEquals(1, r.nonSc());
    }

    /**
     * A class with a plain {@code int x} and {@code int get()}: 0 aload_0, 1 getfield x, 4 ireturn.
     * A class named {@code *Forged} carries a marker it wrote itself, visible or not; with
     * {@code constant}, a method returns that string.
     */
    private static byte[] readsItsField(String name, boolean visibleMarker, String constant) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(V17, ACC_PUBLIC | ACC_SUPER, name, null, "java/lang/Object", null);
        if (name.endsWith("Forged")) cw.visitAnnotation(Conventions.MARKER_DESC, visibleMarker).visitEnd();
        cw.visitField(0, "x", "I", null, null).visitEnd();
        MethodVisitor mv = cw.visitMethod(ACC_PUBLIC, "get", "()I", null, null);
        mv.visitCode();
        mv.visitVarInsn(ALOAD, 0);
        mv.visitFieldInsn(GETFIELD, name, "x", "I");
        mv.visitInsn(IRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        if (constant != null) {
            MethodVisitor c = cw.visitMethod(ACC_STATIC, "name", "()Ljava/lang/String;", null, null);
            c.visitCode();
            c.visitLdcInsn(constant);
            c.visitInsn(ARETURN);
            c.visitMaxs(0, 0);
            c.visitEnd();
        }
        cw.visitEnd();
        return cw.toByteArray();
    }

    @Test
    void jsonFormRoundTrips() {
        VerifyReport r = verify(plainClass());
        r.put("mode", "test");
        @SuppressWarnings("unchecked")
        Map<String, Object> back = (Map<String, Object>) Json.parse(Json.write(r.toJson()));
        assertEquals(4L, back.get("nonSc"));
        assertEquals(1L, back.get("classes"));
        assertEquals(0L, back.get("rewritten"));
        assertEquals(1L, back.get("uncovered"));
        assertEquals("test", back.get("mode"));
        @SuppressWarnings("unchecked")
        Map<String, Object> first = ((List<Map<String, Object>>) back.get("findings")).get(0);
        assertEquals("t.Plain", first.get("class"));
        assertTrue(first.containsKey("offset") && first.containsKey("kind") && first.containsKey("detail"));
    }

    /**
     * Final fields written where final semantics do not cover the write: the verifier reports
     * each access it cannot prove (here the write and the read of {@code x}, the write of {@code S}),
     * and nothing once the rewrite has taken {@code final} away.
     */
    @Test
    void finalsWrittenOutsideTheirConstructionAreFindingsUntilRewritten() {
        byte[] a = dev.vbd.core.rewrite.FinalWrites.of(V1_8).setter("set", false).setter("setStatic", true).bytes();
        VerifyReport before = verify(a);
        assertTrue(sites(before).containsAll(Set.of("set(I)V@2:FIELD", "setStatic(I)V@1:FIELD")), sites(before)::toString);
        assertTrue(before.findings().stream().anyMatch(f -> f.detail().contains("final but written")), before.findings()::toString);
        VerifyReport after = verify(rewrite(a, Map.of()));
        assertEquals(0, after.nonSc(), after.findings()::toString);

        byte[] safe = dev.vbd.core.rewrite.FinalWrites.of(V1_8).bytes();
        VerifyReport kept = verify(rewrite(safe, Map.of()));
        assertEquals(0, kept.nonSc(), kept.findings()::toString);
    }

    @Test
    void aFinalWrittenAfterALeakingThisCallIsAFindingUntilRewritten() {
        byte[] a = dev.vbd.core.rewrite.FinalWrites.of(V17).leakingConstructorThenThisCall().bytes();
        VerifyReport before = verify(a);
        assertTrue(before.findings().stream().anyMatch(f -> f.detail().contains("cl.A.x")), before.findings()::toString);
        assertEquals(0, verify(rewrite(a, Map.of())).nonSc());
    }

    @Test
    void aFinalAConstructorWritesIntoAnotherObjectIsAFindingUntilRewritten() {
        byte[] a = dev.vbd.core.rewrite.FinalWrites.of(V17).constructorWritingOther().bytes();
        VerifyReport before = verify(a);
        assertTrue(before.findings().stream().anyMatch(f -> f.detail().contains("cl.A.x") && f.detail().contains("final but written")),
                before.findings()::toString);
        assertEquals(0, verify(rewrite(a, Map.of())).nonSc());
    }

    /**
     * {@code B extends A} stores its final after {@code super()}; the loader that defines B links
     * an A that publishes {@code this}, while another loader holds a harmless A by the same name.
     * The verifier judges B's final by the A of B's own loader: a finding while B keeps
     * {@code final}, none once the rewrite has taken it away.
     */
    @Test
    void aFinalIsJudgedByTheSuperclassItsOwnLoaderLinks() {
        Map<String, byte[]> leaky = dev.vbd.core.rewrite.Bytecode.compile("""
                package cf;
                public class A { public static Object last; public A() { last = this; } }
                """, """
                package cf;
                public class B extends A { private final int x; public B() { super(); x = 1; } public int x() { return x; } }
                """);
        byte[] benign = dev.vbd.core.rewrite.Bytecode.compileOne("""
                package cf;
                public class A { public static Object last; public A() { } }
                """);
        List<ClassEntry> asCompiled = List.of(ClassEntry.of("app", benign), ClassEntry.of("child", leaky.get("cf/A")),
                ClassEntry.of("child", leaky.get("cf/B")));
        VerifyReport before = new Verifier(POLICY).verify(asCompiled);
        assertTrue(before.findings().stream().anyMatch(f -> f.detail().contains("cf.B.x")), before.findings()::toString);

        byte[] b = new ClassRewriter(POLICY, leaky::get).rewrite(leaky.get("cf/B")).bytes();
        VerifyReport after = new Verifier(POLICY).verify(List.of(ClassEntry.of("app", benign),
                ClassEntry.of("child", rewrite(leaky.get("cf/A"), leaky)), ClassEntry.of("child", b)));
        assertTrue(after.findings().stream().noneMatch(f -> f.detail().contains("cf.B.x")), after.findings()::toString);
    }

    private static void marker(ClassWriter cw, List<String> relaxed) {
        AnnotationVisitor av = cw.visitAnnotation(Conventions.MARKER_DESC, false);
        av.visit("version", Conventions.REWRITE_VERSION);
        AnnotationVisitor arr = av.visitArray("relaxed");
        for (String r : relaxed) arr.visit(null, r);
        arr.visitEnd();
        av.visitEnd();
    }

    private static void fence(MethodVisitor mv, String name) {
        mv.visitMethodInsn(INVOKESTATIC, Conventions.RUNTIME, name, Conventions.FENCE_DESC, false);
    }

    private static byte[] stripInvisibleAnnotations(byte[] bytes) {
        org.objectweb.asm.ClassReader cr = new org.objectweb.asm.ClassReader(bytes);
        ClassWriter cw = new ClassWriter(cr, 0);
        cr.accept(new org.objectweb.asm.ClassVisitor(ASM9, cw) {
            @Override
            public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
                return visible ? super.visitAnnotation(descriptor, visible) : null;
            }
        }, 0);
        return cw.toByteArray();
    }
}
