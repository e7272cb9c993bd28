package dev.vbd.core.rewrite;

import dev.vbd.core.policy.Policy;
import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.List;
import java.util.Map;

import static dev.vbd.core.rewrite.Bytecode.ACQUIRE;
import static dev.vbd.core.rewrite.Bytecode.FULL;
import static dev.vbd.core.rewrite.Bytecode.RELEASE;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Accesses to an array that has not left the method that allocated it stay plain; from the
 * point it may have left (a field or array store, a call, a return, a lambda capture, a path
 * through an exception handler), they are fenced.
 */
class LocalArraysTest {
    private static final Map<String, byte[]> CLASSES = Bytecode.compile("""
            package loc;
            public class Arrays {
                static Object sink;
                static void use(Object o) { sink = o; }

                static int scratch(int n) {
                    int[] t = new int[n];
                    for (int i = 0; i < n; i++) t[i] = i;
                    int s = 0;
                    for (int i = 0; i < n; i++) s += t[i];
                    return s;
                }

                static int[] filledThenReturned() {
                    int[] a = new int[2];
                    a[0] = 5;
                    return a;
                }

                static void publishedThenStored() {
                    int[] a = new int[1];
                    sink = a;
                    a[0] = 1;
                }

                static void passedThenStored() {
                    int[] a = new int[1];
                    use(a);
                    a[0] = 1;
                }

                static void capturedThenStored() {
                    int[] a = new int[1];
                    Runnable r = () -> a[0]++;
                    sink = r;
                    a[0] = 2;
                }

                static void storedIntoAnotherArray() {
                    int[] a = new int[1];
                    Object[] box = new Object[1];
                    box[0] = a;
                    a[0] = 1;
                }

                static void eachIterationPublished(int n) {
                    for (int i = 0; i < n; i++) {
                        int[] a = new int[1];
                        a[0] = i;
                        sink = a;
                    }
                }

                static void parameterOrLocal(int[] p, boolean b) {
                    int[] a = b ? p : new int[1];
                    a[0] = 1;
                }

                static void afterAThrowingCall() {
                    int[] a = new int[1];
                    try {
                        use(a);
                    } catch (RuntimeException e) {
                        a[0] = 1;
                    }
                }

                static int[] copied(int[] src) {
                    int[] d = new int[src.length];
                    System.arraycopy(src, 0, d, 0, src.length);
                    d[0] = 1;
                    return d;
                }

                static int cell(int n) {
                    int[][] g = new int[n][n];
                    g[0][0] = 1;
                    return g[0][0];
                }
            }
            """);
    private static final byte[] AFTER = Bytecode.rewritten(CLASSES, "loc/Arrays");

    private static long count(String method, String what) {
        return Collections.frequency(Bytecode.of(AFTER, method), what);
    }

    @Test
    void scratchArrayStaysPlain() {
        assertEquals(Bytecode.of(CLASSES.get("loc/Arrays"), "scratch"), Bytecode.of(AFTER, "scratch"));
    }

    @Test
    void storesBeforeTheReturnThatPublishesStayPlain() {
        assertEquals(List.of("ICONST_2", "NEWARRAY T_INT", "ASTORE 0", "ALOAD 0", "ICONST_0", "ICONST_5", "IASTORE",
                "ALOAD 0", "ARETURN"), Bytecode.of(AFTER, "filledThenReturned"));
    }

    @Test
    void storeAfterAFieldStoreOfTheArrayIsFenced() {
        assertEquals(List.of("ICONST_1", "NEWARRAY T_INT", "ASTORE 0", "ALOAD 0", "PUTSTATIC loc/Arrays.sink : Ljava/lang/Object;",
                "ALOAD 0", "ICONST_0", "ICONST_1", RELEASE, "IASTORE", FULL, "RETURN"), Bytecode.of(AFTER, "publishedThenStored"));
    }

    @Test
    void everyOtherWayOutFencesWhatFollows() {
        for (String m : List.of("passedThenStored", "capturedThenStored", "storedIntoAnotherArray", "afterAThrowingCall")) {
            assertEquals(1, count(m, RELEASE), m);
            assertEquals(1, count(m, FULL), m);
        }
    }

    @Test
    void storeIntoTheBoxBeforeItLeavesStaysPlainButItsContentLeaves() {
        // box[0] = a: box is local (plain store), a escapes through it (a[0] = 1 fenced)
        List<String> code = Bytecode.of(AFTER, "storedIntoAnotherArray");
        assertEquals(List.of("ALOAD 1", "ICONST_0", "ALOAD 0", "AASTORE"), code.subList(6, 10));
    }

    @Test
    void anArrayOfALoopIsSharedOnceOneIterationPublishedIt() {
        assertEquals(1, count("eachIterationPublished", RELEASE));
    }

    @Test
    void anArrayThatMayComeFromElsewhereIsFenced() {
        assertEquals(1, count("parameterOrLocal", RELEASE));
    }

    @Test
    void arraycopyIsNoWayOut() {
        assertEquals(0, count("copied", RELEASE));
        // the copy itself keeps its fences: the source is shared
        assertEquals(2, count("copied", FULL));
    }

    @Test
    void rowsOfAMultiDimensionalArrayComeFromElsewhere() {
        // the outer array is local (its loads plain), the rows are read from it and fenced
        assertEquals(List.of(1L, 1L, 1L), List.of(count("cell", RELEASE), count("cell", FULL), count("cell", ACQUIRE)));
    }

    @Test
    void rewrittenCodeLinks() {
        Bytecode.defineAndLink(Map.of("loc/Arrays", AFTER));
    }

    @Test
    void withoutTheProofEveryArrayAccessIsFencedInEveryFieldMode() {
        for (FieldMode mode : FieldMode.values()) {
            if (!mode.sc()) continue; // safe construction fences no array access at all
            ClassRewriter unproved = new ClassRewriter(Policy.defaults(), Bytecode.sourceOf(CLASSES)).fields(mode)
                    .optimise(Optimisations.CONSTRUCTORS);
            List<String> scratch = Bytecode.of(Bytecode.rewritten(unproved, CLASSES, "loc/Arrays"), "scratch");
            assertEquals(Collections.frequency(Bytecode.of(CLASSES.get("loc/Arrays"), "scratch"), "IASTORE"),
                    Collections.frequency(scratch, FULL), mode.word());
        }
    }
}
