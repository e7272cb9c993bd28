package dev.vbd.cli;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.Remapper;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * vbd's rewriting, taken from vbd's jar and moved to other names with ASM's {@link ClassRemapper}:
 * the agent's classes, the core with its resources, and ASM. A runtime image's java.base carries
 * it ({@link JdkImage}), and so does the agent's own jar ({@link AgentJar}); neither shows the
 * program a class of vbd's under the names vbd's command line uses. The classes' references to one
 * another move with them; the names they write into rewritten classes are strings and stay.
 */
final class Relocated {
    private static final String OWN = "dev/vbd/";
    private static final String[] TAKEN = {"dev/vbd/agent/", "dev/vbd/core/", "dev/vbd/shaded/asm/"};

    private Relocated() {}

    /**
     * Every class and resource of vbd's rewriting, by path in the new place: {@code className} moves
     * an internal class name below {@code dev/vbd/}, {@code resource} a resource's path. Without
     * {@code instrument}, the classes that need {@code java.lang.instrument} (the agent's entry and
     * its transformer) are left out.
     */
    static Map<String, byte[]> rewriting(Path vbdJar, UnaryOperator<String> className, UnaryOperator<String> resource,
                                         boolean instrument) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        Remapper move = new Remapper() {
            @Override
            public String map(String internalName) {
                return internalName.startsWith(OWN) ? className.apply(internalName) : internalName;
            }
        };
        try (ZipFile jar = new ZipFile(vbdJar.toFile())) {
            for (ZipEntry e : Collections.list(jar.entries())) {
                String name = e.getName();
                if (e.isDirectory() || !taken(name)) continue;
                byte[] bytes;
                try (InputStream in = jar.getInputStream(e)) {
                    bytes = in.readAllBytes();
                }
                if (name.endsWith(".class")) {
                    if (!instrument && new String(bytes, StandardCharsets.ISO_8859_1).contains("java/lang/instrument/")) continue;
                    ClassWriter w = new ClassWriter(0);
                    new ClassReader(bytes).accept(new ClassRemapper(new AtLeastJava6(w), move), 0);
                    bytes = w.toByteArray();
                    name = className.apply(name.substring(0, name.length() - ".class".length())) + ".class";
                } else {
                    name = resource.apply(name);
                }
                if (out.put(name, bytes) != null) throw new IOException("two of vbd's files relocate to " + name);
            }
        }
        if (out.isEmpty()) throw new IOException(vbdJar + " holds none of vbd's rewriting");
        return out;
    }

    private static boolean taken(String entry) {
        for (String t : TAKEN) {
            if (entry.startsWith(t)) return true;
        }
        return false;
    }

    /**
     * ASM's own classes are Java 5 class files. The JDK's class data sharing treats those as old
     * (their verifier is the old one) and does not link them when it archives them; a class of
     * vbd's that overrides their methods then dispatched to the superclass's. Java 6 is the
     * oldest version it links, and its verifier falls back to the old one when a method has no
     * stack map frames, so the classes stay as they are otherwise.
     */
    private static final class AtLeastJava6 extends ClassVisitor {
        AtLeastJava6(ClassVisitor next) {
            super(Opcodes.ASM9, next);
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
            int major = version & 0xFFFF;
            super.visit(major < Opcodes.V1_6 ? Opcodes.V1_6 : version, access, name, signature, superName, interfaces);
        }
    }
}
