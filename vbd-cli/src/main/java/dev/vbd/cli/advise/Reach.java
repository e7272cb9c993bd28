package dev.vbd.cli.advise;

import dev.vbd.agent.observe.ObservingClassVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

/**
 * What the candidate methods can touch, read from their class files on the program's class path
 * (a JDK class's from the run-time image of the JDK that runs the program):
 * the fields they access (by name and type) and the kinds of arrays whose elements they access.
 * The observer then watches only accesses that could be to those, and to fields holding references,
 * everywhere in the program: an access to anything else can neither race with a candidate's nor,
 * left out, hide a race (it could only have ordered two accesses). When a candidate's class is not on the class path given (a jar's
 * own Class-Path, a class loader of the program's), nothing is known and everything is watched.
 */
public final class Reach {
    /** The observer's line for "watch everything". */
    public static final String EVERYTHING = "everything";

    private Reach() {}

    /** The lines of the observer's reach file, or {@link #EVERYTHING}. */
    public static List<String> of(List<String> javaArgs, List<String> candidates, Path javaHome) throws IOException {
        Set<String> lines = new TreeSet<>();
        try (ClassFiles files = new ClassFiles(javaArgs, javaHome)) {
            for (String candidate : candidates) {
                byte[] bytes = files.find(candidate.substring(0, candidate.indexOf('#')));
                if (bytes == null) return List.of(EVERYTHING);
                reach(bytes, candidate, lines);
            }
        }
        return new ArrayList<>(lines);
    }

    /**
     * The methods with code that each class (dotted name) declares, as candidates are named; a class
     * whose class file is not found has none.
     */
    public static Map<String, List<String>> methods(List<String> javaArgs, List<String> classes, Path javaHome) throws IOException {
        Map<String, List<String>> methods = new LinkedHashMap<>();
        try (ClassFiles files = new ClassFiles(javaArgs, javaHome)) {
            for (String c : classes) {
                List<String> declared = new ArrayList<>();
                methods.put(c, declared);
                byte[] bytes = files.find(c);
                if (bytes == null) continue;
                new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
                    @Override
                    public MethodVisitor visitMethod(int access, String n, String d, String signature, String[] exceptions) {
                        if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) == 0) declared.add(c + "#" + n + d);
                        return null;
                    }
                }, ClassReader.SKIP_CODE);
            }
        }
        return methods;
    }

    /** The classes (dotted names) of each of the program's packages, named as scopes are ({@code a.b.*}). */
    public static Map<String, List<String>> classes(List<String> javaArgs, List<String> packages, Path javaHome) throws IOException {
        Map<String, List<String>> classes = new LinkedHashMap<>();
        try (ClassFiles files = new ClassFiles(javaArgs, javaHome)) {
            for (String p : packages) classes.put(p, files.list(p.equals("*") ? "" : p.substring(0, p.length() - 2)));
        }
        return classes;
    }

    /** Class files by dotted name: the program's class path first, then the JDK's run-time image. */
    private static final class ClassFiles implements AutoCloseable {
        private final List<Path> path;
        private final Path javaHome;
        private FileSystem jdk;

        ClassFiles(List<String> javaArgs, Path javaHome) {
            this.path = classPath(javaArgs);
            this.javaHome = javaHome;
        }

        byte[] find(String className) throws IOException {
            String entry = className.replace('.', '/') + ".class";
            byte[] bytes = Reach.find(path, entry);
            if (bytes != null) return bytes;
            if (jdk == null) jdk = FileSystems.newFileSystem(URI.create("jrt:/"), Map.of("java.home", javaHome.toString()));
            return findInJdk(jdk, entry);
        }

        /** The classes of a package (dotted) on the class path, not of its sub-packages. */
        List<String> list(String dottedPackage) throws IOException {
            String dir = dottedPackage.isEmpty() ? "" : dottedPackage.replace('.', '/') + "/";
            Set<String> names = new TreeSet<>();
            for (Path p : path) {
                if (Files.isDirectory(p)) {
                    Path d = dir.isEmpty() ? p : p.resolve(dir);
                    if (!Files.isDirectory(d)) continue;
                    try (var entries = Files.list(d)) {
                        entries.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".class"))
                                .forEach(n -> names.add(dir + n));
                    }
                } else if (Files.isRegularFile(p)) {
                    try (JarFile jar = new JarFile(p.toFile())) {
                        jar.stream().map(ZipEntry::getName)
                                .filter(n -> n.startsWith(dir) && n.endsWith(".class") && n.indexOf('/', dir.length()) < 0)
                                .forEach(names::add);
                    }
                }
            }
            List<String> classes = new ArrayList<>();
            for (String n : names) {
                String c = n.substring(0, n.length() - ".class".length()).replace('/', '.');
                if (!c.endsWith("package-info") && !c.endsWith("module-info")) classes.add(c);
            }
            return classes;
        }

        @Override
        public void close() throws IOException {
            if (jdk != null) jdk.close();
        }
    }

    private static void reach(byte[] bytes, String candidate, Set<String> lines) {
        int hash = candidate.indexOf('#');
        int paren = candidate.indexOf('(', hash);
        String name = candidate.substring(hash + 1, paren);
        String desc = candidate.substring(paren);
        new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String n, String d, String signature, String[] exceptions) {
                if (!n.equals(name) || !d.equals(desc)) return null;
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitFieldInsn(int opcode, String fieldOwner, String fieldName, String fieldDesc) {
                        lines.add("field " + fieldName + ":" + fieldDesc);
                    }

                    @Override
                    public void visitMethodInsn(int opcode, String callee, String n, String d, boolean itf) {
                        // a bulk copy's arrays can be of any kind
                        if (ObservingClassVisitor.bulk(opcode, callee, n, d)) {
                            for (int kind = 0; kind < 8; kind++) lines.add("array " + kind);
                        }
                    }

                    @Override
                    public void visitInsn(int opcode) {
                        if (opcode >= Opcodes.IALOAD && opcode <= Opcodes.SALOAD) lines.add("array " + (opcode - Opcodes.IALOAD));
                        if (opcode >= Opcodes.IASTORE && opcode <= Opcodes.SASTORE) lines.add("array " + (opcode - Opcodes.IASTORE));
                    }
                };
            }
        }, ClassReader.SKIP_FRAMES);
    }

    private static byte[] findInJdk(FileSystem jdk, String entry) throws IOException {
        try (var modules = Files.list(jdk.getPath("/modules"))) {
            for (Path m : (Iterable<Path>) modules::iterator) {
                Path f = m.resolve(entry);
                if (Files.isRegularFile(f)) return Files.readAllBytes(f);
            }
        }
        return null;
    }

    /** The class path of a java command line: {@code -cp} and its spellings, or {@code -jar}'s jar. */
    static List<Path> classPath(List<String> javaArgs) {
        List<Path> path = new ArrayList<>();
        for (int i = 0; i + 1 < javaArgs.size(); i++) {
            String a = javaArgs.get(i);
            if (a.equals("-cp") || a.equals("-classpath") || a.equals("--class-path") || a.equals("-jar")) {
                for (String entry : javaArgs.get(i + 1).split(File.pathSeparator)) {
                    if (entry.endsWith("*")) {
                        Path dir = Path.of(entry.substring(0, entry.length() - 1));
                        try (var jars = Files.list(dir.toString().isEmpty() ? Path.of(".") : dir)) {
                            jars.filter(p -> p.toString().endsWith(".jar") || p.toString().endsWith(".JAR")).sorted().forEach(path::add);
                        } catch (IOException e) {
                            // an entry the JVM would skip too
                        }
                    } else if (!entry.isEmpty()) {
                        path.add(Path.of(entry));
                    }
                }
                if (a.equals("-jar")) break;
                i++;
            } else if (!a.startsWith("-")) {
                break; // the main class: what follows is the program's
            }
        }
        return path;
    }

    private static byte[] find(List<Path> path, String entry) throws IOException {
        for (Path p : path) {
            if (Files.isDirectory(p)) {
                Path f = p.resolve(entry);
                if (Files.isRegularFile(f)) return Files.readAllBytes(f);
            } else if (Files.isRegularFile(p)) {
                try (JarFile jar = new JarFile(p.toFile())) {
                    ZipEntry e = jar.getEntry(entry);
                    if (e != null) {
                        try (InputStream in = jar.getInputStream(e)) {
                            return in.readAllBytes();
                        }
                    }
                }
            }
        }
        return null;
    }
}
