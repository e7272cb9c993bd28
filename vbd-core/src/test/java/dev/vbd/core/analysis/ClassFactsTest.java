package dev.vbd.core.analysis;

import dev.vbd.core.rewrite.Bytecode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the rewriter reads of a class before touching it. */
class ClassFactsTest {
    @Test
    void fieldsAnnotationsAndShape() {
        Map<String, byte[]> c = Bytecode.compile("""
                package facts;
                @dev.vbd.Relaxed
                public class Shape extends java.util.AbstractList<String> implements java.io.Serializable {
                    static final int K = 1;
                    volatile long v;
                    @dev.vbd.Relaxed int r;
                    private final String s = "x";
                    @dev.vbd.Relaxed public String get(int i) { return s; }
                    public int size() { return 0; }
                    @dev.vbd.Relaxed Shape() {}
                }
                """);
        ClassFacts f = ClassFacts.read(c.get("facts/Shape"));
        assertEquals("facts/Shape", f.name);
        assertEquals("java/util/AbstractList", f.superName);
        assertEquals(List.of("java/io/Serializable"), List.of(f.interfaces));
        assertEquals(61, f.version);
        assertTrue(f.relaxedAnnotation);
        assertNull(f.marker);
        assertEquals(List.of("K", "v", "r", "s"), List.copyOf(f.fields.keySet()));
        assertTrue(f.fields.get("K").isStatic() && f.fields.get("K").isFinal());
        assertTrue(f.fields.get("v").isVolatile());
        assertTrue(f.fields.get("r").relaxedAnnotation());
        assertFalse(f.fields.get("s").relaxedAnnotation());
        assertTrue(f.hasFinalInstanceFields());
        // javac copies a method's annotations onto its bridge, so the bridge is relaxed too
        assertEquals(Set.of("get(I)Ljava/lang/String;", "get(I)Ljava/lang/Object;", "<init>()V"), f.relaxedMethods);
        assertFalse(f.isRecord());
        assertFalse(f.isInterface());
        assertFalse(f.isModuleOrPackageInfo());
    }

    @Test
    void recordsInterfacesAndPackageInfo() {
        Map<String, byte[]> c = Bytecode.compile("""
                package facts;
                public record R(int a) {}
                """, """
                package facts;
                public interface I { int X = 1; }
                """, """
                @dev.vbd.Relaxed
                package facts;
                """);
        assertTrue(ClassFacts.read(c.get("facts/R")).isRecord());
        assertTrue(ClassFacts.read(c.get("facts/I")).isInterface());
        assertFalse(ClassFacts.read(c.get("facts/I")).hasFinalInstanceFields());
        ClassFacts info = ClassFacts.read(c.get("facts/package-info"));
        assertTrue(info.isModuleOrPackageInfo());
        assertTrue(info.relaxedAnnotation);
    }
}
