package dev.vbd.core.rewrite;

import dev.vbd.core.Conventions;
import dev.vbd.core.policy.Policy;
import dev.vbd.core.verify.ClassEntry;
import dev.vbd.core.verify.Verifier;
import dev.vbd.core.verify.VerifyReport;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static dev.vbd.core.rewrite.Bytecode.ACQUIRE;
import static dev.vbd.core.rewrite.Bytecode.FULL;
import static dev.vbd.core.rewrite.Bytecode.RELEASE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Speculative fields: the topmost program class of a hierarchy records each object's constructing
 * thread; an instance-field access asks the hierarchy's check whether the current thread owns the
 * object, the load before it loads and the store after it stores, and is fenced only if not.
 * Everything else is as with fenced fields.
 */
class SpeculativeFieldsTest {
    private static final Map<String, byte[]> CLASSES = Bytecode.compile("""
            package s;
            public class Point {
                int x;
                long y;
                static int count;
                public Point(int x, long y) { this.x = x; this.y = y; }
                int sum() { return x + (int) y; }
                void move(int dx, long dy) { x = dx; y = dy; count = dx; }
                @dev.vbd.Relaxed("test") int sumRelaxed() { return x + (int) y; }
            }
            """, """
            package s;
            public class Point3 extends Point {
                double z;
                public Point3() { super(1, 2); z = 3; }
                double z() { return z + x; }
            }
            """, """
            package s;
            public class Panel extends java.util.ArrayList<String> {
                int n;
            }
            """, """
            package s;
            public interface Shape { default int sides() { return 0; } }
            """, """
            package s;
            public class Sheep implements Cloneable {
                int n;
                public Sheep copy() throws CloneNotSupportedException { return (Sheep) super.clone(); }
                public int[] copy(int[] a) { return a.clone(); }
            }
            """);

    private static final String OWNED = "INVOKEDYNAMIC owned(Ljava/lang/Object;)Z [ // handle kind 0x6 : INVOKESTATIC "
            + Conventions.SPECULATION + ".owned(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;"
            + "Ljava/lang/invoke/MethodType;Ljava/lang/Class;)Ljava/lang/invoke/CallSite; // arguments: ";
    private static final String AFTER_LOAD = "INVOKESTATIC " + Conventions.SPECULATION + ".afterLoad (Z)V";
    private static final String AFTER_STORE = "INVOKESTATIC " + Conventions.SPECULATION + ".afterStore (Z)V";
    private static final String OWNER_INIT = "INVOKESTATIC java/lang/Thread.currentThread ()Ljava/lang/Thread;";

    private static ClassRewriter rewriter(Map<String, byte[]> classes) {
        return new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(classes)).fields(FieldMode.SPECULATIVE);
    }

    private static byte[] rewritten(String name) {
        return Bytecode.rewritten(rewriter(CLASSES), CLASSES, name);
    }

    private static String owned(String cls) {
        return OWNED + cls + ".class ]";
    }

    @Test
    void theTopmostProgramClassOfAHierarchyDeclaresTheOwnerAndSetsItBeforeSuper() {
        byte[] point = rewritten("s/Point");
        assertEquals(Opcodes.ACC_PRIVATE | Opcodes.ACC_TRANSIENT | Opcodes.ACC_SYNTHETIC,
                Bytecode.access(point, Conventions.OWNER_FIELD));
        assertEquals(List.of("ALOAD 0", OWNER_INIT, "PUTFIELD s/Point.vbd$owner : Ljava/lang/Thread;",
                "ALOAD 0", "INVOKESPECIAL java/lang/Object.<init> ()V"), Bytecode.of(point, "<init>").subList(0, 5));
        // a subclass of a program class shares its owner; one of a JDK class has its own
        assertTrue(Bytecode.node(rewritten("s/Point3")).fields.stream().noneMatch(f -> f.name.equals(Conventions.OWNER_FIELD)));
        assertFalse(Bytecode.of(rewritten("s/Point3"), "<init>").contains(OWNER_INIT));
        assertEquals(Opcodes.ACC_PRIVATE | Opcodes.ACC_TRANSIENT | Opcodes.ACC_SYNTHETIC,
                Bytecode.access(rewritten("s/Panel"), Conventions.OWNER_FIELD));
        assertTrue(Bytecode.node(rewritten("s/Shape")).fields.isEmpty());
    }

    @Test
    void aLoadChecksBeforeAndFencesOnlyWhenNotOwned() {
        assertEquals(List.of(
                "ALOAD 0", "DUP", owned("s.Point"), "SWAP", "GETFIELD s/Point.x : I", "SWAP", AFTER_LOAD,
                "ALOAD 0", "DUP", owned("s.Point"), "SWAP", "GETFIELD s/Point.y : J", "DUP2_X1", "POP2", AFTER_LOAD,
                "L2I", "IADD", "IRETURN"),
                Bytecode.of(rewritten("s/Point"), "sum"));
        // the check names the class the instruction names: its hierarchy is the object's
        List<String> z = Bytecode.of(rewritten("s/Point3"), "z");
        assertTrue(z.contains(owned("s.Point3")) && z.contains("GETFIELD s/Point3.x : I"), () -> String.valueOf(z));
    }

    @Test
    void aStoreChecksAfterItAndAStaticFieldKeepsItsFences() {
        assertEquals(List.of(
                "ALOAD 0", "ILOAD 1", RELEASE, "SWAP", "DUP_X1", "SWAP", "PUTFIELD s/Point.x : I",
                owned("s.Point"), AFTER_STORE,
                "ALOAD 0", "LLOAD 2", RELEASE, "DUP2_X1", "POP2", "DUP", "DUP2_X2", "POP2", "PUTFIELD s/Point.y : J",
                owned("s.Point"), AFTER_STORE,
                "ILOAD 1", RELEASE, "PUTSTATIC s/Point.count : I", FULL, "RETURN"),
                Bytecode.of(rewritten("s/Point"), "move"));
    }

    @Test
    void relaxedCodeAndAConstructorsUnpublishedStoresStayPlain() {
        byte[] point = rewritten("s/Point");
        assertEquals(List.of("ALOAD 0", "GETFIELD s/Point.x : I", "ALOAD 0", "GETFIELD s/Point.y : J", "L2I", "IADD",
                "IRETURN"), Bytecode.of(point, "sumRelaxed"));
        List<String> init = Bytecode.of(point, "<init>");
        assertEquals(List.of("ALOAD 0", "ILOAD 1", "PUTFIELD s/Point.x : I", "ALOAD 0", "LLOAD 2", "PUTFIELD s/Point.y : J"),
                init.subList(5, 11));
    }

    @Test
    void aCallThatMayReachObjectCloneChecksItsReceiverFirst() {
        byte[] sheep = rewritten("s/Sheep");
        assertEquals(List.of("ALOAD 0", "DUP", "INVOKESTATIC " + Conventions.SPECULATION + ".beforeClone (Ljava/lang/Object;)V",
                FULL, "INVOKESPECIAL java/lang/Object.clone ()Ljava/lang/Object;", FULL, "CHECKCAST s/Sheep", "ARETURN"),
                Bytecode.of(sheep, "copy()Ls/Sheep;"));
        // an array's clone copies elements, which are fenced in every mode: no check
        assertFalse(Bytecode.of(sheep, "copy([I)[I").stream().anyMatch(l -> l.contains("beforeClone")));

        VerifyReport ok = new Verifier(Policy.defaults()).verify(List.of(ClassEntry.of("app", sheep)));
        assertEquals(0, ok.nonSc(), () -> String.valueOf(ok.findings()));
        ClassNode cn = Bytecode.node(sheep);
        for (MethodNode m : cn.methods) {
            for (AbstractInsnNode i : m.instructions.toArray()) {
                if (i instanceof MethodInsnNode c && c.name.equals(Conventions.BEFORE_CLONE)) {
                    m.instructions.set(i, new org.objectweb.asm.tree.InsnNode(Opcodes.POP));
                }
            }
        }
        org.objectweb.asm.ClassWriter w = new org.objectweb.asm.ClassWriter(org.objectweb.asm.ClassWriter.COMPUTE_MAXS);
        cn.accept(w);
        VerifyReport bad = new Verifier(Policy.defaults()).verify(List.of(ClassEntry.of("app", w.toByteArray())));
        assertEquals(List.of("copy()Ls/Sheep;: CLONE"), bad.findings().stream().map(f -> f.method() + ": " + f.kind()).toList());
    }

    @Test
    void aClassFileTooOldForInvokedynamicKeepsTheFences() {
        Map<String, byte[]> old = new HashMap<>(CLASSES);
        byte[] b = old.get("s/Point").clone();
        b[6] = 0;
        b[7] = (byte) Opcodes.V1_6; // no invokedynamic before version 51
        old.put("s/Point", b);
        assertEquals(List.of("ALOAD 0", "GETFIELD s/Point.x : I", ACQUIRE,
                "ALOAD 0", "GETFIELD s/Point.y : J", ACQUIRE, "L2I", "IADD", "IRETURN"),
                Bytecode.of(Bytecode.rewritten(rewriter(old), old, "s/Point"), "sum"));
    }

    @Test
    void theJvmAcceptsTheRewrittenClasses() {
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (String n : List.of("s/Point", "s/Point3", "s/Panel", "s/Shape")) out.put(n, rewritten(n));
        assertEquals(4, Bytecode.defineAndLink(out).size());
    }

    @Test
    void theVerifierAcceptsTheChecksAndReportsABrokenOne() {
        List<ClassEntry> entries = new ArrayList<>();
        for (String n : List.of("s/Point", "s/Point3")) entries.add(ClassEntry.of("app", rewritten(n)));
        VerifyReport ok = new Verifier(Policy.defaults()).verify(entries);
        assertEquals(0, ok.nonSc(), () -> String.valueOf(ok.findings()));
        // sum: x, y; move: x, y; z(): z, x
        assertEquals(6, ok.speculativeAccesses());

        assertEquals(List.of("move(IJ)V: writes s.Point.x (I), neither volatile nor final nor fenced",
                        "move(IJ)V: writes s.Point.y (J), neither volatile nor final nor fenced"),
                brokenFindings(m -> {
                    // the fence after a store left to chance: afterStore removed (its answer popped)
                    for (AbstractInsnNode i : m.instructions.toArray()) {
                        if (i instanceof MethodInsnNode c && c.name.equals(Conventions.AFTER_STORE)) {
                            m.instructions.set(i, new org.objectweb.asm.tree.InsnNode(Opcodes.POP));
                        }
                    }
                }));
        assertEquals(List.of("sum()I: reads s.Point.x (I), neither volatile nor final nor fenced",
                        "sum()I: reads s.Point.y (J), neither volatile nor final nor fenced",
                        "move(IJ)V: writes s.Point.x (I), neither volatile nor final nor fenced",
                        "move(IJ)V: writes s.Point.y (J), neither volatile nor final nor fenced"),
                brokenFindings(m -> {
                    // a check that asks another hierarchy
                    for (AbstractInsnNode i : m.instructions.toArray()) {
                        if (i instanceof InvokeDynamicInsnNode d) {
                            d.bsmArgs = new Object[]{org.objectweb.asm.Type.getObjectType("java/lang/Object")};
                        }
                    }
                }));
    }

    /** The verifier's findings on s.Point with {@code breakIt} applied to its methods sum and move. */
    private static List<String> brokenFindings(Consumer<MethodNode> breakIt) {
        ClassNode cn = Bytecode.node(rewritten("s/Point"));
        for (MethodNode m : cn.methods) if (m.name.equals("sum") || m.name.equals("move")) breakIt.accept(m);
        org.objectweb.asm.ClassWriter w = new org.objectweb.asm.ClassWriter(org.objectweb.asm.ClassWriter.COMPUTE_MAXS);
        cn.accept(w);
        VerifyReport bad = new Verifier(Policy.defaults()).verify(List.of(ClassEntry.of("app", w.toByteArray())));
        return bad.findings().stream().map(f -> f.method() + ": " + f.detail()).toList();
    }
}
