package dev.vbd.core.rewrite;

import dev.vbd.core.analysis.ClassFacts;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.vbd.core.rewrite.Bytecode.ACQUIRE;
import static dev.vbd.core.rewrite.Bytecode.FULL;
import static dev.vbd.core.rewrite.Bytecode.RELEASE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The array element accesses of {@code java.lang.invoke}'s generated code get the fences of any other. */
class GeneratedArrayFencesTest {
    private static final String MH = "java/lang/invoke/MethodHandle";
    private static final byte[] BEFORE = LambdaFormLike.withArrays();
    private static final byte[] AFTER = GeneratedArrayFences.fence(BEFORE);

    @Test
    void aSpreadersLoadIsFollowedByAcquire() {
        assertEquals(List.of("ALOAD 1", "CHECKCAST [I", "ICONST_0", "IALOAD", "ALOAD 0", "SWAP",
                "INVOKEVIRTUAL " + MH + ".invokeBasic (I)Ljava/lang/Object;", "ARETURN"), Bytecode.of(BEFORE, "spread"));
        assertEquals(List.of("ALOAD 1", "CHECKCAST [I", "ICONST_0", "IALOAD", ACQUIRE, "ALOAD 0", "SWAP",
                "INVOKEVIRTUAL " + MH + ".invokeBasic (I)Ljava/lang/Object;", "ARETURN"), Bytecode.of(AFTER, "spread"));
    }

    @Test
    void anElementSettersStoreIsBetweenReleaseAndFull() {
        assertEquals(List.of("ALOAD 0", "CHECKCAST [I", "ILOAD 1", "ILOAD 2", RELEASE, "IASTORE", FULL, "RETURN"),
                Bytecode.of(AFTER, "set"));
    }

    @Test
    void aCollectorsStoresIntoItsOwnNewArrayStayPlain() {
        assertEquals(Bytecode.of(BEFORE, "collect"), Bytecode.of(AFTER, "collect"));
    }

    @Test
    void aFormWithoutArraysIsDefinedAsItIs() {
        assertNull(GeneratedArrayFences.fence(LambdaFormLike.withoutArrays()));
    }

    @Test
    void theFencedClassIsValidAndMarkedOnce() {
        Bytecode.verify(AFTER);
        ClassFacts.Marker m = ClassFacts.read(AFTER).marker;
        assertNotNull(m, "marked, so that the verifier checks it as rewritten");
        assertEquals(List.of(), m.flipped);
        assertEquals(List.of(), m.relaxed);
        assertNull(GeneratedArrayFences.fence(AFTER), "fenced once");
    }
}
