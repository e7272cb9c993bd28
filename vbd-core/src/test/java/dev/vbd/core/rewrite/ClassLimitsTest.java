package dev.vbd.core.rewrite;

import dev.vbd.core.ClassBytesSource;
import dev.vbd.core.analysis.ClassFacts;
import dev.vbd.core.policy.Policy;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Classes at the JVM's limits: tens of thousands of fields, a method near 64 KiB, a full constant pool. */
class ClassLimitsTest {
    private static RewriteResult rewrite(byte[] bytes, boolean leaveOversized) {
        return new ClassRewriter(Policy.defaults(), ClassBytesSource.NONE).rewrite(bytes, leaveOversized);
    }

    @Test
    void aClassWithSixtyThousandFieldsGetsEachFlagRight() {
        int n = 60_000;
        byte[] before = WideClass.generate("w/Wide", n);
        RewriteResult r = rewrite(before, false);
        assertEquals(RewriteResult.Status.REWRITTEN, r.status());
        int finals = WideClass.finals(n);
        // statics are plain: all flipped; finals stored after the constructor leaks this lose final
        Set<String> flipped = new HashSet<>(r.flipped());
        Set<String> unfinal = new HashSet<>(r.unfinal());
        assertEquals(n - finals / 2 + 1, flipped.size(), "every static, the late finals and 'seen'");
        assertEquals(finals - finals / 2, unfinal.size());
        for (int i = 0; i < n; i++) {
            String f = "f" + i;
            boolean early = i < finals / 2;
            boolean late = i >= finals / 2 && i < finals;
            assertEquals(!early, flipped.contains(f), f);
            assertEquals(late, unfinal.contains(f), f);
        }
        ClassFacts after = ClassFacts.read(r.bytes());
        assertEquals(n + 1, after.declaredFields.size());
        assertEquals(Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL, after.field("f0", "I").access());
        assertEquals(Opcodes.ACC_PUBLIC | Opcodes.ACC_VOLATILE, after.field("f" + (finals - 1), "I").access());
        assertEquals(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC | Opcodes.ACC_VOLATILE, after.field("f" + (n - 1), "I").access());
        assertTrue(after.marker.flipped("f" + (n - 1)));
        assertTrue(!after.marker.flipped("f0"));
        Bytecode.verify(r.bytes());
    }

    /** {@code big([I)V}: 16,000 int array stores, 64,001 bytes of code; {@code small([I)V}: one. */
    private static byte[] oversized() {
        ClassWriter cw = new ClassWriter(0);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, "o/Oversized", null, "java/lang/Object", null);
        cw.visitField(Opcodes.ACC_STATIC, "counter", "I", null, null).visitEnd();
        MethodVisitor big = cw.visitMethod(Opcodes.ACC_STATIC, "big", "([I)V", null, null);
        big.visitCode();
        for (int i = 0; i < 16_000; i++) {
            big.visitVarInsn(Opcodes.ALOAD, 0);
            big.visitInsn(Opcodes.ICONST_0);
            big.visitInsn(Opcodes.ICONST_1);
            big.visitInsn(Opcodes.IASTORE);
        }
        big.visitInsn(Opcodes.RETURN);
        big.visitMaxs(3, 1);
        big.visitEnd();
        MethodVisitor small = cw.visitMethod(Opcodes.ACC_STATIC, "small", "([I)V", null, null);
        small.visitCode();
        small.visitVarInsn(Opcodes.ALOAD, 0);
        small.visitInsn(Opcodes.ICONST_0);
        small.visitFieldInsn(Opcodes.GETSTATIC, "o/Oversized", "counter", "I");
        small.visitInsn(Opcodes.IASTORE);
        small.visitInsn(Opcodes.RETURN);
        small.visitMaxs(3, 1);
        small.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    @Test
    void aMethodThatWouldOutgrowTheCodeLimitStopsTheRewriteByName() {
        RewriteException e = assertThrows(RewriteException.class, () -> rewrite(oversized(), false));
        assertEquals("o/Oversized", e.className());
        assertTrue(e.getMessage().contains("big([I)V") && e.getMessage().contains("64 KiB"), e.getMessage());
    }

    @Test
    void aMethodThatWouldOutgrowTheCodeLimitCanBeLeftAloneAndTheRestRewritten() {
        byte[] before = oversized();
        RewriteResult r = rewrite(before, true);
        assertEquals(RewriteResult.Status.REWRITTEN, r.status());
        assertEquals(Set.of("big([I)V"), r.unfenced().keySet());
        assertTrue(r.unfenced().get("big([I)V").contains("64 KiB"), r.unfenced().toString());
        assertEquals(List.of("counter"), r.flipped(), "the method's class still has its fields flipped");
        Bytecode.verify(r.bytes());
        assertEquals(Bytecode.of(before, "big"), Bytecode.of(r.bytes(), "big"), "left exactly as compiled");
        assertEquals(List.of("ALOAD 0", "ICONST_0", "GETSTATIC o/Oversized.counter : I", Bytecode.RELEASE,
                "IASTORE", Bytecode.FULL, "RETURN"), Bytecode.of(r.bytes(), "small"));
        ClassFacts.Marker marker = ClassFacts.read(r.bytes()).marker;
        assertNotNull(marker);
        assertEquals(List.of("big([I)V"), marker.unfenced);
    }

    @Test
    void aConstantPoolThatVbdPushesOverTheLimitIsNamedAsSuch() {
        ClassWriter cw = new ClassWriter(0);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, "p/Packed", null, "java/lang/Object", null);
        MethodVisitor m = cw.visitMethod(Opcodes.ACC_STATIC, "store", "([I)V", null, null);
        m.visitCode();
        m.visitVarInsn(Opcodes.ALOAD, 0);
        m.visitInsn(Opcodes.ICONST_0);
        m.visitInsn(Opcodes.ICONST_1);
        m.visitInsn(Opcodes.IASTORE);
        m.visitInsn(Opcodes.RETURN);
        m.visitMaxs(3, 1);
        m.visitEnd();
        // room for the class's own entries (about 10), then filled to 65,530 of 65,535
        for (int i = 0; i < 65_518; i++) cw.newUTF8("u" + i);
        cw.visitEnd();
        byte[] bytes = cw.toByteArray();
        int entries = new ClassReader(bytes).getItemCount();
        assertTrue(entries > 65_500 && entries <= 65_535, "entries: " + entries);
        RewriteException e = assertThrows(RewriteException.class, () -> rewrite(bytes, true));
        assertEquals("p/Packed", e.className());
        assertTrue(e.getMessage().contains("p/Packed") && e.getMessage().contains(entries + " constant-pool entries")
                && e.getMessage().contains("vbd") && e.getMessage().contains("65535"), e.getMessage());
    }
}
