package dev.vbd.core.verify;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The rewritten classes of a prepared JDK, read from its {@code patch/} folder: one jar a module
 * ({@code patch/<module>.jar}) or one folder a module ({@code patch/<module>/}).
 */
public final class PreparedJdk implements Closeable {
    private final Path patch;
    private final Map<String, ZipFile> jars = new ConcurrentHashMap<>();

    public PreparedJdk(Path preparedDir) {
        this.patch = preparedDir.resolve("patch");
    }

    /** The bytes of a class of a module, or null. */
    public byte[] find(String module, String internalName) {
        String entry = internalName + ".class";
        try {
            ZipFile zip = jar(module);
            if (zip != null) {
                ZipEntry e = zip.getEntry(entry);
                if (e == null) return null;
                try (InputStream in = zip.getInputStream(e)) {
                    return in.readAllBytes();
                }
            }
            Path file = patch.resolve(module).resolve(entry);
            return Files.isRegularFile(file) ? Files.readAllBytes(file) : null;
        } catch (IOException e) {
            return null;
        }
    }

    private ZipFile jar(String module) throws IOException {
        ZipFile z = jars.get(module);
        if (z != null) return z;
        Path p = patch.resolve(module + ".jar");
        if (!Files.isRegularFile(p)) return null;
        synchronized (jars) {
            z = jars.get(module);
            if (z == null) {
                z = new ZipFile(p.toFile());
                jars.put(module, z);
            }
            return z;
        }
    }

    /** Every class, by internal name, with a way to read it (JDK modules never split a package). */
    public Map<String, Supplier<byte[]>> classes() throws IOException {
        Map<String, Supplier<byte[]>> out = new TreeMap<>();
        if (!Files.isDirectory(patch)) throw new IOException("no patch folder in " + patch.getParent());
        try (Stream<Path> list = Files.list(patch)) {
            for (Path p : (Iterable<Path>) list::iterator) {
                String file = p.getFileName().toString();
                if (file.endsWith(".jar")) {
                    String module = file.substring(0, file.length() - ".jar".length());
                    ZipFile zip = jar(module);
                    zip.stream().map(ZipEntry::getName).filter(PreparedJdk::isClass)
                            .forEach(n -> out.putIfAbsent(strip(n), () -> need(module, strip(n))));
                } else if (Files.isDirectory(p)) {
                    try (Stream<Path> files = Files.walk(p)) {
                        files.filter(f -> isClass(f.toString())).forEach(f -> {
                            String rel = strip(p.relativize(f).toString().replace('\\', '/'));
                            out.putIfAbsent(rel, () -> need(file, rel));
                        });
                    }
                }
            }
        }
        return out;
    }

    private byte[] need(String module, String internalName) {
        byte[] b = find(module, internalName);
        if (b == null) throw new UncheckedIOException(new IOException("cannot read " + internalName + " of " + module + " in " + patch));
        return b;
    }

    private static boolean isClass(String name) {
        return name.endsWith(".class") && !name.endsWith("module-info.class");
    }

    private static String strip(String name) {
        return name.substring(0, name.length() - ".class".length());
    }

    @Override
    public void close() {
        for (ZipFile z : jars.values()) {
            try {
                z.close();
            } catch (IOException e) {
                // read-only; nothing to lose
            }
        }
        jars.clear();
    }
}
