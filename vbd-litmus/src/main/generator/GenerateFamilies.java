import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Writes the litmus tests that share a shape: a {@code Name.template} under the templates folder is
 * a test's source with {@code $key$} holes, and each {@code Name.variants} in its folder or one below
 * lists one block of {@code key: value} lines a test, written into the package of the variants'
 * folder ({@code $package$}) as the class the block's {@code class} names. Defaults come from a
 * {@code Name.defaults} beside the template, then from a first block without a {@code class}. A value
 * may span lines: {@code key:} alone, then lines that start with {@code | }. Blocks are separated by
 * blank lines; lines starting with {@code #} are comments.
 *
 * <p>Run by the build in source-file mode ({@code java GenerateFamilies.java TEMPLATES OUT}), so it
 * needs no compiling of its own. A file is rewritten only when its text changes, so that the compiler
 * sees unchanged tests as up to date, and a file no variant names any more is deleted.
 */
public final class GenerateFamilies {
    private static final Pattern HOLE = Pattern.compile("\\$([A-Za-z][A-Za-z0-9]*)\\$");

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: GenerateFamilies TEMPLATES OUT");
        }
        Path root = Path.of(args[0]);
        Path out = Path.of(args[1]);
        Set<Path> written = new HashSet<>();
        List<Path> found;
        try (Stream<Path> files = Files.walk(root)) {
            found = files.filter(p -> p.toString().endsWith(".variants")).sorted().toList();
        }
        for (Path variants : found) {
            written.addAll(generate(root, variants, out));
        }
        deleteStale(out, written);
    }

    private static List<Path> generate(Path root, Path variants, Path out) throws IOException {
        String name = variants.getFileName().toString().replaceFirst("\\.variants$", "");
        Path template = template(root, variants.getParent(), name);
        String text = Files.readString(template, StandardCharsets.UTF_8);
        Path packageDir = root.relativize(variants.getParent());
        String header = "// Generated from " + root.relativize(template) + " and " + root.relativize(variants)
                + "; edit those, not this file.\n";
        Map<String, String> defaults = new LinkedHashMap<>();
        defaults.put("package", packageDir.toString().replace(packageDir.getFileSystem().getSeparator(), "."));
        Path shared = template.resolveSibling(name + ".defaults");
        if (Files.exists(shared)) {
            parse(shared).forEach(defaults::putAll);
        }
        List<Map<String, String>> blocks = parse(variants);
        if (!blocks.isEmpty() && !blocks.get(0).containsKey("class")) {
            defaults.putAll(blocks.remove(0));
        }
        List<Path> written = new ArrayList<>();
        for (Map<String, String> block : blocks) {
            Map<String, String> variant = new LinkedHashMap<>(defaults);
            variant.putAll(block);
            String className = variant.get("class");
            if (className == null) {
                throw new IllegalStateException(variants + ": a block without a class");
            }
            Path file = out.resolve(packageDir).resolve(className + ".java");
            writeIfChanged(file, header + fill(text, variant, defaults.keySet(), variants + " (" + className + ")"));
            written.add(file);
        }
        return written;
    }

    /** {@code name.template} in {@code dir} or the nearest folder above it, up to the root. */
    private static Path template(Path root, Path dir, String name) {
        for (Path d = dir; d != null && d.startsWith(root); d = d.getParent()) {
            Path candidate = d.resolve(name + ".template");
            if (Files.exists(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException(dir.resolve(name + ".variants") + ": no " + name + ".template here or above");
    }

    /**
     * The template with every hole filled; a hole without a value, or a value no hole takes (but for
     * the defaults), is an error. A hole alone on its line indents each line of its value as far as
     * itself, and leaves no line at all where the value is empty.
     */
    static String fill(String template, Map<String, String> values, Set<String> defaults, String where) {
        Set<String> unused = new HashSet<>(values.keySet());
        StringBuilder sb = new StringBuilder();
        for (String line : template.split("\n", -1)) {
            Matcher alone = HOLE.matcher(line.strip());
            if (alone.matches()) {
                String value = value(values, alone.group(1), where);
                unused.remove(alone.group(1));
                String indent = line.substring(0, line.indexOf('$'));
                for (String l : value.isEmpty() ? new String[0] : value.split("\n", -1)) {
                    sb.append(l.isEmpty() ? "" : indent + l).append('\n');
                }
                continue;
            }
            Matcher m = HOLE.matcher(line);
            while (m.find()) {
                unused.remove(m.group(1));
                m.appendReplacement(sb, Matcher.quoteReplacement(value(values, m.group(1), where)));
            }
            m.appendTail(sb);
            sb.append('\n');
        }
        unused.remove("class");
        unused.removeAll(defaults);
        if (!unused.isEmpty()) {
            throw new IllegalStateException(where + ": no hole takes " + unused);
        }
        return sb.substring(0, sb.length() - 1);
    }

    private static String value(Map<String, String> values, String key, String where) {
        String value = values.get(key);
        if (value == null) {
            throw new IllegalStateException(where + ": no value for $" + key + "$");
        }
        return value;
    }

    static List<Map<String, String>> parse(Path variants) throws IOException {
        List<Map<String, String>> blocks = new ArrayList<>();
        Map<String, String> block = new LinkedHashMap<>();
        String continued = null;
        boolean firstLine = false;
        int number = 0;
        for (String line : Files.readAllLines(variants, StandardCharsets.UTF_8)) {
            number++;
            if (line.startsWith("#")) {
                continue;
            }
            if (line.isBlank()) {
                if (!block.isEmpty()) {
                    blocks.add(block);
                    block = new LinkedHashMap<>();
                }
                continued = null;
            } else if (line.startsWith("|")) {
                if (continued == null) {
                    throw new IllegalStateException(variants + ":" + number + ": a | line after no key: alone");
                }
                String more = line.length() > 1 ? line.substring(2) : "";
                block.put(continued, firstLine ? more : block.get(continued) + "\n" + more);
                firstLine = false;
            } else {
                int colon = line.indexOf(':');
                if (colon < 1) {
                    throw new IllegalStateException(variants + ":" + number + ": expected key: value");
                }
                String key = line.substring(0, colon).trim();
                String value = line.substring(colon + 1).trim();
                if (block.put(key, value) != null) {
                    throw new IllegalStateException(variants + ":" + number + ": " + key + " twice in a block");
                }
                continued = value.isEmpty() ? key : null;
                firstLine = true;
            }
        }
        if (!block.isEmpty()) {
            blocks.add(block);
        }
        return blocks;
    }

    private static void writeIfChanged(Path file, String text) {
        try {
            if (Files.exists(file) && Files.readString(file, StandardCharsets.UTF_8).equals(text)) {
                return;
            }
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteStale(Path out, Set<Path> written) throws IOException {
        if (!Files.isDirectory(out)) {
            return;
        }
        try (Stream<Path> files = Files.walk(out)) {
            for (Path p : files.filter(Files::isRegularFile).toList()) {
                if (!written.contains(p)) {
                    Files.delete(p);
                }
            }
        }
    }
}
