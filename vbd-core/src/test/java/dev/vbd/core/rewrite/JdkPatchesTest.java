package dev.vbd.core.rewrite;

import dev.vbd.core.ClassBytesSource;
import dev.vbd.core.policy.Policy;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.SimpleRemapper;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

import java.util.List;
import java.util.Map;

import static dev.vbd.core.rewrite.Bytecode.FULL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The changes made to the JDK's own classes when it is prepared: bulk operations fenced in their
 * bodies, hidden classes routed through vbd's rewriter, and method handles and reflection routed
 * to fenced twins of native operations. Each is checked on the running JDK's real class file.
 */
class JdkPatchesTest {
    private static final ClassBytesSource JDK = Bytecode.RUNNING_JDK;
    private static final ClassRewriter REWRITER = ClassRewriter.forJdk(Policy.defaults(), JDK);

    private static byte[] prepared(String name) {
        byte[] before = JDK.find(name);
        assertNotNull(before, name);
        RewriteResult r = REWRITER.rewrite(before);
        assertEquals(RewriteResult.Status.REWRITTEN, r.status(), name);
        Bytecode.verify(r.bytes());
        return r.bytes();
    }

    private static List<String> code(MethodNode m) {
        return Bytecode.of(m);
    }

    @Test
    void arraysFillIsFencedOnEntryEveryReturnAndEveryException() {
        byte[] after = prepared("java/util/Arrays");
        for (String m : List.of("fill([IIII)V", "fill([Ljava/lang/Object;Ljava/lang/Object;)V",
                "copyOf([JI)[J", "copyOfRange([Ljava/lang/Object;II)[Ljava/lang/Object;")) {
            MethodNode mn = Bytecode.method(after, m);
            List<String> insns = code(mn);
            assertEquals(FULL, insns.get(0), m + " starts with a full fence");
            for (int i = 1; i < insns.size(); i++) {
                if (insns.get(i).matches("[ILFDA]?RETURN")) assertEquals(FULL, insns.get(i - 1), m + ": fence before " + i);
            }
            TryCatchBlockNode last = mn.tryCatchBlocks.get(mn.tryCatchBlocks.size() - 1);
            assertNull(last.type, m + ": the last handler catches everything");
            AbstractInsnNode h = last.handler;
            while (h.getOpcode() < 0) h = h.getNext();
            assertEquals(Opcodes.INVOKESTATIC, h.getOpcode(), m);
            assertEquals(Opcodes.ATHROW, h.getNext().getOpcode(), m + ": fence, then rethrow");
            // the body itself stays unordered: an element store inside is not fenced
            assertTrue(insns.stream().filter(FULL::equals).count() <= 2 + insns.stream().filter(s -> s.endsWith("RETURN")).count(), m);
        }
        // HotSpot's verifier checks the frames, the handler's included, on a renamed copy
        byte[] copy = rename(after, "java/util/Arrays", "fenced/Arrays");
        Bytecode.defineAndLink(Map.of("fenced/Arrays", copy));
    }

    @Test
    void unsafeCopyAndSetMemoryAreFencedButTheirNativesAreNot() {
        byte[] after = prepared("jdk/internal/misc/Unsafe");
        assertEquals(FULL, code(Bytecode.method(after, "copyMemory(Ljava/lang/Object;JLjava/lang/Object;JJ)V")).get(0));
        assertEquals(FULL, code(Bytecode.method(after, "setMemory(Ljava/lang/Object;JJB)V")).get(0));
        assertTrue(Bytecode.method(after, "copyMemory0(Ljava/lang/Object;JLjava/lang/Object;JJ)V").instructions.size() == 0);
    }

    @Test
    void theJdksDefinePathsCallVbdFirst() {
        String hiddenCall = "INVOKESTATIC java/lang/ClassLoader.defineClass0";
        String hiddenHook = "INVOKESTATIC java/lang/VbdDefineClass.defineClass0";
        int found = 0;
        // JDK 17 implements JavaLangAccess in System$2, later JDKs in System$1
        for (String name : List.of("java/lang/System$1", "java/lang/System$2")) {
            byte[] before = JDK.find(name);
            if (before == null) continue;
            String was = String.join("\n", Bytecode.all(before));
            if (!was.contains(hiddenCall)) continue;
            String now = String.join("\n", Bytecode.all(prepared(name)));
            assertTrue(now.contains(hiddenHook), name);
            assertTrue(!now.contains(hiddenCall), name);
            found++;
        }
        assertEquals(1, found, "one class calls defineClass0");
        // a class loader's defineClass, from an array or from a buffer
        String was = String.join("\n", Bytecode.all(JDK.find("java/lang/ClassLoader")));
        String now = String.join("\n", Bytecode.all(prepared("java/lang/ClassLoader")));
        for (String n : List.of("defineClass1", "defineClass2")) {
            assertTrue(was.contains("INVOKESTATIC java/lang/ClassLoader." + n), n);
            assertTrue(!now.contains("INVOKESTATIC java/lang/ClassLoader." + n), n);
            assertTrue(now.contains("INVOKESTATIC java/lang/VbdDefineClass." + n), n);
        }
    }

    @Test
    void theEndOfStartUpAsksWhetherTheImageRewrites() {
        List<String> code = code(Bytecode.method(prepared("java/lang/System"), "initPhase3()V"));
        int returns = 0;
        for (int i = 0; i < code.size(); i++) {
            if (!code.get(i).equals("RETURN")) continue;
            returns++;
            assertEquals("INVOKESTATIC java/util/concurrent/atomic/VbdRuntime.rewritesDefinedClasses ()Z", code.get(i - 2));
            assertEquals("POP", code.get(i - 1));
        }
        assertTrue(returns > 0, String.join("\n", code));
    }

    @Test
    void directMethodHandlesAndReflectionAskForTwins() {
        byte[] dmh = prepared("java/lang/invoke/DirectMethodHandle");
        List<String> make = code(Bytecode.method(dmh,
                "make(BLjava/lang/Class;Ljava/lang/invoke/MemberName;Ljava/lang/Class;)Ljava/lang/invoke/DirectMethodHandle;"));
        assertEquals(List.of("ALOAD 2", "ALOAD 1", "ALOAD 3",
                "INVOKESTATIC java/lang/invoke/VbdMethodHandles.redirect (Ljava/lang/invoke/MemberName;Ljava/lang/Class;Ljava/lang/Class;)Ljava/lang/invoke/MemberName;",
                "ASTORE 2"), make.subList(0, 5));

        byte[] rf = prepared("jdk/internal/reflect/ReflectionFactory");
        MethodNode m = Bytecode.node(rf).methods.stream().filter(x -> x.name.equals("newMethodAccessor")).findFirst().orElseThrow();
        assertEquals(List.of("ALOAD 1",
                "INVOKESTATIC java/util/concurrent/atomic/VbdRuntime.reflectiveTwin (Ljava/lang/reflect/Method;)Ljava/lang/reflect/Method;",
                "ASTORE 1"), code(m).subList(0, 3));
        MethodNode f = Bytecode.node(rf).methods.stream().filter(x -> x.name.equals("newFieldAccessor")).findFirst().orElseThrow();
        assertEquals(List.of("ALOAD 1",
                "INVOKESTATIC java/util/concurrent/atomic/VbdRuntime.reflectiveField (Ljava/lang/reflect/Field;)V"),
                code(f).subList(0, 2));
    }

    /** A VarHandle's access mode turned into a method handle is handed to vbd first, wherever that happens. */
    @Test
    void varHandleModesBecomingMethodHandlesAreNoted() {
        String note = "INVOKESTATIC java/lang/invoke/VbdMethodHandles.noteVarHandleMode (Ljava/lang/invoke/VarHandle$AccessMode;)V";
        List<String> toMh = code(Bytecode.method(prepared("java/lang/invoke/VarHandle"),
                "toMethodHandle(Ljava/lang/invoke/VarHandle$AccessMode;)Ljava/lang/invoke/MethodHandle;"));
        assertEquals(List.of("ALOAD 1", note), toMh.subList(0, 2));
        byte[] mhs = prepared("java/lang/invoke/MethodHandles");
        for (String m : List.of("varHandleInvoker", "varHandleExactInvoker")) {
            List<String> c = code(Bytecode.method(mhs, m + "(Ljava/lang/invoke/VarHandle$AccessMode;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodHandle;"));
            assertEquals(List.of("ALOAD 0", note), c.subList(0, 2), m);
        }
    }

    /** The JVM hands the agent's jar to a custom system class loader through this method; ClassLoader gains it. */
    @Test
    void classLoaderCanTakeTheAgentJar() {
        assertNull(Bytecode.node(JDK.find("java/lang/ClassLoader")).methods.stream()
                .filter(m -> m.name.equals("appendToClassPathForInstrumentation")).findFirst().orElse(null));
        MethodNode m = Bytecode.method(prepared("java/lang/ClassLoader"), "appendToClassPathForInstrumentation(Ljava/lang/String;)V");
        assertEquals(Opcodes.ACC_SYNTHETIC, m.access);
        assertEquals(List.of("ALOAD 1", "INVOKESTATIC jdk/internal/loader/VbdClassPath.append (Ljava/lang/String;)V", "RETURN"), code(m));
    }

    @Test
    void applicationClassesGetNoJdkPatches() {
        Map<String, byte[]> c = Bytecode.compile("""
                package app;
                public class Direct {
                    static Object make() { return null; }
                }
                """);
        byte[] after = Bytecode.rewritten(c, "app/Direct");
        assertEquals(Bytecode.of(c.get("app/Direct"), "make"), Bytecode.of(after, "make"));
    }

    private static byte[] rename(byte[] bytes, String from, String to) {
        ClassWriter w = new ClassWriter(0);
        new ClassReader(bytes).accept(new ClassRemapper(w, new SimpleRemapper(from, to)), 0);
        return w.toByteArray();
    }
}
