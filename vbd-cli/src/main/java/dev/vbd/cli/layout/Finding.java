package dev.vbd.cli.layout;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What {@code vbd layout} reports: the model's findings of one kind between the same classes (or the
 * same arrays) as one, in words, with the fix in Java's terms. The model finds pairs: the five fields of
 * two neighbouring objects pair up in nine ways, and the user needs the class named once.
 */
public final class Finding {
    private final List<Map<?, ?>> pairs;
    private final Map<?, ?> worst;
    private final String kind;
    private final double seconds;

    private Finding(List<Map<?, ?>> pairs, double seconds) {
        this.pairs = pairs;
        this.worst = pairs.get(0);
        this.kind = (String) worst.get("kind");
        this.seconds = seconds;
    }

    /** The model's findings ({@code pairs}, most misses first) merged by kind and by what they are between; most misses first. */
    public static List<Finding> merge(List<Map<?, ?>> pairs, double seconds) {
        Map<String, List<Map<?, ?>>> byKey = new LinkedHashMap<>();
        for (Map<?, ?> p : pairs) byKey.computeIfAbsent(key(p), k -> new ArrayList<>()).add(p);
        List<Finding> out = new ArrayList<>();
        for (List<Map<?, ?>> same : byKey.values()) out.add(new Finding(same, seconds));
        return out;
    }

    /** Fields by their class, arrays by their allocation site; the two sides in either order. */
    private static String key(Map<?, ?> pair) {
        Set<String> sides = new TreeSet<>(List.of(owner(side(pair, "a")), owner(side(pair, "b"))));
        return pair.get("kind") + " " + String.join(" ", sides);
    }

    private static String owner(Map<?, ?> t) {
        return "field".equals(t.get("kind")) ? (String) t.get("class") : (String) t.get("describe");
    }

    private static Map<?, ?> side(Map<?, ?> pair, String which) {
        return (Map<?, ?>) pair.get(which);
    }

    /** The most misses of any of the pairs: a miss the model counts against each write it lost the line to, so pairs' misses overlap. */
    public long misses() {
        return number(worst, "misses");
    }

    public String headline() {
        String what = switch (kind) {
            case "true-sharing" -> "true sharing";
            case "fields" -> "false sharing: two fields of one object";
            case "neighbours" -> "false sharing: objects allocated next to each other";
            case "elements" -> "false sharing: elements of one array";
            default -> "false sharing: static fields of one class";
        };
        Set<String> threads = new LinkedHashSet<>();
        for (Map<?, ?> p : pairs) threads.addAll(strings(p.get("threads")));
        return String.format(Locale.ROOT, "%s, %,d misses (%,.0f a second)%s, threads %s", what, misses(),
                misses() / Math.max(seconds, 1e-3), pairs.size() == 1 ? "" : " in the worst of " + pairs.size() + " pairs",
                String.join(", ", threads));
    }

    /** One side of the pairs: {@code Class#} for fields, an array's description; and who wrote it. */
    private record Side(String owner, String writers) {}

    public String what() {
        Map<?, ?> a = side(worst, "a");
        if (kind.equals("true-sharing")) return describe(a) + ", written by " + writers(a);
        if (kind.equals("elements")) return describe(a) + ": elements " + number(worst, "distance") + " bytes apart, written by " + writers(a);
        // each side once, a class's fields with the same writers together
        Map<Side, List<String>> sides = new LinkedHashMap<>();
        long near = Long.MAX_VALUE;
        long far = 0;
        for (Map<?, ?> p : pairs) {
            for (String which : List.of("a", "b")) {
                Map<?, ?> t = side(p, which);
                boolean field = "field".equals(t.get("kind"));
                List<String> names = sides.computeIfAbsent(new Side(field ? t.get("class") + "#" : describe(t), writers(t)), k -> new ArrayList<>());
                if (field && !names.contains((String) t.get("field"))) names.add((String) t.get("field"));
            }
            near = Math.min(near, number(p, "distance"));
            far = Math.max(far, number(p, "distance"));
        }
        List<String> parts = new ArrayList<>();
        sides.forEach((side, fields) -> parts.add(side.owner() + String.join(", #", fields) + " (written by " + side.writers() + ")"));
        String apart = near == far ? near + " bytes apart" : near + " to " + far + " bytes apart";
        String where = kind.equals("neighbours") && parts.size() == 1 ? "in neighbouring objects, " : "";
        return String.join(" and ", parts) + ", " + where + apart;
    }

    /** The fix in Java's terms; {@code groups}, the layout's group of each padded field that shares its block. */
    public String fix(Map<String, String> groups) {
        Map<?, ?> a = side(worst, "a");
        return switch (kind) {
            case "true-sharing" -> "no layout helps; fewer writes do (a count per thread, summed at the end, as LongAdder keeps it)";
            case "elements" -> {
                long n = strideOf((String) a.get("type"));
                yield "give each thread's element a line of its own: a stride of " + n + " elements ((index + 1) * " + n
                        + " into an array as much longer and a stride more, off the header's line), or an object per thread with a @Contended field (as LongAdder's"
                        + " cells); " + (a.get("storedIn") == null ? "a layout cannot (the array goes into no field where it is allocated)"
                        : "the layout gives " + a.get("storedIn") + " the stride, where the rewrite can prove every use of it rewritten");
            }
            case "statics" -> "the JVM pads no static field: move each into an object of its own with a @Contended field"
                    + " (a layout cannot)";
            default -> {
                List<String> fields = contended();
                if (fields.isEmpty()) yield "pad the arrays apart (a layout cannot move an array)";
                // one padded block a group, and one for each field of no group
                Map<String, List<String>> blocks = new LinkedHashMap<>();
                for (String f : fields) blocks.computeIfAbsent(groups.getOrDefault(f, "\0" + f), k -> new ArrayList<>()).add(f);
                List<String> on = new ArrayList<>();
                for (List<String> b : blocks.values()) on.add(compact(b) + (b.size() > 1 ? " as one group" : ""));
                String around = blocks.size() > 1 ? "each" : fields.size() > 1 ? "them" : "it";
                yield "@jdk.internal.vm.annotation.Contended on " + String.join(" and on ", on)
                        + " (with -XX:-RestrictContended outside the JDK), or 128 bytes of padding around " + around
                        + "; the layout does the first";
            }
        };
    }

    /** {@code Class#field} names with each class named once: {@code A#x, #y and B#z}. */
    private static String compact(List<String> fields) {
        Map<String, List<String>> byClass = new LinkedHashMap<>();
        for (String f : fields) byClass.computeIfAbsent(f.substring(0, f.indexOf('#')), k -> new ArrayList<>()).add(f.substring(f.indexOf('#') + 1));
        List<String> out = new ArrayList<>();
        byClass.forEach((c, names) -> out.add(c + "#" + String.join(", #", names)));
        return String.join(" and ", out);
    }

    /**
     * The fields to pad: in each pair, those written at least as often as the pair missed, or, where
     * neither side is, every field side.
     */
    public List<String> contended() {
        if (!kind.equals("fields") && !kind.equals("neighbours")) return List.of();
        Set<String> out = new LinkedHashSet<>();
        for (Map<?, ?> p : pairs) {
            Set<String> hot = new LinkedHashSet<>();
            Set<String> all = new LinkedHashSet<>();
            for (String which : List.of("a", "b")) {
                Map<?, ?> t = side(p, which);
                if (!"field".equals(t.get("kind"))) continue;
                String name = t.get("class") + "#" + t.get("field");
                all.add(name);
                if (number(t, "writes") >= number(p, "misses")) hot.add(name);
            }
            out.addAll(hot.isEmpty() ? all : hot);
        }
        return new ArrayList<>(out);
    }

    /** The stride rule for a finding of elements whose array goes into a field where it is allocated, or null. */
    public String stride() {
        Map<?, ?> a = side(worst, "a");
        if (!kind.equals("elements") || a.get("storedIn") == null) return null;
        return a.get("storedIn") + " " + strideOf((String) a.get("type"));
    }

    /** Elements a stride of 128 bytes (a pair of lines, as @Contended pads) is, from 2 to 64. */
    private static long strideOf(String type) {
        return Math.max(2, Math.min(64, 128 / scale(type)));
    }

    private static String describe(Map<?, ?> t) {
        return (String) t.get("describe");
    }

    private static String writers(Map<?, ?> t) {
        List<String> w = strings(t.get("writers"));
        return w.isEmpty() ? "no thread" : String.join(", ", w);
    }

    static List<String> strings(Object list) {
        List<String> out = new ArrayList<>();
        for (Object x : (List<?>) list) out.add(String.valueOf(x));
        return out;
    }

    static long number(Map<?, ?> m, String key) {
        return ((Number) m.get(key)).longValue();
    }

    private static long scale(String type) {
        return switch (type) {
            case "long[]", "double[]" -> 8;
            case "int[]", "float[]" -> 4;
            case "short[]", "char[]" -> 2;
            case "byte[]", "boolean[]" -> 1;
            default -> 4;
        };
    }
}
