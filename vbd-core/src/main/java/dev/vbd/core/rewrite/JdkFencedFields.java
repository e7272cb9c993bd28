package dev.vbd.core.rewrite;

import dev.vbd.core.analysis.ClassFacts;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fields of a prepared JDK whose accesses need fences ({@link FieldMode#FENCED}: made SC by
 * vbd, plain in the JVM), by name and descriptor, written when the JDK is prepared. A program's
 * rewriter asks it whether an access to a field of a {@code java.*} class needs fences instead of
 * reading the JDK's class file: the first such read costs a JVM's start-up some 20 ms.
 *
 * <p>A name and descriptor stand for every JDK field that has them, so the table answers "fenced"
 * for a field when any JDK field of that name and descriptor is fenced: an access that needs no
 * fences may get them, which costs time only, and one that needs them always gets them.
 *
 * <p>The file holds one {@code name.descriptor} per line (a field's name has no dot, nor does a
 * descriptor's class name in its internal form), sorted by their UTF-8 bytes, each line ending in a
 * newline. Looking one up is a binary search over the file's bytes, so reading it builds nothing.
 */
public final class JdkFencedFields {
    /** Its name in the prepared JDK's directory. */
    public static final String FILE = "fenced-fields.txt";

    private final byte[] lines;

    private JdkFencedFields(byte[] lines) {
        this.lines = lines;
    }

    /**
     * Writes the table of these fields, each {@code name.descriptor}. Returns false and writes
     * nothing when a key has a newline, which a line cannot hold: without the file, the program's
     * rewriter reads the JDK's class files instead.
     */
    public static boolean write(Path file, Collection<String> keys) throws IOException {
        byte[][] sorted = new byte[keys.size()][];
        int i = 0;
        for (String k : keys) {
            if (k.indexOf('\n') >= 0) return false;
            sorted[i++] = k.getBytes(StandardCharsets.UTF_8);
        }
        Arrays.sort(sorted, Arrays::compareUnsigned);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] previous = null;
        for (byte[] k : sorted) {
            if (previous != null && Arrays.equals(previous, k)) continue;
            out.write(k, 0, k.length);
            out.write('\n');
            previous = k;
        }
        Files.write(file, out.toByteArray());
        return true;
    }

    /**
     * The table of the JDK prepared in {@code dir}, for a JVM with these system properties, or null:
     * when there is none, or when the JVM patches a module with classes from outside {@code dir}
     * ({@code --patch-module}), which the table does not know.
     */
    public static JdkFencedFields of(File dir, Properties system) {
        String prepared = dir.getAbsolutePath() + File.separator;
        for (int i = 0; ; i++) {
            String patch = system.getProperty("jdk.module.patch." + i);
            if (patch == null) break;
            // module=path[:path...]; the patches vbd itself adds, where the JDK has no runtime image, lie under dir
            int from = patch.indexOf('=') + 1;
            while (from <= patch.length()) {
                int to = patch.indexOf(File.pathSeparatorChar, from);
                if (to < 0) to = patch.length();
                if (!new File(patch.substring(from, to)).getAbsolutePath().startsWith(prepared)) return null;
                from = to + 1;
            }
        }
        return read(new File(dir, FILE));
    }

    /** The table in {@code file}, or null when there is none or it is not one (not ending in a newline). */
    public static JdkFencedFields read(File file) {
        byte[] bytes;
        try (FileInputStream in = new FileInputStream(file)) {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            return null;
        }
        if (bytes.length > 0 && bytes[bytes.length - 1] != '\n') return null;
        return new JdkFencedFields(bytes);
    }

    /**
     * Collects the table from the prepared JDK's class files, as the rewriter reads their markers: a
     * field needs fences when its class's rewrite made it SC and left it plain in the JVM. The table
     * holds the fields of the {@code java.*} classes and of their superclasses, which are all a
     * program's rewriter asks it about. Thread-safe.
     */
    public static final class Builder {
        private final Map<String, String> superOf = new ConcurrentHashMap<>();
        private final Map<String, List<String>> fencedOf = new ConcurrentHashMap<>();

        /** A class file of the prepared JDK, rewritten or left as it was. */
        public void add(byte[] classFile) {
            add(classFile, false);
        }

        /**
         * A class of the JDK that its rewrite failed on: any field it could have made SC counts as
         * fenced, which is what the rewriter answers for a class it reads unmarked.
         */
        public void addUnrewritten(byte[] classFile) {
            add(classFile, true);
        }

        private void add(byte[] classFile, boolean failed) {
            ClassFacts f = ClassFacts.read(classFile);
            if (f.name == null) return;
            if (f.superName != null) superOf.put(f.name, f.superName);
            if (f.marker == null && !failed) return;
            List<String> keys = new ArrayList<>();
            for (ClassFacts.FieldFact field : f.declaredFields) {
                boolean fenced = failed ? !field.isVolatile() && !field.isFinal() : !field.isVolatile() && f.marker.flipped(field.name());
                if (fenced) keys.add(key(field.name(), field.desc()));
            }
            if (!keys.isEmpty()) fencedOf.put(f.name, keys);
        }

        /** The keys of the fields that need fences, declared by a {@code java.*} class or a superclass of one. */
        public Set<String> keys() {
            Set<String> keys = new HashSet<>();
            Set<String> seen = new HashSet<>();
            for (String name : superOf.keySet()) {
                if (!name.startsWith("java/")) continue;
                for (String c = name; c != null && seen.add(c); c = superOf.get(c)) {
                    keys.addAll(fencedOf.getOrDefault(c, List.of()));
                }
            }
            return keys;
        }
    }

    /** The key of a field in the table. */
    public static String key(String name, String descriptor) {
        return name + "." + descriptor;
    }

    /** Whether a JDK field of this name and descriptor needs fences. */
    public boolean fenced(String name, String descriptor) {
        byte[] key = key(name, descriptor).getBytes(StandardCharsets.UTF_8);
        int lo = 0, hi = lines.length;  // both at the start of a line; the lines in between are searched
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int start = mid;
            while (start > lo && lines[start - 1] != '\n') start--;
            int end = start;
            while (lines[end] != '\n') end++;
            int c = Arrays.compareUnsigned(lines, start, end, key, 0, key.length);
            if (c == 0) return true;
            if (c < 0) lo = end + 1;
            else hi = start;
        }
        return false;
    }
}
