package dev.vbd.core.rewrite;

import dev.vbd.core.Conventions;

import dev.vbd.core.ClassBytesSource;
import dev.vbd.core.analysis.ClassFacts;
import dev.vbd.core.policy.Policy;
import dev.vbd.core.policy.RelaxedConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.objectweb.asm.Opcodes.ACC_FINAL;
import static org.objectweb.asm.Opcodes.ACC_PRIVATE;
import static org.objectweb.asm.Opcodes.ACC_PUBLIC;
import static org.objectweb.asm.Opcodes.ACC_STATIC;
import static org.objectweb.asm.Opcodes.ACC_VOLATILE;

/** Field declarations: which fields gain ACC_VOLATILE, and what the marker records. */
class FieldFlagsTest {
    private static final String FIELDS = """
            package f;
            public class Fields {
                int plain;
                private long counter;
                public Object ref;
                static int staticCount;
                static final int CONSTANT = 7;
                static final Object SHARED = new Object();
                volatile int declaredVolatile;
                static volatile boolean declaredStaticVolatile;
                @dev.vbd.Relaxed int relaxedField;
                @dev.vbd.Relaxed static int relaxedStatic;
                int configured;
            }
            """;

    private static final Map<String, byte[]> CLASSES = Bytecode.compile(FIELDS);
    private static final byte[] BEFORE = CLASSES.get("f/Fields");

    private static RewriteResult rewrite(Policy policy) {
        RewriteResult r = new ClassRewriter(policy, ClassBytesSource.NONE).rewrite(BEFORE);
        assertEquals(RewriteResult.Status.REWRITTEN, r.status());
        Bytecode.verify(r.bytes());
        return r;
    }

    @Test
    void nonFinalInstanceAndStaticFieldsBecomeVolatile() {
        byte[] after = rewrite(Policy.defaults()).bytes();
        assertEquals(0, Bytecode.access(BEFORE, "plain"));
        assertEquals(ACC_VOLATILE, Bytecode.access(after, "plain"));
        assertEquals(ACC_PRIVATE, Bytecode.access(BEFORE, "counter"));
        assertEquals(ACC_PRIVATE | ACC_VOLATILE, Bytecode.access(after, "counter"));
        assertEquals(ACC_PUBLIC, Bytecode.access(BEFORE, "ref"));
        assertEquals(ACC_PUBLIC | ACC_VOLATILE, Bytecode.access(after, "ref"));
        assertEquals(ACC_STATIC, Bytecode.access(BEFORE, "staticCount"));
        assertEquals(ACC_STATIC | ACC_VOLATILE, Bytecode.access(after, "staticCount"));
    }

    @Test
    void staticFinalFieldsAreUnchanged() {
        byte[] after = rewrite(Policy.defaults()).bytes();
        assertEquals(ACC_STATIC | ACC_FINAL, Bytecode.access(BEFORE, "CONSTANT"));
        assertEquals(ACC_STATIC | ACC_FINAL, Bytecode.access(after, "CONSTANT"));
        assertEquals(7, Bytecode.field(after, "CONSTANT").value, "the ConstantValue attribute survives");
        assertEquals(ACC_STATIC | ACC_FINAL, Bytecode.access(after, "SHARED"));
    }

    @Test
    void alreadyVolatileFieldsAreUnchangedAndNotRecordedAsFlipped() {
        RewriteResult r = rewrite(Policy.defaults());
        assertEquals(ACC_VOLATILE, Bytecode.access(r.bytes(), "declaredVolatile"));
        assertEquals(ACC_STATIC | ACC_VOLATILE, Bytecode.access(r.bytes(), "declaredStaticVolatile"));
        assertFalse(r.flipped().contains("declaredVolatile"));
        assertFalse(r.flipped().contains("declaredStaticVolatile"));
    }

    @Test
    void relaxedFieldsAreUnchanged() {
        byte[] after = rewrite(Policy.defaults()).bytes();
        assertEquals(0, Bytecode.access(after, "relaxedField"));
        assertEquals(ACC_STATIC, Bytecode.access(after, "relaxedStatic"));
    }

    @Test
    void markerListsExactlyTheFlippedFields() {
        RewriteResult r = rewrite(Policy.defaults());
        List<String> expected = List.of("plain", "counter", "ref", "staticCount", "configured");
        assertEquals(expected, r.flipped());
        assertEquals(List.of(), r.unfinal());
        ClassFacts facts = ClassFacts.read(r.bytes());
        assertNotNull(facts.marker, "rewritten class carries the marker");
        assertEquals(expected, facts.marker.flipped);
        assertEquals(List.of(), facts.marker.unfinal);
        assertEquals(List.of(), facts.marker.relaxed);
    }

    @Test
    void markerIsInvisibleToReflection() {
        RewriteResult r = rewrite(Policy.defaults());
        var cn = Bytecode.node(r.bytes());
        assertTrue(cn.visibleAnnotations == null || cn.visibleAnnotations.isEmpty());
        assertEquals(1, cn.invisibleAnnotations.size());
        assertEquals("Ldev/vbd/internal/Rewritten;", cn.invisibleAnnotations.get(0).desc);
        assertEquals(List.of("version", Conventions.REWRITE_VERSION), cn.invisibleAnnotations.get(0).values.subList(0, 2));
    }

    @Test
    void configFieldRuleKeepsTheFieldPlain() throws Exception {
        RelaxedConfig config = RelaxedConfig.parse("test.relaxed", List.of("field f.Fields#configured"));
        RewriteResult r = rewrite(new Policy(config));
        assertEquals(0, Bytecode.access(r.bytes(), "configured"));
        assertFalse(r.flipped().contains("configured"));
        assertEquals(ACC_VOLATILE, Bytecode.access(r.bytes(), "plain"), "the rule names one field only");
    }

    @Test
    void configFieldRuleWithGlobCoversMatchingFields() throws Exception {
        RelaxedConfig config = RelaxedConfig.parse("test.relaxed", List.of("field f.*#c*"));
        RewriteResult r = rewrite(new Policy(config));
        assertEquals(ACC_PRIVATE, Bytecode.access(r.bytes(), "counter"));
        assertEquals(0, Bytecode.access(r.bytes(), "configured"));
        assertEquals(List.of("plain", "ref", "staticCount"), r.flipped());
    }

    @Test
    void fieldsOfARelaxedClassAreUnchanged() {
        byte[] before = Bytecode.compileOne("""
                package f;
                @dev.vbd.Relaxed
                public class RelaxedFields {
                    int a;
                    static Object b;
                }
                """);
        RewriteResult r = Bytecode.rewrite(before);
        assertEquals(0, Bytecode.access(r.bytes(), "a"));
        assertEquals(ACC_STATIC, Bytecode.access(r.bytes(), "b"));
        assertEquals(List.of(), r.flipped());
        assertNotNull(ClassFacts.read(r.bytes()).marker, "a relaxed class is still marked as processed");
    }

    @Test
    void fieldsOfAClassRelaxedByConfigAreUnchanged() throws Exception {
        RelaxedConfig config = RelaxedConfig.parse("test.relaxed", List.of("class f.Fields"));
        RewriteResult r = rewrite(new Policy(config));
        assertEquals(0, Bytecode.access(r.bytes(), "plain"));
        assertEquals(ACC_STATIC, Bytecode.access(r.bytes(), "staticCount"));
        assertEquals(List.of(), r.flipped());
    }

    @Test
    void nestedClassOfARelaxedClassIsNotRelaxed() {
        Map<String, byte[]> classes = Bytecode.compile("""
                package f;
                @dev.vbd.Relaxed
                public class Outer {
                    int a;
                    static class Inner { int b; }
                }
                """);
        byte[] inner = Bytecode.rewritten(classes, "f/Outer$Inner");
        assertEquals(ACC_VOLATILE, Bytecode.access(inner, "b"));
    }

    @Test
    void interfaceConstantsAreUnchanged() {
        byte[] before = Bytecode.compileOne("""
                package f;
                public interface Constants {
                    int[] TABLE = {1, 2};
                }
                """);
        RewriteResult r = Bytecode.rewrite(before);
        assertEquals(ACC_PUBLIC | ACC_STATIC | ACC_FINAL, Bytecode.access(r.bytes(), "TABLE"));
        assertEquals(List.of(), r.flipped());
    }

    @Test
    void rewrittenFieldFlagsAreAcceptedByTheJvm() {
        RewriteResult r = rewrite(Policy.defaults());
        Class<?> c = Bytecode.defineAndLink(Map.of("f/Fields", r.bytes())).get(0);
        try {
            assertTrue(java.lang.reflect.Modifier.isVolatile(c.getDeclaredField("plain").getModifiers()));
            assertFalse(java.lang.reflect.Modifier.isVolatile(c.getDeclaredField("relaxedField").getModifiers()));
        } catch (NoSuchFieldException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Class files may declare two fields with one name and different types (obfuscators do it;
     * the JVM tells fields apart by name and descriptor). Each must get its own decision: the
     * final one stays final (final and volatile together are a ClassFormatError).
     */
    @Test
    void sameNamedFieldsOfDifferentTypesAreDecidedSeparately() {
        org.objectweb.asm.ClassWriter cw = new org.objectweb.asm.ClassWriter(org.objectweb.asm.ClassWriter.COMPUTE_MAXS);
        cw.visit(org.objectweb.asm.Opcodes.V17, ACC_PUBLIC, "f/Overloaded", null, "java/lang/Object", null);
        cw.visitField(ACC_FINAL, "a", "I", null, null).visitEnd();
        cw.visitField(0, "a", "Ljava/lang/String;", null, null).visitEnd();
        cw.visitField(ACC_STATIC | ACC_FINAL, "b", "J", null, 1L).visitEnd();
        cw.visitField(ACC_STATIC, "b", "I", null, null).visitEnd();
        org.objectweb.asm.MethodVisitor mv = cw.visitMethod(ACC_PUBLIC, "<init>", "()V", null, null);
        mv.visitCode();
        mv.visitVarInsn(org.objectweb.asm.Opcodes.ALOAD, 0);
        mv.visitMethodInsn(org.objectweb.asm.Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        mv.visitVarInsn(org.objectweb.asm.Opcodes.ALOAD, 0);
        mv.visitInsn(org.objectweb.asm.Opcodes.ICONST_1);
        mv.visitFieldInsn(org.objectweb.asm.Opcodes.PUTFIELD, "f/Overloaded", "a", "I");
        mv.visitInsn(org.objectweb.asm.Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        byte[] before = cw.toByteArray();
        byte[] after = Bytecode.rewritten(Map.of("f/Overloaded", before), "f/Overloaded");
        var fields = Bytecode.node(after).fields;
        assertEquals(List.of("a I " + ACC_FINAL, "a Ljava/lang/String; " + ACC_VOLATILE,
                        "b J " + (ACC_STATIC | ACC_FINAL), "b I " + (ACC_STATIC | ACC_VOLATILE)),
                fields.stream().map(f -> f.name + " " + f.desc + " " + f.access).toList());
        Bytecode.defineAndLink(Map.of("f/Overloaded", after));
    }
}
