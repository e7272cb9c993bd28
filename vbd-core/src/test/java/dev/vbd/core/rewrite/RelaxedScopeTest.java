package dev.vbd.core.rewrite;

import dev.vbd.core.ClassBytesSource;
import dev.vbd.core.Conventions;
import dev.vbd.core.analysis.ClassFacts;
import dev.vbd.core.policy.Policy;
import dev.vbd.core.policy.RelaxedConfig;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import static dev.vbd.core.rewrite.Bytecode.ACQUIRE;
import static dev.vbd.core.rewrite.Bytecode.FULL;
import static dev.vbd.core.rewrite.Bytecode.RELEASE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Relaxed scopes: no fences and no renamed modes, and plain (invokedynamic-linked) access to
 * fields that vbd, not the programmer, made volatile.
 */
class RelaxedScopeTest {
    private static final String BSM = Conventions.RUNTIME + ".plainField" + Conventions.PLAIN_FIELD_BSM_DESC;

    /** The Textifier line of a relaxed field access. */
    static String indy(String name, String desc, String owner, int opcode) {
        return "INVOKEDYNAMIC " + name + desc + " [ // handle kind 0x6 : INVOKESTATIC " + BSM
                + " // arguments: " + owner.replace('/', '.') + ".class, " + opcode + " ]";
    }

    private static final Map<String, byte[]> COUNTER = Bytecode.compile("""
            package rx;
            import dev.vbd.Relaxed;
            public class Counter {
                int count;
                volatile int declared;
                static int total;
                int[] data;
                @Relaxed int read() { return count; }
                @Relaxed int readDeclared() { return declared; }
                @Relaxed void write(int v) { count = v; total = v; }
                @Relaxed int first() { return data[0]; }
                @Relaxed void store(int v) { data[0] = v; }
                @Relaxed void copy(int[] a) { System.arraycopy(a, 0, data, 0, 1); }
                @Relaxed void lazy(java.util.concurrent.atomic.AtomicInteger a) { a.lazySet(1); }
                int readStrict() { return count; }
                int firstStrict() { return data[0]; }
            }
            """);
    private static final byte[] BEFORE = COUNTER.get("rx/Counter");
    private static final byte[] AFTER = Bytecode.rewritten(COUNTER, "rx/Counter");

    @Test
    void getfieldOfAFieldVbdMadeVolatileBecomesPlainFieldIndy() {
        assertEquals(List.of("ALOAD 0", "GETFIELD rx/Counter.count : I", "IRETURN"), Bytecode.of(BEFORE, "read"));
        assertEquals(List.of("ALOAD 0", indy("count", "(Lrx/Counter;)I", "rx/Counter", Opcodes.GETFIELD), "IRETURN"),
                Bytecode.of(AFTER, "read"));
        InvokeDynamicInsnNode indy = indyIn(AFTER, "read");
        assertEquals(new Handle(Opcodes.H_INVOKESTATIC, Conventions.RUNTIME, Conventions.PLAIN_FIELD_BSM,
                Conventions.PLAIN_FIELD_BSM_DESC, false), indy.bsm);
        assertEquals(List.of(Type.getObjectType("rx/Counter"), Opcodes.GETFIELD), List.of(indy.bsmArgs));
    }

    @Test
    void putfieldAndPutstaticBecomePlainFieldIndy() {
        assertEquals(List.of("ALOAD 0", "ILOAD 1", "PUTFIELD rx/Counter.count : I",
                "ILOAD 1", "PUTSTATIC rx/Counter.total : I", "RETURN"), Bytecode.of(BEFORE, "write"));
        assertEquals(List.of("ALOAD 0", "ILOAD 1", indy("count", "(Lrx/Counter;I)V", "rx/Counter", Opcodes.PUTFIELD),
                "ILOAD 1", indy("total", "(I)V", "rx/Counter", Opcodes.PUTSTATIC), "RETURN"), Bytecode.of(AFTER, "write"));
    }

    @Test
    void getfieldOfAFieldDeclaredVolatileStaysGetfield() {
        List<String> code = List.of("ALOAD 0", "GETFIELD rx/Counter.declared : I", "IRETURN");
        assertEquals(code, Bytecode.of(BEFORE, "readDeclared"));
        assertEquals(code, Bytecode.of(AFTER, "readDeclared"));
    }

    @Test
    void relaxedMethodGetsNoArrayFences() {
        assertEquals(List.of("ALOAD 0", "GETFIELD rx/Counter.data : [I", "ICONST_0", "IALOAD", "IRETURN"),
                Bytecode.of(BEFORE, "first"));
        assertEquals(List.of("ALOAD 0", indy("data", "(Lrx/Counter;)[I", "rx/Counter", Opcodes.GETFIELD), "ICONST_0",
                "IALOAD", "IRETURN"), Bytecode.of(AFTER, "first"));
        assertEquals(List.of("ALOAD 0", indy("data", "(Lrx/Counter;)[I", "rx/Counter", Opcodes.GETFIELD), "ICONST_0",
                "ILOAD 1", "IASTORE", "RETURN"), Bytecode.of(AFTER, "store"));
    }

    @Test
    void relaxedMethodGetsNoBulkFencesAndKeepsWeakModes() {
        List<String> copy = Bytecode.of(AFTER, "copy");
        assertTrue(copy.contains("INVOKESTATIC java/lang/System.arraycopy (Ljava/lang/Object;ILjava/lang/Object;II)V"));
        assertTrue(copy.stream().noneMatch(List.of(ACQUIRE, RELEASE, FULL)::contains), copy::toString);
        assertEquals(Bytecode.of(BEFORE, "lazy"), Bytecode.of(AFTER, "lazy"));
    }

    @Test
    void methodsOutsideTheScopeAreStillRewritten() {
        assertEquals(List.of("ALOAD 0", "GETFIELD rx/Counter.count : I", "IRETURN"), Bytecode.of(AFTER, "readStrict"));
        assertEquals(List.of("ALOAD 0", "GETFIELD rx/Counter.data : [I", "ICONST_0", "IALOAD", ACQUIRE, "IRETURN"),
                Bytecode.of(AFTER, "firstStrict"));
    }

    @Test
    void markerListsTheRelaxedMethods() {
        ClassFacts.Marker marker = ClassFacts.read(AFTER).marker;
        assertEquals(List.of("read()I", "readDeclared()I", "write(I)V", "first()I", "store(I)V", "copy([I)V",
                "lazy(Ljava/util/concurrent/atomic/AtomicInteger;)V"), marker.relaxed);
        assertEquals(List.of("count", "total", "data"), marker.flipped);
    }

    @Test
    void relaxedCodeLinks() {
        Bytecode.defineAndLink(Map.of("rx/Counter", AFTER));
    }

    @Test
    void fieldOfAnotherClassAndInheritedFieldsResolveThroughTheSource() {
        Map<String, byte[]> c = Bytecode.compile("""
                package rx;
                public class Base { public int v; public volatile int w; }
                """, """
                package rx;
                public class Derived extends Base {}
                """, """
                package rx;
                @dev.vbd.Relaxed
                public class Reader {
                    int get(Derived d) { return d.v + d.w; }
                }
                """);
        byte[] after = Bytecode.rewritten(c, "rx/Reader");
        assertEquals(List.of("ALOAD 1", "GETFIELD rx/Derived.v : I", "ALOAD 1", "GETFIELD rx/Derived.w : I", "IADD",
                "IRETURN"), Bytecode.of(c.get("rx/Reader"), "get"));
        assertEquals(List.of("ALOAD 1", indy("v", "(Lrx/Derived;)I", "rx/Derived", Opcodes.GETFIELD),
                "ALOAD 1", "GETFIELD rx/Derived.w : I", "IADD", "IRETURN"), Bytecode.of(after, "get"));
    }

    @Test
    void relaxedClassKeepsItsFieldsAndCodePlain() {
        Map<String, byte[]> c = Bytecode.compile("""
                package rx;
                @dev.vbd.Relaxed
                public class Kernel {
                    int n;
                    int[] a;
                    int get(int i) { return a[i] + n; }
                }
                """);
        byte[] after = Bytecode.rewritten(c, "rx/Kernel");
        List<String> get = List.of("ALOAD 0", "GETFIELD rx/Kernel.a : [I", "ILOAD 1", "IALOAD",
                "ALOAD 0", "GETFIELD rx/Kernel.n : I", "IADD", "IRETURN");
        assertEquals(get, Bytecode.of(c.get("rx/Kernel"), "get"));
        assertEquals(get, Bytecode.of(after, "get"));
        assertEquals(0, Bytecode.access(after, "n"));
        assertEquals(List.of("<init>()V", "get(I)I"), ClassFacts.read(after).marker.relaxed);
    }

    private static final String PACKAGE_INFO = """
            @dev.vbd.Relaxed
            package rxp;
            """;
    private static final String IN_PACKAGE = """
            package rxp;
            public class InPackage {
                int n;
                static int first(int[] a) { return a[0]; }
            }
            """;

    @Test
    void packageRelaxedThroughPackageInfo() {
        Map<String, byte[]> c = Bytecode.compile(PACKAGE_INFO, IN_PACKAGE);
        assertTrue(c.containsKey("rxp/package-info"), c::toString);
        byte[] after = Bytecode.rewritten(c, "rxp/InPackage");
        assertEquals(List.of("ALOAD 0", "ICONST_0", "IALOAD", "IRETURN"), Bytecode.of(after, "first"));
        assertEquals(0, Bytecode.access(after, "n"));
    }

    @Test
    void packageInfoItselfIsNotRewritten() {
        Map<String, byte[]> c = Bytecode.compile(PACKAGE_INFO, IN_PACKAGE);
        RewriteResult r = new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(c)).rewrite(c.get("rxp/package-info"));
        assertEquals(RewriteResult.Status.EXCLUDED, r.status());
    }

    @Test
    void withoutThePackageInfoThePackageIsNotRelaxed() {
        Map<String, byte[]> c = Bytecode.compile(IN_PACKAGE);
        byte[] after = Bytecode.rewritten(c, "rxp/InPackage");
        assertEquals(List.of("ALOAD 0", "ICONST_0", "IALOAD", ACQUIRE, "IRETURN"), Bytecode.of(after, "first"));
    }

    private static final String CFG = """
            package cfg;
            public class Cfg {
                static int hot(int[] a) { return a[0]; }
                static int hot(long[] a) { return (int) a[0]; }
                static int cold(int[] a) { return a[0]; }
            }
            """;
    private static final String CFG_SUB = """
            package cfg.sub;
            public class Deep {
                static int hot(int[] a) { return a[0]; }
            }
            """;
    private static final List<String> HOT_INT_PLAIN = List.of("ALOAD 0", "ICONST_0", "IALOAD", "IRETURN");
    private static final List<String> HOT_INT_FENCED = List.of("ALOAD 0", "ICONST_0", "IALOAD", ACQUIRE, "IRETURN");
    private static final List<String> HOT_LONG_PLAIN = List.of("ALOAD 0", "ICONST_0", "LALOAD", "L2I", "IRETURN");
    private static final List<String> HOT_LONG_FENCED = List.of("ALOAD 0", "ICONST_0", "LALOAD", ACQUIRE, "L2I", "IRETURN");

    private static byte[] withConfig(String cls, String... rules) {
        try {
            Map<String, byte[]> c = Bytecode.compile(CFG, CFG_SUB);
            Policy policy = new Policy(RelaxedConfig.parse("test.relaxed", List.of(rules)));
            return Bytecode.rewritten(new ClassRewriter(policy, Bytecode.sourceOf(c)), c, cls);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void configMethodRuleCoversEveryOverload() {
        byte[] after = withConfig("cfg/Cfg", "method cfg.Cfg#hot");
        assertEquals(HOT_INT_PLAIN, Bytecode.of(after, "hot([I)I"));
        assertEquals(HOT_LONG_PLAIN, Bytecode.of(after, "hot([J)I"));
        assertEquals(HOT_INT_FENCED, Bytecode.of(after, "cold"));
    }

    @Test
    void configMethodRuleWithDescriptorCoversOneOverload() {
        byte[] after = withConfig("cfg/Cfg", "method cfg.Cfg#hot([J)I");
        assertEquals(HOT_INT_FENCED, Bytecode.of(after, "hot([I)I"));
        assertEquals(HOT_LONG_PLAIN, Bytecode.of(after, "hot([J)I"));
        assertEquals(List.of("hot([J)I"), ClassFacts.read(after).marker.relaxed);
    }

    private static final String MAILBOX = """
            package box;
            public class Mailbox {
                static int[] slots = new int[2];
                static int ready;
                static int take() { return ready + slots[1]; }
                static void put(int v) { slots[0] = v; }
            }
            """;

    @Test
    void configArraysRuleLeavesTheMethodsElementAccessesPlainAndItsFieldsVolatile() throws Exception {
        Map<String, byte[]> c = Bytecode.compile(MAILBOX);
        Policy policy = new Policy(RelaxedConfig.parse("test.relaxed", List.of("arrays box.Mailbox#take")));
        byte[] after = Bytecode.rewritten(new ClassRewriter(policy, Bytecode.sourceOf(c)), c, "box/Mailbox");
        // the fields stay as vbd makes them (volatile: a plain getstatic of a volatile field), the element load is plain
        assertEquals(List.of("GETSTATIC box/Mailbox.ready : I", "GETSTATIC box/Mailbox.slots : [I", "ICONST_1", "IALOAD",
                "IADD", "IRETURN"), Bytecode.of(after, "take"));
        assertTrue(Bytecode.of(after, "put").contains(RELEASE), "a method the rule does not name keeps its fences");
        ClassFacts.Marker marker = ClassFacts.read(after).marker;
        assertEquals(List.of("take()I"), marker.relaxedArrays);
        assertEquals(List.of(), marker.relaxed, "an arrays rule relaxes no field access: the method is not relaxed");
        assertTrue((ClassFacts.read(after).declaredFields.stream().filter(f -> f.name().equals("ready")).findFirst()
                .orElseThrow().access() & Opcodes.ACC_VOLATILE) != 0, "the field the method reads stays volatile");
    }

    @Test
    void configClassRule() {
        byte[] after = withConfig("cfg/Cfg", "class cfg.Cfg");
        assertEquals(HOT_INT_PLAIN, Bytecode.of(after, "hot([I)I"));
        assertEquals(HOT_LONG_PLAIN, Bytecode.of(after, "hot([J)I"));
        assertEquals(HOT_INT_PLAIN, Bytecode.of(after, "cold"));
        assertEquals(HOT_INT_FENCED, Bytecode.of(withConfig("cfg/sub/Deep", "class cfg.Cfg"), "hot"));
    }

    @Test
    void configPackageRuleWithDoubleStarCoversThePackageAndItsSubPackages() {
        assertEquals(HOT_INT_PLAIN, Bytecode.of(withConfig("cfg/sub/Deep", "package cfg.**"), "hot"));
        assertEquals(HOT_INT_PLAIN, Bytecode.of(withConfig("cfg/Cfg", "package cfg.**"), "cold"));
    }

    @Test
    void configPackageRuleWithoutStarsCoversThePackageOnly() {
        assertEquals(HOT_INT_PLAIN, Bytecode.of(withConfig("cfg/Cfg", "package cfg"), "cold"));
        assertEquals(HOT_INT_FENCED, Bytecode.of(withConfig("cfg/sub/Deep", "package cfg"), "hot"));
    }

    @Test
    void relaxedConstructorByAnnotation() {
        Map<String, byte[]> c = Bytecode.compile("""
                package rx;
                public class Ctor {
                    int[] table;
                    @dev.vbd.Relaxed Ctor() { table = new int[4]; table[0] = 1; }
                }
                """);
        byte[] after = Bytecode.rewritten(c, "rx/Ctor");
        String get = indy("table", "(Lrx/Ctor;)[I", "rx/Ctor", Opcodes.GETFIELD);
        String put = indy("table", "(Lrx/Ctor;[I)V", "rx/Ctor", Opcodes.PUTFIELD);
        assertEquals(List.of("ALOAD 0", "INVOKESPECIAL java/lang/Object.<init> ()V",
                "ALOAD 0", "ICONST_4", "NEWARRAY T_INT", put,
                "ALOAD 0", get, "ICONST_0", "ICONST_1", "IASTORE", "RETURN"), Bytecode.of(after, "<init>"));
    }

    @Test
    void withoutAByteSourceRelaxedCodeStillKnowsItsOwnClass() {
        // classes generated at run time have no bytes to find: their own fields are known from the class itself
        RewriteResult r = new ClassRewriter(Policy.defaults(), ClassBytesSource.NONE).rewrite(COUNTER.get("rx/Counter"));
        List<String> fences = List.of(ACQUIRE, RELEASE, FULL);
        List<String> read = Bytecode.of(r.bytes(), "read");
        assertEquals(List.of("ALOAD 0", indy("count", "(Lrx/Counter;)I", "rx/Counter", Opcodes.GETFIELD), "IRETURN"), read);
        assertTrue(read.stream().noneMatch(fences::contains));
    }

    @Test
    void withoutAByteSourceAnotherClassesFieldKeepsVolatileAccess() {
        // the owner cannot be resolved, so whether vbd made the field volatile is unknown: the access stays
        Map<String, byte[]> c = Bytecode.compile("""
                package rx;
                public class Other { public int v; }
                """, """
                package rx;
                public class ReadsOther {
                    @dev.vbd.Relaxed static int get(Other o) { return o.v; }
                }
                """);
        RewriteResult r = new ClassRewriter(Policy.defaults(), ClassBytesSource.NONE).rewrite(c.get("rx/ReadsOther"));
        assertEquals(List.of("ALOAD 0", "GETFIELD rx/Other.v : I", "IRETURN"), Bytecode.of(r.bytes(), "get"));
    }

    @Test
    void fieldsOfAnAlreadyRewrittenClassAreJudgedByItsMarker() {
        Map<String, byte[]> c = Bytecode.compile("""
                package rx;
                public class Stored { public int v; public volatile int w; }
                """, """
                package rx;
                public class UsesStored {
                    @dev.vbd.Relaxed static int get(Stored s) { return s.v + s.w; }
                }
                """);
        // as after the ahead-of-time JDK rewrite: the owner's bytes carry the marker and the volatile flags
        Map<String, byte[]> prepared = new java.util.HashMap<>(c);
        prepared.put("rx/Stored", Bytecode.rewritten(c, "rx/Stored"));
        byte[] after = Bytecode.rewritten(new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(prepared))
                        .jdkClasses(n -> n.equals("rx/Stored") ? prepared.get(n) : null),
                prepared, "rx/UsesStored");
        assertEquals(List.of("ALOAD 0", indy("v", "(Lrx/Stored;)I", "rx/Stored", Opcodes.GETFIELD),
                "ALOAD 0", "GETFIELD rx/Stored.w : I", "IADD", "IRETURN"), Bytecode.of(after, "get"));
        // the same bytes from a program's loader alone: their marker is not believed, and the volatile
        // field is the programmer's as far as vbd knows, so the access keeps its volatile read
        byte[] untrusted = Bytecode.rewritten(new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(prepared)),
                prepared, "rx/UsesStored");
        assertEquals(List.of("ALOAD 0", "GETFIELD rx/Stored.v : I", "ALOAD 0", "GETFIELD rx/Stored.w : I", "IADD",
                "IRETURN"), Bytecode.of(untrusted, "get"));
    }

    /**
     * A constructor may store its own fields before calling super() (javac does it for outer
     * instances and captured variables, and for any field since flexible constructor bodies).
     * The receiver is then uninitializedThis, which the JVM lets only PUTFIELD touch: such a
     * store cannot become an invokedynamic, even in a relaxed constructor.
     */
    @Test
    void relaxedConstructorStoreBeforeSuperStaysPutfield() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "rx/Early", null, "java/lang/Object", null);
        cw.visitField(0, "x", "I", null, null).visitEnd();
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "(I)V", null, null);
        mv.visitAnnotation(Conventions.RELAXED_DESC, true).visitEnd();
        mv.visitCode();
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitFieldInsn(Opcodes.PUTFIELD, "rx/Early", "x", "I");
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitFieldInsn(Opcodes.PUTFIELD, "rx/Early", "x", "I");
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        Map<String, byte[]> c = Map.of("rx/Early", cw.toByteArray());
        Bytecode.defineAndLink(c);
        byte[] after = Bytecode.rewritten(c, "rx/Early");
        Bytecode.defineAndLink(Map.of("rx/Early", after));
        assertEquals(List.of("ALOAD 0", "ILOAD 1", "PUTFIELD rx/Early.x : I",
                "ALOAD 0", "INVOKESPECIAL java/lang/Object.<init> ()V",
                "ALOAD 0", "ILOAD 1", indy("x", "(Lrx/Early;I)V", "rx/Early", Opcodes.PUTFIELD), "RETURN"),
                Bytecode.of(after, "<init>"));
    }

    /** Objects created before super() run their own {@code <init>} first: that call is not the super call. */
    @Test
    void relaxedConstructorCountsObjectsCreatedBeforeSuper() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "rx/Early2", null, "java/lang/Object", null);
        cw.visitField(0, "x", "I", null, null).visitEnd();
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        mv.visitAnnotation(Conventions.RELAXED_DESC, true).visitEnd();
        mv.visitCode();
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitTypeInsn(Opcodes.NEW, "java/lang/Object");
        mv.visitInsn(Opcodes.DUP);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        mv.visitInsn(Opcodes.POP);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitFieldInsn(Opcodes.PUTFIELD, "rx/Early2", "x", "I");
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitInsn(Opcodes.ICONST_2);
        mv.visitFieldInsn(Opcodes.PUTFIELD, "rx/Early2", "x", "I");
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        Map<String, byte[]> c = Map.of("rx/Early2", cw.toByteArray());
        Bytecode.defineAndLink(c);
        byte[] after = Bytecode.rewritten(c, "rx/Early2");
        Bytecode.defineAndLink(Map.of("rx/Early2", after));
        assertEquals(List.of("ALOAD 0", "NEW java/lang/Object", "DUP", "INVOKESPECIAL java/lang/Object.<init> ()V", "POP",
                "ALOAD 0", "ICONST_1", "PUTFIELD rx/Early2.x : I", "INVOKESPECIAL java/lang/Object.<init> ()V",
                "ALOAD 0", "ICONST_2", indy("x", "(Lrx/Early2;I)V", "rx/Early2", Opcodes.PUTFIELD), "RETURN"),
                Bytecode.of(after, "<init>"));
    }

    private static InvokeDynamicInsnNode indyIn(byte[] bytes, String method) {
        List<AbstractInsnNode> indys = StreamSupport.stream(Bytecode.method(bytes, method).instructions.spliterator(), false)
                .filter(i -> i.getOpcode() == Opcodes.INVOKEDYNAMIC).collect(Collectors.toList());
        assertEquals(1, indys.size());
        return (InvokeDynamicInsnNode) indys.get(0);
    }
}
