package dev.vbd.core.layout;

import dev.vbd.core.policy.Policy;
import dev.vbd.core.rewrite.Bytecode;
import dev.vbd.core.rewrite.ClassRewriter;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Opcodes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Layout files, and the rewrite that gives the fields they name the JVM's @Contended. */
class LayoutTest {
    @Test
    void readsRulesWithGroupsAndComments() throws Exception {
        Layout l = Layout.parse("x.layout", """
                # a comment
                contended com.example.Counters#hits      # its own block
                contended com.example.Counters#misses pair
                contended com.example.Outer$Inner#ab
                """);
        assertEquals("", l.contended("com/example/Counters").apply("hits"));
        assertEquals("pair", l.contended("com/example/Counters").apply("misses"));
        assertNull(l.contended("com/example/Counters").apply("other"));
        assertEquals("", l.contended("com/example/Outer$Inner").apply("ab"));
        assertNull(l.contended("com/example/Other"));
        assertTrue(!l.isEmpty() && !l.checksum().isEmpty());
        assertTrue(Layout.parse("e", "# nothing\n\n").isEmpty());
    }

    @Test
    void namesTakeTheRelaxedConfigsGlobsAndTheFirstRuleGivesTheGroup() throws Exception {
        Layout l = Layout.parse("g", "contended com.example.stats.*#hits a\ncontended com.example.**#* b\n");
        assertEquals("a", l.contended("com/example/stats/Counters").apply("hits"));
        assertEquals("b", l.contended("com/example/stats/Counters").apply("misses"));
        assertEquals("b", l.contended("com/example/deep/er/Slots").apply("x"));
        assertNull(l.contended("org/example/Counters"));
    }

    @Test
    void aBadRuleIsNamedWithItsLine() {
        assertEquals("x.layout:2: unknown rule 'pad' (a layout has 'contended CLASS#FIELD [GROUP]' and 'stride CLASS#FIELD N')",
                assertThrows(LayoutException.class, () -> Layout.parse("x.layout", "\npad a.B#c\n")).getMessage());
        assertEquals("x.layout:1: 'a.B' is not CLASS#FIELD (com.example.Counters#hits)",
                assertThrows(LayoutException.class, () -> Layout.parse("x.layout", "contended a.B")).getMessage());
        assertEquals("x.layout:1: 'contended' takes CLASS#FIELD and an optional group, got 3 words",
                assertThrows(LayoutException.class, () -> Layout.parse("x.layout", "contended a.B#c g h")).getMessage());
    }

    @Test
    void differentLayoutsAreToldApartForTheStoreOfRewrites() throws Exception {
        assertNotEquals(Layout.parse("a", "contended a.B#c").checksum(), Layout.parse("a", "contended a.B#d").checksum());
    }

    private static final String COUNTERS = """
            package p;
            public class Counters {
                long hits;
                long misses;
                long kept;
                static long total;
            }
            """;

    @Test
    void theRewriteAnnotatesTheInstanceFieldsNamedAndNoOthers() throws Exception {
        Map<String, byte[]> classes = Bytecode.compile(COUNTERS);
        Layout layout = Layout.parse("t", "contended p.Counters#hits\ncontended p.Counters#kept g\ncontended p.Counters#total\n");
        ClassRewriter rewriter = new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(classes)).layout(layout);
        assertEquals(List.of("hits=", "kept=g"), contended(rewriter.rewrite(classes.get("p/Counters")).bytes()));
        assertEquals(List.of(), contended(new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(classes))
                .rewrite(classes.get("p/Counters")).bytes()));
    }

    /**
     * A layout that names no field of a class, as {@code vbd layout} writes for a program with nothing
     * to repair, rewrites it byte for byte as no layout does: what vbd+layout costs there is vbd's.
     */
    @Test
    void aLayoutThatNamesNoneOfAClasssFieldsChangesNoByteOfIt() throws Exception {
        Map<String, byte[]> classes = Bytecode.compile(COUNTERS);
        byte[] plain = new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(classes)).rewrite(classes.get("p/Counters")).bytes();
        for (String text : List.of("# nothing a layout can repair\n", "contended q.Other#hits\nstride q.Other#cells 16\n")) {
            ClassRewriter rewriter = new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(classes)).layout(Layout.parse("t", text));
            assertArrayEquals(plain, rewriter.rewrite(classes.get("p/Counters")).bytes(), text);
        }
    }

    @Test
    void aFieldAnnotatedAlreadyKeepsItsGroup() throws Exception {
        byte[] own = apply(Bytecode.compile(COUNTERS).get("p/Counters"), Map.of("kept", "own")::get);
        assertEquals(List.of("misses=", "kept=own"), contended(apply(own, Map.of("kept", "g", "misses", "")::get)));
    }

    private static byte[] apply(byte[] bytes, java.util.function.Function<String, String> fields) {
        ClassWriter writer = new ClassWriter(0);
        new ClassReader(bytes).accept(new ContendedFields(writer, fields), 0);
        return writer.toByteArray();
    }

    /** The fields carrying @Contended, each with its group. */
    private static List<String> contended(byte[] bytes) {
        List<String> out = new ArrayList<>();
        new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
                return new FieldVisitor(Opcodes.ASM9) {
                    @Override
                    public AnnotationVisitor visitAnnotation(String desc, boolean visible) {
                        if (!desc.equals(ContendedFields.CONTENDED) || !visible) return null;
                        out.add(name + "=");
                        return new AnnotationVisitor(Opcodes.ASM9) {
                            @Override
                            public void visit(String key, Object v) {
                                out.set(out.size() - 1, name + "=" + v);
                            }
                        };
                    }
                };
            }
        }, 0);
        return out;
    }
}
