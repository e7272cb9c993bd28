package dev.vbd.core.layout;

import dev.vbd.core.Conventions;
import dev.vbd.core.rewrite.Bytecode;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which stride rules the rewrite can prove sound, and what it does to the code where it can. */
class StridedArraysTest {
    private static final String SLOTS = """
            package p;
            public class Slots {
                private final long[] counts;
                public Slots(int n) { counts = new long[n]; }
                public void add(int i, long d) { counts[i] += d; }
                public long sum() { long s = 0; for (long c : counts) s += c; return s; }
                public int size() { return counts.length; }
                public boolean empty() { return counts == null; }
            %s
            }
            """;

    /** The rewritten class, and what was said of the rules left out. */
    private record Result(byte[] bytes, List<String> warnings) {}

    private static Result rewrite(String extra, String... others) throws Exception {
        List<String> sources = new ArrayList<>(List.of(SLOTS.formatted(extra)));
        sources.addAll(List.of(others));
        Map<String, byte[]> classes = Bytecode.compile(sources.toArray(String[]::new));
        List<String> warnings = new ArrayList<>();
        StridedArrays s = new StridedArrays(Layout.parse("t", "stride p.Slots#counts 16"), warnings::add);
        byte[] bytes = classes.get("p/Slots");
        ClassWriter w = new ClassWriter(0);
        new ClassReader(bytes).accept(s.wrap("p/Slots", bytes, Bytecode.sourceOf(classes), w), 0);
        return new Result(w.toByteArray(), warnings);
    }

    /** The calls of VbdRuntime's stride helpers, by method. */
    private static List<String> helperCalls(byte[] bytes) {
        ClassNode n = new ClassNode();
        new ClassReader(bytes).accept(n, 0);
        List<String> calls = new ArrayList<>();
        for (MethodNode m : n.methods) {
            for (AbstractInsnNode i : m.instructions) {
                if (i instanceof MethodInsnNode c && c.owner.equals(Conventions.RUNTIME) && c.name.startsWith("strided")) {
                    calls.add(m.name + ":" + c.name);
                }
            }
        }
        return calls;
    }

    @Test
    void aPrivateArrayUsedOnlyForItsElementsAndLengthIsStrided() throws Exception {
        Result r = rewrite("");
        assertEquals(List.of(), r.warnings());
        assertEquals(List.of("<init>:stridedLength", "add:stridedIndex", "add:stridedIndex", "sum:stridedCount", "sum:stridedIndex",
                "size:stridedCount"), helperCalls(r.bytes()));
    }

    @Test
    void anArrayThatLeavesItsClassIsNotStrided() throws Exception {
        Result r = rewrite("    public long[] raw() { return counts; }");
        assertEquals(List.of("the layout's stride for p.Slots#counts is left out: its array is used otherwise in p.Slots.raw (line 9, returned)"),
                r.warnings());
        assertEquals(List.of(), helperCalls(r.bytes()));
        assertTrue(rewrite("    public void fill() { java.util.Arrays.fill(counts, 1); }").warnings().get(0)
                .endsWith("its array is used otherwise in p.Slots.fill (line 9, passed to a method)"));
    }

    @Test
    void anArrayFromElsewhereIsNotStrided() throws Exception {
        Result r = rewrite("    private Slots(long[] given) { counts = given; }");
        assertTrue(r.warnings().get(0).endsWith("a value from elsewhere is stored into it in p.Slots.<init> (line 9)"), r.warnings().toString());
    }

    @Test
    void aNestmatesUseCountsAsTheClassesOwn() throws Exception {
        Result r = rewrite("    static final class Peek { long first(Slots s) { return s.counts[0]; } long[] all(Slots s) { return s.counts; } }");
        assertTrue(r.warnings().get(0).endsWith("its array is used otherwise in p.Slots$Peek.all (line 9, returned)"), r.warnings().toString());
    }

    @Test
    void aFieldThatIsNotPrivateOrAClassThatIsSerializableIsNotStrided() throws Exception {
        Map<String, byte[]> classes = Bytecode.compile("""
                package p;
                public class Open implements java.io.Serializable { long[] counts = new long[2]; private long[] mine = new long[2]; }
                """);
        for (String rule : List.of("stride p.Open#counts 16", "stride p.Open#mine 16", "stride p.Open#none 16")) {
            List<String> warnings = new ArrayList<>();
            StridedArrays s = new StridedArrays(Layout.parse("t", rule), warnings::add);
            byte[] bytes = classes.get("p/Open");
            new ClassReader(bytes).accept(s.wrap("p/Open", bytes, Bytecode.sourceOf(classes), new ClassWriter(0)), 0);
            assertEquals(1, warnings.size(), rule);
            assertTrue(warnings.get(0).contains(rule.endsWith("counts 16") ? "not private"
                    : rule.endsWith("mine 16") ? "serializable" : "no such field"), warnings.toString());
        }
    }
}
