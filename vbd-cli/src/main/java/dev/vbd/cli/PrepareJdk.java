package dev.vbd.cli;

import dev.vbd.core.policy.Policy;
import dev.vbd.core.policy.RelaxedConfig;
import dev.vbd.core.policy.RelaxedConfigException;
import dev.vbd.core.rewrite.ClassRewriter;
import dev.vbd.core.rewrite.FieldMode;
import dev.vbd.core.rewrite.JdkFencedFields;
import dev.vbd.core.rewrite.Optimisations;
import dev.vbd.core.rewrite.RewriteException;
import dev.vbd.core.rewrite.RewriteResult;
import dev.vbd.core.verify.Json;
import dev.vbd.host.Trees;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Rewrites every class of the running JDK's modules into one patch jar a module, for
 * {@code --patch-module} ({@code bin/vbd jvm-args}), and links them into a runtime image of their
 * own ({@link JdkImage}; {@code bin/vbd run} and {@code java-home}) when the JDK has jlink. Runs
 * inside the target JDK itself, so it reads exactly the image that will run. Usage:
 * {@code PrepareJdk OUT_DIR [RELAXED_FILE]}: the entry is written to {@code OUT_DIR}, and may be
 * moved from there (nothing in it names its own path).
 */
public final class PrepareJdk {
    /**
     * One uncompressed jar a module: the JVM opens a patch jar by its central directory, where a
     * patch directory would be walked file by file at every start.
     */
    private static void writeJar(Path jar, Map<String, byte[]> entries) throws IOException {
        try (java.util.zip.ZipOutputStream zip = new java.util.zip.ZipOutputStream(
                new java.io.BufferedOutputStream(Files.newOutputStream(jar), 1 << 16))) {
            zip.setMethod(java.util.zip.ZipOutputStream.STORED);
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            for (String name : new java.util.TreeSet<>(entries.keySet())) {
                byte[] b = entries.get(name);
                java.util.zip.ZipEntry ze = new java.util.zip.ZipEntry(name);
                crc.reset();
                crc.update(b);
                ze.setSize(b.length);
                ze.setCompressedSize(b.length);
                ze.setCrc(crc.getValue());
                ze.setTime(0);
                zip.putNextEntry(ze);
                zip.write(b);
                zip.closeEntry();
            }
        }
    }

    /** vbd's runtime, patched into java.base beside the rewritten classes. */
    static final List<String> RUNTIME_CLASSES = List.of(
            "java/util/concurrent/atomic/VbdRuntime.class", "java/util/concurrent/atomic/VbdRuntime$ClassDefinitions.class",
            "java/util/concurrent/atomic/VbdFieldModifiers.class",
            "java/util/concurrent/atomic/VbdSpeculation.class", "java/util/concurrent/atomic/VbdSpeculation$Hierarchy.class",
            "java/util/concurrent/atomic/VbdSpeculation$Hierarchy$1.class",
            "java/util/concurrent/atomic/VbdSpeculation$Hierarchy$2.class",
            "jdk/internal/misc/VbdFences.class",
            "java/lang/VbdDefineClass.class", "java/lang/invoke/VbdMethodHandles.class",
            "jdk/internal/loader/VbdClassPath.class");

    /** The agent's jar ({@link AgentJar}), in the entry: for the verifier, {@code run --agent} and patched modules. */
    static final String AGENT_JAR = "agent.jar";

    /** The argument that says how the JDK's fields are made SC: {@code --fields=volatile} or {@code --fields=fenced}. */
    static final String FIELDS = "--fields=";
    /** The argument that leaves out some of the rewrite's proofs ({@link Optimisations}): {@code --optimise=none}. */
    static final String OPTIMISE = "--optimise=";

    private PrepareJdk() {}

    /**
     * {@code OUT FIELDS [OPTIMISE] [RELAXED]}: where to put it, {@link #FIELDS}{@code volatile|fenced},
     * {@link #OPTIMISE}{@code WHICH} (all when absent), and a relaxed config.
     */
    public static void main(String[] args) throws Exception {
        Settings settings = Settings.parse(args);
        Path out = settings.out();
        long start = System.nanoTime();
        FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        JdkClasses jdk = JdkClasses.list(jrt);
        ClassRewriter rewriter = ClassRewriter.forJdk(new Policy(settings.config()), jdk::read)
                .fields(settings.fields()).optimise(settings.optimise());
        System.err.printf("vbd: rewriting %d classes in %d modules of %s (once per JDK build), %s fields%s%n",
                jdk.total(), jdk.byModule().size(), System.getProperty("java.home"), settings.fields().word(),
                settings.optimise() == Optimisations.ALL ? "" : ", optimising " + settings.optimise().word());
        Path javaHome = Path.of(System.getProperty("java.home"));
        JdkImage image = JdkImage.linkable(javaHome) ? new JdkImage(out.resolve("image-build")) : null;
        Path vbdJar = Path.of(PrepareJdk.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Modules modules = new Modules(rewriter, jrt, jdk, out.resolve("patch"), image,
                image == null ? Map.of() : JdkImage.relocatedRewriting(vbdJar));
        modules.rewriteAll();
        writeTables(out, settings.fields(), jdk, modules);
        if (image != null) {
            System.err.printf("vbd: linking the rewritten modules into a runtime image, with its class data sharing archive%n");
            image.link(javaHome, modules.names, settings.fields(), out.resolve(JdkImage.IMAGE));
            Trees.delete(out.resolve("image-build"));
        } else {
            System.err.printf("vbd: %s has no jlink: no runtime image, programs run with patched modules%n", javaHome);
        }
        AgentJar.write(vbdJar, out.resolve(AGENT_JAR));
        report(out, settings, jdk.total(), modules, (System.nanoTime() - start) / 1e9);
    }

    /** What the command line asks for; a bad argument ends the process with status 2, naming it. */
    private record Settings(Path out, FieldMode fields, Optimisations optimise, RelaxedConfig config) {
        static Settings parse(String[] args) {
            FieldMode fields = args.length > 1 && args[1].startsWith(FIELDS) ? FieldMode.of(args[1].substring(FIELDS.length())) : null;
            if (fields == null || fields != fields.jdk()) {
                System.err.println("vbd: the JDK is prepared as " + FIELDS + "volatile, " + FIELDS + "fenced or " + FIELDS + "safe-construction says"
                        + (args.length > 1 ? ", got '" + args[1] + "'" : ""));
                System.exit(2);
            }
            int next = 2;
            Optimisations optimise = Optimisations.ALL;
            if (args.length > next && args[next].startsWith(OPTIMISE)) {
                optimise = Optimisations.of(args[next].substring(OPTIMISE.length()));
                if (optimise == null) {
                    System.err.println("vbd: " + OPTIMISE + " takes " + Optimisations.choices() + ", got '" + args[next] + "'");
                    System.exit(2);
                }
                next++;
            }
            RelaxedConfig config = RelaxedConfig.empty();
            if (args.length > next) {
                try {
                    config = RelaxedConfig.load(Path.of(args[next]));
                } catch (RelaxedConfigException e) {
                    System.err.println("vbd: bad relaxed config: " + e.getMessage());
                    System.exit(2);
                }
            }
            return new Settings(Path.of(args[0]), fields, optimise, config);
        }
    }

    /** The running JDK's class files, by module and by internal name. */
    private record JdkClasses(Map<String, List<Path>> byModule, Map<String, Path> byName) {
        static JdkClasses list(FileSystem jrt) throws IOException {
            Map<String, Path> byName = new ConcurrentHashMap<>();
            Map<String, List<Path>> byModule = new TreeMap<>();
            try (Stream<Path> mods = Files.list(jrt.getPath("/modules"))) {
                for (Path mod : (Iterable<Path>) mods::iterator) {
                    String module = mod.getFileName().toString().replace("/", "");
                    List<Path> classes = new ArrayList<>();
                    try (Stream<Path> files = Files.walk(mod)) {
                        files.filter(p -> p.toString().endsWith(".class")).forEach(p -> {
                            String rel = mod.relativize(p).toString();
                            if (rel.equals("module-info.class")) return;
                            classes.add(p);
                            byName.put(rel.substring(0, rel.length() - ".class".length()), p);
                        });
                    }
                    byModule.put(module, classes);
                }
            }
            return new JdkClasses(byModule, byName);
        }

        /** A class's bytes by internal name, or null: what the rewriter's analyses read. */
        byte[] read(String name) {
            Path p = byName.get(name);
            if (p == null) return null;
            try {
                return Files.readAllBytes(p);
            } catch (IOException e) {
                return null;
            }
        }

        int total() {
            return byModule.values().stream().mapToInt(List::size).sum();
        }
    }

    /** Rewrites module by module, into a patch jar each and, when the JDK links, the image's modules. */
    private static final class Modules {
        final ClassRewriter rewriter;
        final FileSystem jrt;
        final JdkClasses jdk;
        final Path patch;
        final JdkImage image;
        final Map<String, byte[]> rewriting;
        final AtomicInteger done = new AtomicInteger();
        final AtomicInteger rewritten = new AtomicInteger();
        final Map<String, String> failures = new ConcurrentHashMap<>();
        final JdkFencedFields.Builder fencedFields = new JdkFencedFields.Builder();
        final List<String> names = new ArrayList<>();

        Modules(ClassRewriter rewriter, FileSystem jrt, JdkClasses jdk, Path patch, JdkImage image, Map<String, byte[]> rewriting) {
            this.rewriter = rewriter;
            this.jrt = jrt;
            this.jdk = jdk;
            this.patch = patch;
            this.image = image;
            this.rewriting = rewriting;
        }

        void rewriteAll() throws IOException {
            Files.createDirectories(patch);
            int moduleNo = 0;
            for (Map.Entry<String, List<Path>> e : jdk.byModule().entrySet()) {
                moduleNo++;
                String module = e.getKey();
                names.add(module);
                Map<String, byte[]> entries = rewrite(jrt.getPath("/modules", module), e.getValue());
                if (module.equals("java.base")) addRuntime(entries);
                writeJar(patch.resolve(module + ".jar"), entries);
                if (image != null) image.addModule(jrt, module, entries, module.equals("java.base") ? rewriting : Map.of());
                System.err.printf("vbd:   [%2d/%d] %-28s %6d classes  (%d%% done)%n", moduleNo, jdk.byModule().size(), module,
                        e.getValue().size(), done.get() * 100 / Math.max(1, jdk.total()));
            }
        }

        private Map<String, byte[]> rewrite(Path modRoot, List<Path> classes) {
            Map<String, byte[]> entries = new ConcurrentHashMap<>();
            classes.parallelStream().forEach(p -> {
                String rel = modRoot.relativize(p).toString();
                byte[] result;
                try {
                    result = Files.readAllBytes(p);
                } catch (IOException ex) {
                    throw new UncheckedIOException(ex);
                }
                boolean failed = false;
                try {
                    RewriteResult r = rewriter.rewrite(result);
                    if (r.status() == RewriteResult.Status.REWRITTEN) {
                        result = r.bytes();
                        rewritten.incrementAndGet();
                    }
                } catch (RewriteException ex) {
                    failures.put(ex.className(), ex.getMessage());
                    failed = true;
                }
                entries.put(rel, result);
                if (failed) fencedFields.addUnrewritten(result);
                else fencedFields.add(result);
                done.incrementAndGet();
            });
            return entries;
        }

        private static void addRuntime(Map<String, byte[]> entries) throws IOException {
            for (String runtimeClass : RUNTIME_CLASSES) {
                try (InputStream in = PrepareJdk.class.getResourceAsStream("runtime/" + runtimeClass)) {
                    if (in == null) throw new IllegalStateException("vbd.jar lacks its runtime class " + runtimeClass);
                    entries.put(runtimeClass, in.readAllBytes());
                }
            }
        }
    }

    /** The lists the launcher and the agent read beside the patch jars and the image. */
    private static void writeTables(Path out, FieldMode fields, JdkClasses jdk, Modules modules) throws IOException {
        Files.write(out.resolve("modules.txt"), modules.names, StandardCharsets.UTF_8);
        Files.writeString(out.resolve("fields.txt"), fields.word() + "\n", StandardCharsets.UTF_8);
        if (!JdkFencedFields.write(out.resolve(JdkFencedFields.FILE), modules.fencedFields.keys())) {
            System.err.printf("vbd: a JDK field's name holds a newline: no table of fenced fields, programs read the JDK's class files%n");
        }
        List<String> classNames = jdk.byName().keySet().stream().map(n -> n.replace('/', '.')).sorted().toList();
        Files.write(out.resolve("classes.txt"), classNames, StandardCharsets.UTF_8);
        // The modules a class-path program resolves by default: patching any other module makes the
        // JVM warn "Unknown module", so the launcher patches these plus those the command line adds.
        List<String> boot = ModuleLayer.boot().modules().stream().map(Module::getName).sorted().toList();
        Files.write(out.resolve("boot-modules.txt"), boot, StandardCharsets.UTF_8);
    }

    private static void report(Path out, Settings settings, int total, Modules modules, double seconds) throws IOException {
        Map<String, Object> report = new java.util.LinkedHashMap<>();
        report.put("javaHome", System.getProperty("java.home"));
        report.put("javaVersion", System.getProperty("java.version"));
        report.put("fields", settings.fields().word());
        report.put("optimise", settings.optimise().word());
        report.put("classes", total);
        report.put("rewritten", modules.rewritten.get());
        report.put("seconds", Math.round(seconds * 10) / 10.0);
        report.put("unrewritable", new TreeMap<>(modules.failures));
        Files.writeString(out.resolve("report.json"), Json.write(report));
        System.err.printf("vbd: JDK prepared in %.1f s: %d classes rewritten, %d left as they were%n",
                seconds, modules.rewritten.get(), modules.failures.size());
        modules.failures.forEach((k, v) -> System.err.println("vbd:   not rewritten (uncovered): " + v));
    }
}
