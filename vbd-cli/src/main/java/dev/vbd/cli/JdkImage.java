package dev.vbd.cli;

import org.objectweb.asm.Attribute;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The prepared JDK as a runtime image of its own: the JDK's modules, rewritten, linked by the JDK's
 * own {@code jlink} into a {@code lib/modules} that replaces the original one in a copy of the JDK,
 * with a class data sharing archive dumped for it. Nothing is patched when it starts, so the JVM
 * shares classes as a stock JDK does.
 *
 * <p>jlink links from exploded modules here (JDK 17 keeps {@code jmods/} apart, and later JDKs may
 * have none), which needs three things: the hashes {@code java.base}'s descriptor records of the
 * others are dropped (rewritten modules no longer match them, and jlink would refuse); and the
 * classes jlink would generate, {@code java.lang.invoke}'s holders and species and the
 * {@code SystemModules} that describe the module graph, are kept as the JDK shipped them,
 * rewritten ({@code --disable-plugin generate-jli-classes}, {@code system-modules}). The shipped
 * {@code SystemModules} still carry the hashes, which is what keeps the JDK's modules unversioned
 * in stack traces.
 *
 * <p>Layout under the image: the JDK as shipped but {@code lib/modules} and the CDS archive;
 * {@code bin/java} is a script that starts {@code bin/java-noagent}, the JDK's own launcher, with
 * vbd's agent, so that any tool given this Java home runs programs under vbd, unless the command
 * line names the agent already (a harness that forks this home's {@code java} with its own agent
 * options); {@code bin/vbd run} starts {@code java-noagent} itself, with the agent and its options.
 */
final class JdkImage {
    static final String IMAGE = "image";
    static final String LAUNCHER = "java-noagent";
    /** What a runtime image needs of the JDK's home; the rest (sources, jmods, man pages, the old archives) is left. */
    private static final Set<String> SKIPPED = Set.of("jmods", "man", "demo", "sample", "lib/src.zip", "lib/modules");

    private final Path work;
    private final Path modules;

    JdkImage(Path work) throws IOException {
        this.work = work;
        this.modules = work.resolve("modules");
        Files.createDirectories(modules);
    }

    /** Whether this JDK can be linked into an image: it has jlink (a JRE does not). */
    static boolean linkable(Path javaHome) {
        return Files.isExecutable(javaHome.resolve("bin").resolve("jlink"));
    }

    /**
     * Writes one module, exploded: its rewritten classes ({@code classes}, by path in the module)
     * and everything else the JDK's image holds for it (resources, module-info without hashes).
     */
    void addModule(FileSystem jrt, String module, Map<String, byte[]> classes) throws IOException {
        Path root = jrt.getPath("/modules", module);
        Path dst = modules.resolve(module);
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (Files.isDirectory(p)) continue;
                String rel = root.relativize(p).toString();
                Path t = dst.resolve(rel);
                Files.createDirectories(t.getParent());
                if (rel.equals("module-info.class")) {
                    Files.write(t, withoutHashes(Files.readAllBytes(p)));
                } else if (!classes.containsKey(rel)) {
                    Files.copy(p, t);
                }
            }
        }
        for (Map.Entry<String, byte[]> c : classes.entrySet()) {
            Path t = dst.resolve(c.getKey());
            Files.createDirectories(t.getParent());
            Files.write(t, c.getValue());
        }
    }

    /**
     * The module descriptor without {@code ModuleHashes}. Written over the original constant
     * pool, so that the attributes ASM does not know ({@code ModuleTarget}, {@code ModuleResolution})
     * are copied as they are and stay valid.
     */
    static byte[] withoutHashes(byte[] moduleInfo) {
        ClassReader r = new ClassReader(moduleInfo);
        ClassWriter w = new ClassWriter(r, 0);
        r.accept(new ClassVisitor(Opcodes.ASM9, w) {
            @Override
            public void visitAttribute(Attribute attribute) {
                if (!attribute.type.equals("ModuleHashes")) super.visitAttribute(attribute);
            }
        }, 0);
        return w.toByteArray();
    }

    /**
     * Links the modules, assembles the image under {@code out} from {@code javaHome}, and dumps its
     * CDS archive. {@code agent} is the {@code -javaagent:} option that {@code bin/java} adds, and
     * {@code finalOut} where the image will be used from.
     */
    void link(Path javaHome, List<String> moduleNames, Path out, Path finalOut, String agent) throws IOException {
        Path linked = work.resolve("linked");
        run(work.resolve("jlink.log"), javaHome.resolve("bin/jlink").toString(), "--module-path", modules.toString(),
                "--add-modules", String.join(",", moduleNames), "--disable-plugin", "generate-jli-classes",
                "--disable-plugin", "system-modules", "--output", linked.toString());
        copyHome(javaHome, out);
        Files.copy(linked.resolve("lib/modules"), out.resolve("lib/modules"), StandardCopyOption.REPLACE_EXISTING);
        Path bin = out.resolve("bin");
        Files.move(bin.resolve("java"), bin.resolve(LAUNCHER));
        withoutGeneratedClasses(out.resolve("lib/classlist"));
        run(work.resolve("cds.log"), bin.resolve(LAUNCHER).toString(), "-Xshare:dump");
        Path script = bin.resolve("java");
        String launcher = Shell.quote(finalOut.resolve("bin").resolve(LAUNCHER).toString());
        String agentJar = agent.substring(0, agent.indexOf('=') < 0 ? agent.length() : agent.indexOf('='));
        Files.writeString(script, "#!/bin/sh\n"
                + "# The JDK's launcher, with vbd's agent: sequential consistency by default for every program.\n"
                + "# A command line that names vbd's agent itself (with options of its own) keeps it.\n"
                + "for a in \"$@\"; do\n"
                + "  case \"$a\" in " + Shell.quote(agentJar) + "*) exec " + launcher + " \"$@\" ;; esac\n"
                + "done\n"
                + "exec " + launcher + " " + Shell.quote(agent) + " \"$@\"\n",
                StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /**
     * Drops from the image's class list the lines that make a dump generate classes: the
     * {@code java.lang.invoke} holder classes it would regenerate, and the lambda proxies it would
     * spin, are not vbd's rewrite, and archived they would replace the image's rewritten holders.
     * The file itself changes, not a copy: later JDKs read it for these lines whatever class list
     * a dump is given.
     */
    private static void withoutGeneratedClasses(Path classList) throws IOException {
        List<String> kept = new ArrayList<>();
        for (String line : Files.readAllLines(classList, StandardCharsets.UTF_8)) {
            if (!line.startsWith("@lambda-form-invoker") && !line.startsWith("@lambda-proxy")) kept.add(line);
        }
        Files.write(classList, kept, StandardCharsets.UTF_8);
    }

    /** The JDK's home without what the image replaces or does not need; links stay links. */
    private static void copyHome(Path home, Path out) throws IOException {
        try (Stream<Path> s = Files.walk(home)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                String rel = home.relativize(p).toString();
                if (skipped(rel)) continue;
                Path t = out.resolve(rel);
                if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t, LinkOption.NOFOLLOW_LINKS, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    private static boolean skipped(String rel) {
        for (String s : SKIPPED) {
            if (rel.equals(s) || rel.startsWith(s + "/")) return true;
        }
        return rel.startsWith("lib/server/") && rel.endsWith(".jsa");
    }

    private static void run(Path log, String... cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IOException("timed out: " + String.join(" ", cmd));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", cmd));
        }
        if (p.exitValue() != 0) {
            List<String> lines = new ArrayList<>(Files.readAllLines(log, StandardCharsets.UTF_8));
            throw new IOException(String.join(" ", cmd) + " failed (exit status " + p.exitValue() + "):\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size())));
        }
    }
}
