package dev.vbd.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;

/**
 * The agent's jar, written into each prepared JDK's entry: only what the agent needs (its own
 * classes, the core, ASM), all of it moved under {@code dev.vbd.internal}, so that the program,
 * whose class path the JVM appends the agent's jar to, sees nothing of vbd's command line and no
 * ASM under the names an application's own may have.
 */
final class AgentJar {
    static final String PREFIX = "dev/vbd/internal/";

    private AgentJar() {}

    static void write(Path vbdJar, Path jar) throws IOException {
        Map<String, byte[]> classes = Relocated.rewriting(vbdJar, AgentJar::moved, AgentJar::moved, true);
        Manifest m = new Manifest();
        Attributes a = m.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.putValue("Premain-Class", (PREFIX + "agent/VbdAgent").replace('/', '.'));
        a.putValue("Can-Retransform-Classes", "true");
        a.putValue("Can-Redefine-Classes", "false");
        try (JarOutputStream out = new JarOutputStream(new BufferedOutputStream(Files.newOutputStream(jar)), m)) {
            for (Map.Entry<String, byte[]> e : classes.entrySet()) {
                ZipEntry z = new ZipEntry(e.getKey());
                z.setTime(0);
                out.putNextEntry(z);
                out.write(e.getValue());
                out.closeEntry();
            }
        }
    }

    private static String moved(String path) {
        return PREFIX + path.substring("dev/vbd/".length());
    }
}
