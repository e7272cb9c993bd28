package dev.vbd.it.support;

import dev.vbd.Relaxed;
import dev.vbd.host.Trees;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The test programs: sources under {@code vbd-it/src/test/programs/<name>/}, compiled at test
 * time (Java 17 class files, so that every JDK under test runs the same bytes) into
 * {@code vbd-it/target/it-programs/<name>/}. They are not compiled by Maven because they are
 * the subject of the tests, not part of them: they must reach the JVM through vbd's agent,
 * not through the test class path.
 */
public final class Programs {
    private static final Map<String, Program> COMPILED = new HashMap<>();

    private Programs() {}

    /** The repository root, from the {@code vbd.home} system property that the module's pom sets. */
    public static Path home() {
        String home = System.getProperty("vbd.home");
        if (home == null || home.isBlank()) {
            throw new IllegalStateException("system property vbd.home (the repository root) is not set; run the tests through Maven or pass -Dvbd.home=...");
        }
        Path p = Path.of(home).toAbsolutePath().normalize();
        if (!Files.isRegularFile(p.resolve("bin").resolve("vbd"))) {
            throw new IllegalStateException("vbd.home=" + home + " is not the vbd repository root (no bin/vbd there)");
        }
        return p;
    }

    /**
     * Where the tests write what they produce: {@code vbd-it/target}, or in the second and later of
     * Surefire's forks ({@code -DforkCount=N}) {@code vbd-it/target/fork-N}, so that forks running
     * side by side never compile, run or report into the same files.
     */
    public static Path target() {
        Path target = home().resolve("vbd-it").resolve("target");
        String fork = System.getProperty("vbd.it.fork", "1");
        return fork.matches("[2-9]|[1-9][0-9]+") ? target.resolve("fork-" + fork) : target;
    }

    /** Where {@code dev.vbd.Relaxed} comes from (a jar or a classes folder): the programs compile and run against it. */
    public static Path annotations() {
        try {
            return Path.of(Relaxed.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    public static Program compile(String name) {
        return compile(name, Map.of());
    }

    /**
     * Compiles program {@code name} once per test run, together with {@code generated}
     * (file name to source text) for sources that are easier to generate than to write.
     */
    public static synchronized Program compile(String name, Map<String, String> generated) {
        Program done = COMPILED.get(name);
        if (done != null) return done;
        Path src = home().resolve("vbd-it").resolve("src").resolve("test").resolve("programs").resolve(name);
        if (!Files.isDirectory(src)) {
            throw new IllegalArgumentException("no test program '" + name + "': " + src + " does not exist");
        }
        Path out = target().resolve("it-programs").resolve(name);
        Path gen = target().resolve("it-generated").resolve(name);
        try {
            Trees.delete(out);
            Trees.delete(gen);
            Files.createDirectories(out);
            List<Path> sources = new ArrayList<>();
            try (Stream<Path> s = Files.walk(src)) {
                s.filter(p -> p.toString().endsWith(".java")).sorted().forEach(sources::add);
            }
            if (!generated.isEmpty()) {
                Files.createDirectories(gen);
                for (Map.Entry<String, String> e : generated.entrySet()) {
                    Path p = gen.resolve(e.getKey());
                    Files.writeString(p, e.getValue(), StandardCharsets.UTF_8);
                    sources.add(p);
                }
            }
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            if (javac == null) {
                throw new IllegalStateException("the JVM running the tests (" + System.getProperty("java.home") + ") has no Java compiler; run them on a JDK");
            }
            DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
            try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
                List<String> options = List.of("--release", "17", "-encoding", "UTF-8", "-nowarn",
                        "-d", out.toString(), "-cp", annotations().toString());
                boolean ok = javac.getTask(null, files, diagnostics, options, null,
                        files.getJavaFileObjectsFromPaths(sources)).call();
                if (!ok) {
                    StringBuilder msg = new StringBuilder("test program '" + name + "' does not compile:");
                    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                        msg.append("\n  ").append(d);
                    }
                    throw new IllegalStateException(msg.toString());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot compile test program '" + name + "' into " + out, e);
        }
        Program p = new Program(name, out);
        COMPILED.put(name, p);
        return p;
    }
}
