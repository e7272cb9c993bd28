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
 * Writes the litmus tests that a family shares: each {@code Name.template} under the templates
 * folder is a test's source with {@code $key$} holes, and the {@code Name.variants} beside it lists
 * one block of {@code key: value} lines a test; the test's class is the block's {@code class}, in the
 * template's package. A value may span lines: {@code key:} alone, then lines that start with
 * {@code | }. Blocks are separated by blank lines; lines starting with {@code #} are comments.
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
        Path templates = Path.of(args[0]);
        Path out = Path.of(args[1]);
        Set<Path> written = new HashSet<>();
        List<Path> found;
        try (Stream<Path> files = Files.walk(templates)) {
            found = files.filter(p -> p.toString().endsWith(".template")).sorted().toList();
        }
        for (Path template : found) {
            written.addAll(generate(templates, template, out));
        }
        deleteStale(out, written);
    }

    private static List<Path> generate(Path root, Path template, Path out) throws IOException {
        String name = template.getFileName().toString().replaceFirst("\\.template$", "");
        Path variants = template.resolveSibling(name + ".variants");
        String text = Files.readString(template, StandardCharsets.UTF_8);
        Path packageDir = root.relativize(template.getParent());
        String header = "// Generated from " + root.relativize(template) + " and " + name
                + ".variants; edit those, not this file.\n";
        List<Path> written = new ArrayList<>();
        for (Map<String, String> variant : parse(variants)) {
            String className = variant.get("class");
            if (className == null) {
                throw new IllegalStateException(variants + ": a block without a class");
            }
            Path file = out.resolve(packageDir).resolve(className + ".java");
            writeIfChanged(file, header + fill(text, variant, variants + " (" + className + ")"));
            written.add(file);
        }
        return written;
    }

    /** The template with every hole filled; a hole without a value, or a value no hole takes, is an error. */
    static String fill(String template, Map<String, String> values, String where) {
        Set<String> unused = new HashSet<>(values.keySet());
        Matcher m = HOLE.matcher(template);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String key = m.group(1);
            String value = values.get(key);
            if (value == null) {
                throw new IllegalStateException(where + ": no value for $" + key + "$");
            }
            unused.remove(key);
            m.appendReplacement(sb, Matcher.quoteReplacement(value));
        }
        m.appendTail(sb);
        unused.remove("class");
        if (!unused.isEmpty()) {
            throw new IllegalStateException(where + ": no hole takes " + unused);
        }
        return sb.toString();
    }

    static List<Map<String, String>> parse(Path variants) throws IOException {
        List<Map<String, String>> blocks = new ArrayList<>();
        Map<String, String> block = new LinkedHashMap<>();
        String continued = null;
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
            } else if (line.startsWith("|") && continued != null) {
                String more = line.length() > 1 ? line.substring(2) : "";
                String sofar = block.get(continued);
                block.put(continued, sofar.isEmpty() ? more : sofar + "\n" + more);
            } else {
                int colon = line.indexOf(':');
                if (colon < 1) {
                    throw new IllegalStateException(variants + ":" + number + ": expected key: value");
                }
                String key = line.substring(0, colon).trim();
                if (block.put(key, line.substring(colon + 1).trim()) != null) {
                    throw new IllegalStateException(variants + ":" + number + ": " + key + " twice in a block");
                }
                continued = key;
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
