package dev.vbd.cli.bisect;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A place a missing {@code volatile} can be: a field of the program's that more than one thread
 * touched, or a method that accessed the elements of an array another thread accessed too (an
 * array has no declaration to make volatile: its accesses are what changes).
 *
 * @param owner  the class that declares the field, or declares the method (dotted name)
 * @param member the field's or the method's name
 * @param type   the field's declared type, or the kind of array whose elements the method accessed
 * @param sites  accesses seen where a second thread met the first, as a stack frame names them
 * @param allocated for array elements: where the shared arrays were allocated, where the observer saw it
 */
public record Candidate(Kind kind, String owner, String member, String type, String sourceFile, boolean isStatic,
                        List<String> sites, List<String> allocated) {
    public enum Kind { FIELD, ARRAYS }

    /** The candidates in the observer's report ({@code shared}): fields neither final nor declared volatile, and array-accessing methods. */
    public static List<Candidate> fromObserved(Map<?, ?> shared) {
        List<Candidate> out = new ArrayList<>();
        for (Object o : (List<?>) shared.get("fields")) {
            Map<?, ?> f = (Map<?, ?>) o;
            // a volatile field is SC already; a final one cannot be what a write to it published too early
            if (Boolean.TRUE.equals(f.get("volatile")) || Boolean.TRUE.equals(f.get("final"))) continue;
            out.add(new Candidate(Kind.FIELD, (String) f.get("class"), (String) f.get("field"), (String) f.get("type"),
                    (String) f.get("sourceFile"), Boolean.TRUE.equals(f.get("static")), strings(f.get("sites")), List.of()));
        }
        for (Object o : (List<?>) shared.get("arrays")) {
            Map<?, ?> a = (Map<?, ?>) o;
            out.add(new Candidate(Kind.ARRAYS, (String) a.get("class"), (String) a.get("method"), (String) a.get("elements"),
                    (String) a.get("sourceFile"), false, strings(a.get("sites")), strings(a.get("allocated"))));
        }
        return out;
    }

    private static List<String> strings(Object o) {
        List<String> out = new ArrayList<>();
        if (o instanceof List<?> l) for (Object x : l) out.add(String.valueOf(x));
        return out;
    }

    /** The relaxed config's rule that relaxes it. */
    public String rule() {
        return (kind == Kind.FIELD ? "field " : "arrays ") + owner + "#" + member;
    }

    /** As Java source names it: {@code Config.ready}, {@code Mailbox.receive()}. */
    public String name() {
        String simple = owner.substring(owner.lastIndexOf('.') + 1).replace('$', '.');
        return simple + "." + member + (kind == Kind.ARRAYS ? "()" : "");
    }

    /** The change that gives the program, under stock Java, what vbd gave it here. */
    public String fix() {
        if (kind == Kind.ARRAYS) {
            String handle = "a VarHandle from MethodHandles.arrayElementVarHandle in volatile or acquire/release mode";
            String atomic = switch (type) {
                case "int[]" -> "an AtomicIntegerArray (or " + handle + ")";
                case "long[]" -> "an AtomicLongArray (or " + handle + ")";
                case "Object[]" -> "an AtomicReferenceArray (or " + handle + ")";
                default -> handle;
            };
            return "make the " + type + " element accesses in " + name() + " ordered: read and write the elements through "
                    + atomic;
        }
        boolean reference = !List.of("boolean", "byte", "char", "short", "int", "long", "float", "double").contains(type);
        return "declare " + name() + " volatile" + (reference
                ? " (or publish the object through a final field, or hold it in an AtomicReference)"
                : type.equals("long") || type.equals("int") ? " (or use an Atomic" + (type.equals("long") ? "Long" : "Integer")
                + " where it is also read-modify-written)" : "");
    }

    /** As the JSON report gives it. */
    public Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", kind == Kind.FIELD ? "field" : "arrays");
        m.put("class", owner);
        m.put(kind == Kind.FIELD ? "field" : "method", member);
        m.put(kind == Kind.FIELD ? "type" : "elements", type);
        if (kind == Kind.FIELD) m.put("static", isStatic);
        m.put("sourceFile", sourceFile);
        m.put("rule", rule());
        m.put("fix", fix());
        m.put("sites", sites);
        if (kind == Kind.ARRAYS) m.put("allocated", allocated);
        return m;
    }
}
