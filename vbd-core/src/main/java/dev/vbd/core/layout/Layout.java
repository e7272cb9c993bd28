package dev.vbd.core.layout;

import dev.vbd.core.policy.NamePattern;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.zip.CRC32C;

/**
 * A layout for a program's fields, from the plain-text file {@code vbd layout} writes and
 * {@code vbd run --layout} applies. One rule a line; {@code #} at the start of a line or after a
 * blank starts a comment.
 *
 * <pre>
 * contended com.example.Counters#hits          # the field gets a cache line (two, on most JVMs) of its own
 * contended com.example.Counters#misses pair   # fields of one named group share their padded block
 * contended com.example.stats.*#*              # every instance field of the package's classes
 * stride    com.example.Striped#cells 16        # the array the field holds: element i at index (i + 1) * 16
 * </pre>
 *
 * Class and field names take the relaxed config's globs ({@link NamePattern}): {@code *} within a
 * name segment, {@code **} across segments; {@code $} for nested classes. A field that several rules
 * name takes the group of the first.
 *
 * A contended field is laid out by the JVM itself, as for {@code @jdk.internal.vm.annotation.Contended}
 * (and with its flag {@code -XX:-RestrictContended}, which {@code vbd run --layout} adds): padding before
 * it and at the end of the object, so that no other field of the object, and no neighbouring object,
 * shares its cache line. It changes where a field lies, never what is stored in it or in which order.
 * The JVM ignores the annotation on a static field, and so does a rule for one.
 *
 * <p>A stride spreads the elements of the array a private field holds, so that neighbouring
 * elements lie on different lines ({@link StridedArrays}); it applies only where the rewrite can
 * prove that every use of the array is one it rewrites, and names no glob.
 */
public final class Layout {
    public static final Layout NONE = new Layout(List.of(), List.of(), "");

    private record Rule(NamePattern owner, NamePattern field, String group) {}

    /** A stride rule: the field, by its class's internal name and its name, and the stride. */
    public record Stride(String owner, String field, int stride) {}

    private final List<Rule> rules;
    private final List<Stride> strides;
    private final String checksum;

    private Layout(List<Rule> rules, List<Stride> strides, String checksum) {
        this.rules = rules;
        this.strides = strides;
        this.checksum = checksum;
    }

    public static Layout load(Path file) throws LayoutException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException | UncheckedIOException e) {
            throw new LayoutException(file.toString(), 0, "cannot read: " + e.getMessage());
        }
        return parse(file.toString(), new String(bytes, StandardCharsets.UTF_8));
    }

    public static Layout parse(String fileName, String text) throws LayoutException {
        List<Rule> rules = new ArrayList<>();
        List<Stride> strides = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String[] words = withoutComment(lines[i]).trim().split("\\s+");
            if (words.length == 1 && words[0].isEmpty()) continue;
            if (words[0].equals("stride")) {
                strides.add(stride(fileName, i + 1, words));
                continue;
            }
            if (!words[0].equals("contended")) {
                throw new LayoutException(fileName, i + 1, "unknown rule '" + words[0]
                        + "' (a layout has 'contended CLASS#FIELD [GROUP]' and 'stride CLASS#FIELD N')");
            }
            if (words.length < 2 || words.length > 3) {
                throw new LayoutException(fileName, i + 1, "'contended' takes CLASS#FIELD and an optional group, got " + (words.length - 1) + " words");
            }
            int hash = words[1].indexOf('#');
            if (hash <= 0 || hash == words[1].length() - 1 || words[1].indexOf('#', hash + 1) >= 0) {
                throw new LayoutException(fileName, i + 1, "'" + words[1] + "' is not CLASS#FIELD (com.example.Counters#hits)");
            }
            rules.add(new Rule(NamePattern.compile(words[1].substring(0, hash)), NamePattern.compile(words[1].substring(hash + 1)),
                    words.length == 3 ? words[2] : ""));
        }
        CRC32C crc = new CRC32C();
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        crc.update(bytes, 0, bytes.length);
        boolean empty = rules.isEmpty() && strides.isEmpty();
        return new Layout(List.copyOf(rules), List.copyOf(strides), empty ? "" : Long.toHexString(crc.getValue()) + "-" + bytes.length);
    }

    private static Stride stride(String fileName, int line, String[] words) throws LayoutException {
        if (words.length != 3) {
            throw new LayoutException(fileName, line, "'stride' takes CLASS#FIELD and a stride, got " + (words.length - 1) + " words");
        }
        int hash = words[1].indexOf('#');
        if (hash <= 0 || hash == words[1].length() - 1 || words[1].indexOf('#', hash + 1) >= 0 || words[1].indexOf('*') >= 0) {
            throw new LayoutException(fileName, line, "'" + words[1] + "' is not CLASS#FIELD without globs (com.example.Striped#cells)");
        }
        int n;
        try {
            n = Integer.parseInt(words[2]);
        } catch (NumberFormatException e) {
            n = 0;
        }
        if (n < 2 || n > 64) throw new LayoutException(fileName, line, "a stride is a number of elements from 2 to 64, got '" + words[2] + "'");
        return new Stride(words[1].substring(0, hash).replace('.', '/'), words[1].substring(hash + 1), n);
    }

    /** The stride rules. */
    public List<Stride> strides() {
        return strides;
    }

    private static String withoutComment(String line) {
        for (int i = 0; i < line.length(); i++) {
            if (line.charAt(i) == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) return line.substring(0, i);
        }
        return line;
    }

    public boolean isEmpty() {
        return rules.isEmpty() && strides.isEmpty();
    }

    /** Tells the rewrites made under one layout from those made under another, for a store of rewrites; empty for none. */
    public String checksum() {
        return checksum;
    }

    /**
     * The rules that name fields of a class ({@code internalName}), as a map from a field's name to its
     * group ("" for a group of its own) or null; null when no rule names the class.
     */
    public Function<String, String> contended(String internalName) {
        String dotted = internalName.replace('/', '.');
        List<Rule> mine = new ArrayList<>();
        for (Rule r : rules) {
            if (r.owner.matches(dotted)) mine.add(r);
        }
        if (mine.isEmpty()) return null;
        return field -> {
            for (Rule r : mine) {
                if (r.field.matches(field)) return r.group;
            }
            return null;
        };
    }
}
