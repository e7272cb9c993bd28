package dev.vbd.core.rewrite;

import dev.vbd.core.ClassBytesSource;
import dev.vbd.core.Conventions;
import dev.vbd.core.analysis.ClassFacts;
import dev.vbd.core.analysis.LocalArrays;
import dev.vbd.core.policy.Policy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rewritten classes are still valid class files: structurally (CheckClassAdapter), by data
 * flow with max_stack and max_locals respected (BasicVerifier), and, for classes this JVM may
 * define, by HotSpot's own verifier against the StackMapTable frames.
 */
class ValidBytecodeTest {
    private static final ClassBytesSource JDK = Bytecode.RUNNING_JDK;

    @ParameterizedTest
    @ValueSource(strings = {"java/util/HashMap", "java/util/ArrayList", "java/util/TreeMap", "java/util/Arrays",
            "java/util/concurrent/ConcurrentHashMap", "java/util/concurrent/ForkJoinPool",
            "java/util/concurrent/atomic/AtomicIntegerArray", "java/util/regex/Pattern", "java/math/BigInteger",
            "java/lang/String", "java/lang/AbstractStringBuilder", "java/lang/Character", "java/util/Formatter",
            "java/lang/invoke/MethodHandles", "java/lang/invoke/VarHandle", "jdk/internal/misc/Unsafe",
            "java/nio/HeapByteBuffer", "java/util/zip/ZipFile", "java/lang/Thread"})
    void rewrittenJdkClassesAreValid(String name) {
        byte[] before = JDK.find(name);
        assertNotNull(before, name);
        RewriteResult r = new ClassRewriter(Policy.defaults(), JDK).rewrite(before);
        assertEquals(RewriteResult.Status.REWRITTEN, r.status());
        Bytecode.verify(r.bytes());
        assertFencesAndFlags(before, r.bytes());
    }

    /**
     * Array loads keep their opcode and gain an acquire right after, in every method outside a
     * relaxed scope, unless their array has not left the method ({@link LocalArrays}); every field the marker calls flipped is volatile and not final.
     */
    private static void assertFencesAndFlags(byte[] before, byte[] after) {
        ClassFacts facts = ClassFacts.read(after);
        ClassNode in = Bytecode.node(before);
        ClassNode out = Bytecode.node(after);
        assertEquals(in.methods.size(), out.methods.size());
        for (int m = 0; m < out.methods.size(); m++) {
            MethodNode mb = in.methods.get(m);
            MethodNode ma = out.methods.get(m);
            assertEquals(mb.name + mb.desc, ma.name + ma.desc);
            assertEquals(countLoads(mb), countLoads(ma), ma.name + ma.desc + ": array loads are kept");
            if (facts.marker.relaxed.contains(ma.name + ma.desc)) continue;
            java.util.BitSet unshared = LocalArrays.unsharedAccesses(in.name, mb);
            int ordinal = 0;
            for (AbstractInsnNode i = ma.instructions.getFirst(); i != null; i = i.getNext()) {
                boolean load = LocalArrays.isArrayLoad(i.getOpcode());
                if (!load && !LocalArrays.isArrayStore(i.getOpcode())) continue;
                if (load && !unshared.get(ordinal)) {
                    AbstractInsnNode next = i.getNext();
                    boolean inline = next instanceof org.objectweb.asm.tree.FieldInsnNode f && f.getOpcode() == Opcodes.GETSTATIC
                            && f.owner.equals(Conventions.RUNTIME) && f.name.equals(Conventions.ORDER)
                            && next.getNext().getOpcode() == Opcodes.POP;
                    assertTrue(Conventions.INLINE_FENCES ? inline
                                    : next instanceof MethodInsnNode && ((MethodInsnNode) next).name.equals("acquire"),
                            out.name + "." + ma.name + ma.desc + ": array load without acquire");
                }
                ordinal++;
            }
        }
        for (String f : facts.marker.flipped) {
            FieldNode fn = out.fields.stream().filter(x -> x.name.equals(f)).findFirst().orElseThrow();
            assertEquals(Opcodes.ACC_VOLATILE, fn.access & (Opcodes.ACC_VOLATILE | Opcodes.ACC_FINAL), f);
        }
    }

    private static int countLoads(MethodNode m) {
        int n = 0;
        for (AbstractInsnNode i = m.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i.getOpcode() >= Opcodes.IALOAD && i.getOpcode() <= Opcodes.SALOAD) n++;
        }
        return n;
    }

    /** Branches, loops, switches and handlers around fenced accesses: the frames must still hold. */
    @Test
    void controlFlowAroundFencesLinksInHotSpot() {
        Map<String, byte[]> c = Bytecode.compile("""
                package valid;
                import java.util.concurrent.atomic.AtomicLong;
                public class Flow {
                    int[] a = new int[8];
                    long[][] grid = new long[2][2];
                    Object[] objs;
                    static int total;
                    final AtomicLong counter = new AtomicLong();
                    int loop(int n) {
                        int s = 0;
                        for (int i = 0; i < n && i < a.length; i++) {
                            if (a[i] > 0) s += a[i]; else a[i] = -a[i];
                        }
                        return s;
                    }
                    long sw(int k) {
                        switch (k) {
                            case 0: return grid[0][0];
                            case 1: grid[1][1] = 7; return 1;
                            case 5: return a[k];
                            default: return k;
                        }
                    }
                    Object handler(int i) {
                        try {
                            return objs[i];
                        } catch (RuntimeException e) {
                            objs = new Object[] {e};
                            return objs[0];
                        } finally {
                            total++;
                        }
                    }
                    void lazy() { counter.lazySet(total); }
                    int[] copy() { int[] b = a.clone(); System.arraycopy(a, 0, b, 0, 1); return b; }
                    @dev.vbd.Relaxed int relaxedLoop() {
                        int s = 0;
                        for (int i = 0; i < a.length; i++) s += a[i] + total;
                        return s;
                    }
                }
                """);
        Map<String, byte[]> out = new LinkedHashMap<>();
        ClassRewriter rewriter = new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(c));
        for (String name : c.keySet()) {
            RewriteResult r = rewriter.rewrite(c.get(name));
            Bytecode.verify(r.bytes());
            out.put(name, r.bytes());
        }
        assertEquals(1, Bytecode.defineAndLink(out).size());
    }

    @Test
    void rewrittenFieldFlagsOfInheritedAndNestedClassesLink() {
        Map<String, byte[]> c = Bytecode.compile("""
                package valid;
                public class Outer {
                    private final int x;
                    Outer() { register(this); x = 1; }
                    static void register(Object o) {}
                    class Inner { int y = x; }
                    static class Leaf extends Outer { final long z; Leaf() { z = 2; } }
                }
                """);
        Map<String, byte[]> out = new LinkedHashMap<>();
        ClassRewriter rewriter = new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(c));
        for (String name : c.keySet()) {
            out.put(name, Bytecode.rewritten(rewriter, c, name));
        }
        assertEquals(3, Bytecode.defineAndLink(out).size());
        assertEquals(Opcodes.ACC_PRIVATE | Opcodes.ACC_VOLATILE, Bytecode.access(out.get("valid/Outer"), "x"));
        assertEquals(Opcodes.ACC_VOLATILE, Bytecode.access(out.get("valid/Outer$Leaf"), "z"),
                "Outer's constructor leaks this, so Leaf's final is stored after a possible leak");
        assertEquals(Opcodes.ACC_FINAL | Opcodes.ACC_SYNTHETIC, Bytecode.access(out.get("valid/Outer$Inner"), "this$0"));
    }

    /**
     * {@code static void stores(boolean skip, int[] a)}: a conditional branch over {@code n}
     * array stores, each four bytes long before the rewrite and ten after.
     */
    private static byte[] branchOverStores(String name, int n) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, name, null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "stores", "(Z[I)V", null, null);
        mv.visitCode();
        Label end = new Label();
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitJumpInsn(Opcodes.IFNE, end);
        for (int i = 0; i < n; i++) {
            mv.visitVarInsn(Opcodes.ALOAD, 1);
            mv.visitInsn(Opcodes.ICONST_0);
            mv.visitInsn(Opcodes.ICONST_1);
            mv.visitInsn(Opcodes.IASTORE);
        }
        mv.visitLabel(end);
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    /** Fences push a short forward branch past 32 KiB: ASM must widen it and keep the frames valid. */
    @Test
    void branchesWidenedByFencesStayValid() {
        byte[] before = branchOverStores("valid/Wide", 5000);
        byte[] after = Bytecode.rewritten(Map.of("valid/Wide", before), "valid/Wide");
        int fenced = 0;
        for (String line : Bytecode.of(after, "stores")) {
            if (line.equals(Bytecode.FULL)) fenced++;
        }
        assertEquals(5000, fenced);
        assertEquals(1, Bytecode.defineAndLink(Map.of("valid/Wide", after)).size());
    }

    @Test
    void methodThatOutgrowsTheCodeLimitIsARewriteExceptionNamingIt() {
        byte[] before = branchOverStores("valid/Huge", 12000);
        RewriteException e = assertThrows(RewriteException.class, () -> Bytecode.rewrite(before));
        assertEquals("valid/Huge", e.className());
        assertTrue(e.getMessage().contains("stores(Z[I)V"), e.getMessage());
        assertTrue(e.getMessage().contains("64 KiB"), e.getMessage());
    }
}
