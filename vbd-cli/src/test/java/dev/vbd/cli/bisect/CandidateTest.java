package dev.vbd.cli.bisect;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CandidateTest {
    private static Map<String, Object> field(String cls, String name, String type, boolean isVolatile, boolean isFinal) {
        return Map.of("class", cls, "field", name, "type", type, "static", false, "volatile", isVolatile, "final", isFinal,
                "sourceFile", "Config.java", "sites", List.of("read of " + cls + "." + name + " at x"));
    }

    @Test
    void fieldsDeclaredVolatileOrFinalAreNoCandidates() {
        Map<String, Object> shared = Map.of(
                "fields", List.of(field("app.Config", "ready", "boolean", false, false),
                        field("app.Config", "done", "boolean", true, false),
                        field("app.Config", "name", "java.lang.String", false, true)),
                "arrays", List.of(Map.of("class", "app.Mailbox", "method", "receive", "elements", "int[]",
                        "sourceFile", "Mailbox.java", "sites", List.of())));
        List<Candidate> c = Candidate.fromObserved(shared);
        assertEquals(List.of("field app.Config#ready", "arrays app.Mailbox#receive"), c.stream().map(Candidate::rule).toList());
        assertEquals("Config.ready", c.get(0).name());
        assertEquals("Mailbox.receive()", c.get(1).name());
    }

    @Test
    void theFixSaysWhatToChangeInJavaTerms() {
        Candidate flag = new Candidate(Candidate.Kind.FIELD, "app.Config", "ready", "boolean", null, false, List.of(), List.of());
        assertEquals("declare Config.ready volatile", flag.fix());
        Candidate ref = new Candidate(Candidate.Kind.FIELD, "app.Cache$Holder", "table", "java.lang.Object[]", null, true, List.of(), List.of());
        assertEquals("declare Cache.Holder.table volatile (or publish the object through a final field, or hold it in an"
                + " AtomicReference)", ref.fix());
        Candidate ints = new Candidate(Candidate.Kind.ARRAYS, "app.Mailbox", "receive", "int[]", null, false, List.of(), List.of());
        assertTrue(ints.fix().startsWith("make the int[] element accesses in Mailbox.receive() ordered: read and write the"
                + " elements through an AtomicIntegerArray"), ints.fix());
        Candidate bytes = new Candidate(Candidate.Kind.ARRAYS, "app.Ring", "put", "byte[] or boolean[]", null, false, List.of(), List.of());
        assertTrue(bytes.fix().contains("MethodHandles.arrayElementVarHandle"), bytes.fix());
    }
}
