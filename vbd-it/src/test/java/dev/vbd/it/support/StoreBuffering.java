package dev.vbd.it.support;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The store-buffering litmus program ({@code src/test/programs/sb}) and its results. The program
 * prints one line per shape; {@link #parse} reads them back, {@link #report} appends them to
 * {@code vbd-it/target/sb-report.txt} so that the stock counts, which are reported but not
 * asserted, can be read after a build.
 */
public final class StoreBuffering {
    /** Every shape that must stay SC under vbd: both field kinds and the elements of all nine array kinds. */
    public static final List<String> SC_SHAPES = List.of("instance", "static", "boolean[]", "byte[]", "char[]",
            "short[]", "int[]", "long[]", "float[]", "double[]", "Object[]");
    /**
     * How many fresh states one round allocates (as in jcstress's stride mode). On this x86
     * machine 4096 showed the forbidden outcome on stock Java far more often per trial than
     * 16384, at the price of more rounds, each of which costs a pairing of the two actors.
     */
    public static final int BATCH = 4096;
    /**
     * Static fields cannot be allocated fresh, so the program gets generated classes of pairs
     * of static fields, reset between rounds; a switch picks the pair. 512 pairs a class keep
     * the switch methods under HotSpot's huge-method limit, so that they are JIT-compiled; 8
     * classes give a round {@link #BATCH} trials, as the other shapes have.
     */
    static final int STATIC_CLASSES = BATCH / 512, STATIC_SLOTS = 512;

    private static final Pattern LINE = Pattern.compile(
            "SB shape=(\\S+) trials=(\\d+) forbidden=(\\d+) outcomes=(\\S+) rounds=(\\d+) unpaired=(\\d+)");

    private StoreBuffering() {}

    /** One shape's result; {@code unpaired}: how often an actor started a round without the other one spinning at the gate. */
    public record Count(String shape, long trials, long forbidden, String outcomes, long rounds, long unpaired) {}

    public static Program program() {
        return Programs.compile("sb", staticSlots(STATIC_CLASSES, STATIC_SLOTS));
    }

    /** Arguments for the program: trials per shape, batch size, then the shapes. */
    public static String[] args(long trials, List<String> shapes) {
        String[] a = new String[shapes.size() + 2];
        a[0] = Long.toString(trials);
        a[1] = Integer.toString(BATCH);
        for (int i = 0; i < shapes.size(); i++) a[i + 2] = shapes.get(i);
        return a;
    }

    /** The counts per shape, in the order printed; fails unless the run completed and reported every shape asked for. */
    public static Map<String, Count> parse(Outcome o, List<String> shapes) {
        o.requireExit(0);
        Map<String, Count> counts = new LinkedHashMap<>();
        Matcher m = LINE.matcher(o.stdout());
        while (m.find()) {
            counts.put(m.group(1), new Count(m.group(1), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)), m.group(4),
                    Long.parseLong(m.group(5)), Long.parseLong(m.group(6))));
        }
        for (String spec : shapes) {
            String s = spec.split("~", 2)[0];
            if (!counts.containsKey(s)) {
                throw new AssertionError("the SB program reported no result for shape '" + s + "':\n" + o.describe());
            }
        }
        return counts;
    }

    /** A shape that runs up to {@code maxTrials} trials but stops once it has shown the forbidden outcome. */
    public static String searching(String shape, long maxTrials) {
        return shape + "~" + maxTrials;
    }

    public static long totalForbidden(Map<String, Count> counts) {
        return counts.values().stream().mapToLong(Count::forbidden).sum();
    }

    /** Appends the counts to target/sb-report.txt and to the test output. */
    public static void report(String what, Outcome o, Map<String, Count> counts) {
        StringBuilder b = new StringBuilder();
        b.append(String.format("%s, %s, %d ms%n", what, o.jvm(), o.millis()));
        for (Count c : counts.values()) {
            b.append(String.format("  %-18s trials=%,10d forbidden(r1=0,r2=0)=%,8d   outcomes %s   unpaired starts %d in %d rounds%n",
                    c.shape(), c.trials(), c.forbidden(), c.outcomes(), c.unpaired(), c.rounds()));
        }
        Reports.append("sb-report.txt", "Store buffering (x=1; r1=y || y=1; r2=x): r1=0,r2=0 is forbidden under SC;"
                + " stock counts are reported, vbd counts asserted to be 0, relaxed counts asserted to be > 0 in some attempt."
                + " Outcome 11 needs the actors to overlap in time: its count shows how much they did; an unpaired start"
                + " is an actor that started its walk without the other one spinning at the gate (a busy machine).", b.toString());
    }

    /**
     * {@code StaticSlots}: {@code classes} generated classes of {@code slots} pairs of plain
     * static fields each, with one actor method per side that touches pair i, and a facade
     * that resets them all and walks them all.
     */
    static Map<String, String> staticSlots(int classes, int slots) {
        Map<String, String> files = new LinkedHashMap<>();
        StringBuilder f = new StringBuilder();
        f.append("/** Generated by the end-to-end tests: ").append(classes * slots)
                .append(" pairs of static fields for the SB litmus test, in ").append(classes).append(" classes. */\n");
        f.append("final class StaticSlots {\n    static final int SLOTS = ").append(classes * slots).append(";\n");
        f.append("    static void reset() {\n");
        for (int c = 0; c < classes; c++) f.append("        StaticSlots").append(c).append(".reset();\n");
        f.append("    }\n");
        for (int side = 1; side <= 2; side++) {
            f.append("    static void walk").append(side).append("(int[] r) {\n");
            for (int c = 0; c < classes; c++) {
                f.append("        for (int i = 0; i < ").append(slots).append("; i++) r[").append(c * slots)
                        .append(" + i] = StaticSlots").append(c).append(".actor").append(side).append("(i);\n");
            }
            f.append("    }\n");
        }
        f.append("}\n");
        files.put("StaticSlots.java", f.toString());
        for (int c = 0; c < classes; c++) {
            String name = "StaticSlots" + c;
            StringBuilder b = new StringBuilder();
            b.append("final class ").append(name).append(" {\n");
            for (int i = 0; i < slots; i++) b.append("    static int x").append(i).append(", y").append(i).append(";\n");
            b.append("    static void reset() {\n");
            for (int i = 0; i < slots; i++) b.append("        x").append(i).append(" = 0; y").append(i).append(" = 0;\n");
            b.append("    }\n");
            for (int side = 1; side <= 2; side++) {
                String mine = side == 1 ? "x" : "y", theirs = side == 1 ? "y" : "x";
                b.append("    static int actor").append(side).append("(int i) {\n        switch (i) {\n");
                for (int i = 0; i < slots; i++) {
                    b.append("            case ").append(i).append(": ").append(mine).append(i).append(" = 1; return ")
                            .append(theirs).append(i).append(";\n");
                }
                b.append("            default: throw new IllegalArgumentException(\"no slot \" + i);\n        }\n    }\n");
            }
            b.append("}\n");
            files.put(name + ".java", b.toString());
        }
        return files;
    }
}
