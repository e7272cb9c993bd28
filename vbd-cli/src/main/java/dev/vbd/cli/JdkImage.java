package dev.vbd.cli;

import dev.vbd.agent.AgentOptions;
import dev.vbd.agent.ExerciseClass;
import dev.vbd.agent.ImageRewriting;
import dev.vbd.core.rewrite.FieldMode;
import dev.vbd.host.Command;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * <p>The image rewrites the program's classes itself, without an agent: its java.base carries
 * vbd's rewriting ({@code dev.vbd.agent.ImageRewriting}, the core and ASM), relocated into
 * {@code jdk.internal.misc} where no program sees it, and its class list names those classes so
 * that the CDS archive holds them, loaded and linked, like the JDK's own. A training run of a
 * small generated program lists them. {@code bin/java} is the JDK's own launcher.
 */
final class JdkImage {
    static final String IMAGE = "image";
    static final String LAUNCHER = "java";
    /**
     * Where the image's java.base keeps vbd's own classes: one package the JDK already has (the
     * JDK's compiled module graph, which the image keeps, fixes java.base's packages), exported to
     * no program, each class named {@code Vbd_} and its path below {@code dev/vbd/}.
     */
    static final String RELOCATED = "jdk/internal/misc/Vbd_";
    private static final String TRAINING = "VbdTraining";
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
     * and everything else the JDK's image holds for it (resources, module-info without hashes),
     * and {@code extra} files, in packages the module has.
     */
    void addModule(FileSystem jrt, String module, Map<String, byte[]> classes, Map<String, byte[]> extra) throws IOException {
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
        Map<String, byte[]> all = new java.util.HashMap<>(classes);
        all.putAll(extra);
        for (Map.Entry<String, byte[]> c : all.entrySet()) {
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
     * vbd's rewriting, for the image's java.base: the agent's classes that need no
     * {@code java.lang.instrument}, the core with its resources, and ASM, each moved from
     * {@code dev/vbd/} to {@link #RELOCATED} ({@link Relocated}); a resource, which its class
     * reads by a name relative to its own package, moves to that package.
     */
    static Map<String, byte[]> relocatedRewriting(Path vbdJar) throws IOException {
        String pkg = RELOCATED.substring(0, RELOCATED.lastIndexOf('/') + 1);
        return Relocated.rewriting(vbdJar, JdkImage::relocated, r -> pkg + r.substring(r.lastIndexOf('/') + 1), false);
    }

    private static String relocated(String internalName) {
        return RELOCATED + internalName.substring("dev/vbd/".length()).replace('/', '_');
    }

    /**
     * Links the modules, assembles the image under {@code out} from {@code javaHome}, and dumps its
     * CDS archive; {@code fields} is how the modules' fields were made SC.
     */
    void link(Path javaHome, List<String> moduleNames, FieldMode fields, Path out) throws IOException {
        Path linked = work.resolve("linked");
        run(work.resolve("jlink.log"), javaHome.resolve("bin/jlink").toString(), "--module-path", modules.toString(),
                "--add-modules", String.join(",", moduleNames), "--disable-plugin", "generate-jli-classes",
                "--disable-plugin", "system-modules", "--output", linked.toString());
        copyHome(javaHome, out);
        Files.copy(linked.resolve("lib/modules"), out.resolve("lib/modules"), StandardCopyOption.REPLACE_EXISTING);
        Path java = out.resolve("bin").resolve(LAUNCHER);
        Path classList = out.resolve("lib/classlist");
        withoutGeneratedClasses(classList);
        withTrainingClasses(java, classList, trainingOptions(fields));
        run(work.resolve("cds.log"), java.toString(), "-Xshare:dump");
    }

    /**
     * The image's options for its training runs: a JDK with fenced fields serves programs with
     * fenced and speculative fields, and trains with speculative ones, whose rewrite runs the
     * fenced one's visitors too. (Without options the image takes its JDK's own mode.)
     */
    private static String trainingOptions(FieldMode fields) {
        FieldMode program = fields == FieldMode.VOLATILE || !fields.sc() ? fields : FieldMode.SPECULATIVE;
        return new AgentOptions(null, false, null, null, false, program, null, null).format();
    }

    /**
     * Adds to the class list the JDK classes the image's own rewriting loads, its own included: a
     * small generated program, run with the list of what it loads, makes every visitor run. It runs
     * twice over a store of its own, so that both a rewrite kept and a rewrite taken from the store
     * are listed.
     */
    private void withTrainingClasses(Path java, Path classList, String options) throws IOException {
        Path dir = work.resolve("training");
        Files.createDirectories(dir);
        Files.write(dir.resolve(TRAINING + ".class"), ExerciseClass.generate(TRAINING));
        Set<String> listed = new java.util.LinkedHashSet<>(Files.readAllLines(classList, StandardCharsets.UTF_8));
        List<String> added = new ArrayList<>();
        for (String run : List.of("keeps", "takes")) {
            Path loaded = work.resolve("training-" + run + ".classlist");
            List<String> cmd = new ArrayList<>(List.of(java.toString(), "-Xshare:off", "-XX:DumpLoadedClassList=" + loaded,
                    "-D" + ImageRewriting.STORE_PROPERTY + "=" + work.resolve("training-store")));
            if (!options.isEmpty()) cmd.add("-D" + ImageRewriting.OPTIONS_PROPERTY + "=" + options);
            cmd.addAll(List.of("-cp", dir.toString(), TRAINING));
            run(work.resolve("training-" + run + ".log"), cmd.toArray(String[]::new));
            for (String line : Files.readAllLines(loaded, StandardCharsets.UTF_8)) {
                if (line.isEmpty() || line.startsWith("@") || line.startsWith("#")) continue;
                String name = line.split(" ", 2)[0];
                if (!name.equals(TRAINING) && listed.add(name)) added.add(name);
            }
        }
        if (added.stream().noneMatch(n -> n.startsWith(RELOCATED))) {
            throw new IOException("the image's training run loaded none of vbd's classes (see " + work.resolve("training-keeps.log") + ")");
        }
        Files.write(classList, listed, StandardCharsets.UTF_8);
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
        Command.Result r;
        try {
            r = Command.of(cmd).outputTo(log).timeout(Duration.ofMinutes(10)).run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", cmd));
        }
        if (r.timedOut()) throw new IOException("timed out: " + String.join(" ", cmd));
        if (r.status() != 0) {
            List<String> lines = new ArrayList<>(Files.readAllLines(log, StandardCharsets.UTF_8));
            throw new IOException(String.join(" ", cmd) + " failed (exit status " + r.status() + "):\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size())));
        }
    }
}
