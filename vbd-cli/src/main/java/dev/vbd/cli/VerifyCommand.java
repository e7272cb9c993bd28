package dev.vbd.cli;

import dev.vbd.core.policy.Policy;
import dev.vbd.core.policy.RelaxedConfig;
import dev.vbd.core.policy.RelaxedConfigException;
import dev.vbd.core.verify.ClassEntry;
import dev.vbd.core.verify.Json;
import dev.vbd.core.verify.PreparedJdk;
import dev.vbd.core.verify.Verifier;
import dev.vbd.core.verify.VerifyReport;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.function.Supplier;

/**
 * {@code vbd verify}. Dynamic mode runs the program under vbd with the agent's verify walk on,
 * then prints the report's summary; its exit status is the program's own when no access is
 * non-SC, else 1. Static mode ({@code --jar}, {@code --jdk}) checks class files at rest and exits
 * 0 or 1 alike. A usage error or a missing report exits 2 or the program's status (at least 1).
 */
final class VerifyCommand {
    /** Findings and uncovered classes printed at most; the JSON report has them all. */
    static final int MAX_LINES = 50;

    private VerifyCommand() {}

    static int run(Options o) throws UsageException, IOException {
        if (o.jar != null && o.jdk) throw new UsageException("verify: give --jar or --jdk, not both");
        if (o.jar != null || o.jdk) return staticCheck(o);
        return dynamic(o);
    }

    private static int dynamic(Options o) throws UsageException, IOException {
        o.javaWord();
        boolean temporary = o.json == null;
        Path report;
        if (temporary) {
            Files.createDirectories(o.cache);
            report = Files.createTempFile(o.cache, "verify-", ".json");
        } else {
            report = o.json;
        }
        // an old report must not pass for this run's
        Files.deleteIfExists(report);
        try {
            List<String> cmd = Main.launchCommand(o, report);
            int rc = Program.run(new ProcessBuilder(cmd).inheritIO());
            if (!Files.isRegularFile(report)) {
                System.err.println("vbd: verify: the program ended (exit status " + rc + ") without writing the report "
                        + report + ": it was killed or halted before its shutdown hooks ran, or vbd could not start it");
                return rc != 0 ? rc : 1;
            }
            Map<String, Object> json = read(report);
            if (json.containsKey("error")) {
                System.err.println("vbd: verify: the walk at exit failed: " + json.get("error"));
                return 1;
            }
            print(json, System.out);
            return number(json, "nonSc") == 0 ? rc : 1;
        } finally {
            if (temporary) Files.deleteIfExists(report);
        }
    }

    private static int staticCheck(Options o) throws UsageException, IOException {
        if (o.command.size() > 1) {
            throw new UsageException("'vbd verify " + (o.jdk ? "--jdk" : "--jar") + "' takes only the java launcher after '--', got "
                    + o.command.subList(1, o.command.size()));
        }
        Jdk jdk = Jdk.resolve(o.command.isEmpty() ? "java" : o.javaWord());
        Main.checkConfig(o);
        Path prepared = JdkCache.prepared(o.cache, jdk, o.relaxed, o.fields.jdk(), o.optimise, Main.vbdJar(), !o.showProgress());
        VerifyReport report;
        try (PreparedJdk patch = new PreparedJdk(prepared)) {
            Map<String, Supplier<byte[]>> jdkClasses = patch.classes();
            Verifier verifier = new Verifier(policy(o)).safeConstruction(!o.fields.sc()).lookup((loader, name) -> {
                Supplier<byte[]> s = jdkClasses.get(name);
                return s == null ? null : s.get();
            });
            if (o.jdk) {
                List<ClassEntry> entries = new ArrayList<>();
                for (Supplier<byte[]> s : jdkClasses.values()) entries.add(new ClassEntry("jdk", s, null));
                report = verifier.failedRewrites(unrewritable(prepared)).verify(entries);
                report.put("mode", "jdk");
            } else {
                report = verifier.verify(jarEntries(o.jar));
                report.put("mode", "jar");
                report.put("jar", o.jar.toString());
            }
        }
        report.put("javaVersion", jdk.version());
        report.put("javaHome", jdk.home().toString());
        report.put("preparedJdk", prepared.toString());
        Map<String, Object> json = report.toJson();
        if (o.json != null) {
            Path dir = o.json.getParent();
            if (dir != null) Files.createDirectories(dir);
            Files.writeString(o.json, Json.write(json), StandardCharsets.UTF_8);
        }
        print(json, System.out);
        return report.nonSc() == 0 ? 0 : 1;
    }

    private static Policy policy(Options o) throws UsageException {
        if (o.relaxed == null) return Policy.defaults();
        try {
            return new Policy(RelaxedConfig.load(o.relaxed));
        } catch (RelaxedConfigException e) {
            throw new UsageException("bad relaxed config: " + e.getMessage());
        }
    }

    /** The classes the JDK's preparation could not rewrite, from its report. */
    private static Map<String, String> unrewritable(Path prepared) {
        Path file = prepared.resolve("report.json");
        Map<String, String> out = new HashMap<>();
        if (!Files.isRegularFile(file)) return out;
        try {
            Object un = ((Map<?, ?>) Json.parse(Files.readString(file, StandardCharsets.UTF_8))).get("unrewritable");
            if (un instanceof Map<?, ?> m) m.forEach((k, v) -> out.put(String.valueOf(k), String.valueOf(v)));
        } catch (IOException | RuntimeException e) {
            System.err.println("vbd: verify: ignoring unreadable " + file + ": " + e.getMessage());
        }
        return out;
    }

    private static List<ClassEntry> jarEntries(Path jar) throws UsageException {
        List<ClassEntry> entries = new ArrayList<>();
        try (JarFile jf = new JarFile(jar.toFile())) {
            for (JarEntry e : (Iterable<JarEntry>) jf.stream()::iterator) {
                String n = e.getName();
                // multi-release variants replace base classes on newer JDKs; the base set is checked
                if (!n.endsWith(".class") || n.startsWith("META-INF/") || n.endsWith("module-info.class")) continue;
                byte[] b = jf.getInputStream(e).readAllBytes();
                entries.add(ClassEntry.of("jar", b));
            }
        } catch (IOException e) {
            throw new UsageException("cannot read jar '" + jar + "': " + e.getMessage());
        }
        if (entries.isEmpty()) throw new UsageException("jar '" + jar + "' contains no classes");
        return entries;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> read(Path report) throws UsageException {
        try {
            Object v = Json.parse(Files.readString(report, StandardCharsets.UTF_8));
            if (!(v instanceof Map)) throw new IllegalArgumentException("not a JSON object");
            return (Map<String, Object>) v;
        } catch (IOException | IllegalArgumentException e) {
            throw new UsageException("unreadable verify report " + report + ": " + e.getMessage());
        }
    }

    static long number(Map<String, Object> json, String key) {
        Object v = json.get(key);
        return v instanceof Number n ? n.longValue() : 0;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Map<String, Object> json, String key) {
        Object v = json.get(key);
        return v instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
    }

    /** The human summary: counts, then the uncovered classes and the findings, each capped. */
    static void print(Map<String, Object> json, PrintStream out) {
        String p = "vbd verify: ";
        out.println(p + number(json, "classes") + " classes: " + number(json, "rewritten") + " rewritten, "
                + number(json, "excluded") + " excluded, " + number(json, "uncovered") + " uncovered, "
                + number(json, "hidden") + " hidden (not inspectable)");
        if (json.get("hiddenReasons") instanceof Map<?, ?> why) {
            why.forEach((reason, n) -> out.println(p + "  hidden, not rewritten: " + n + " " + reason));
        }
        if (json.get("agent") instanceof Map<?, ?> a && a.get("hiddenRewritten") instanceof Number n && n.longValue() > 0) {
            out.println(p + "  " + n + " hidden classes rewritten on their way to the JVM, and checked");
        }
        for (Map<String, Object> u : list(json, "uninspectedClasses")) {
            out.println(p + "  rewritten but not checked: " + u.get("class") + " [" + u.get("loader") + "]: " + u.get("reason"));
        }
        boolean construction = "safe-construction".equals(json.get("guarantee"));
        if (construction) {
            out.println(p + "safe construction: " + number(json, "constructionPoints") + " points where a constructor's object"
                    + " may become visible after its stores checked for a release fence; " + number(json, "relaxedConstructors")
                    + " relaxed constructors");
        }
        long speculative = number(json, "speculativeAccesses");
        if (!construction) out.println(p + "heap-access sites: " + number(json, "scSites") + " SC"
                + (speculative > 0 ? " (" + speculative + " of them speculative)" : "") + ", " + number(json, "relaxedSites")
                + " relaxed, " + number(json, "localArrayAccesses") + " accesses to arrays not yet shared, "
                + number(json, "unpublishedAccesses") + " constructor accesses to objects not yet shared; "
                + number(json, "unresolvedFields") + " field references to classes not loaded");
        long intrinsics = number(json, "intrinsicMethods");
        if (intrinsics > 0) {
            out.println(p + intrinsics + " intrinsic candidates with heap accesses (HotSpot may run its own code for them; listed in the JSON)");
        }
        Object agent = json.get("agent");
        if (agent instanceof Map<?, ?> a && a.get("failed") instanceof Map<?, ?> failed && !failed.isEmpty()) {
            out.println(p + failed.size() + " classes or methods the agent could not rewrite (they ran unchanged)");
        }
        for (Map<String, Object> u : list(json, "unfencedMethods")) {
            out.println(p + "  unfenced method " + u.get("class") + "." + u.get("method") + " [" + u.get("loader")
                    + "]: left as compiled, fencing it would exceed the JVM's 64 KiB code limit");
        }
        if (json.get("nativeMethods") instanceof List<?> natives && !natives.isEmpty()) {
            out.println(p + natives.size() + " native methods of the program (JNI: outside the rewrite, not checked; listed in the JSON)");
        }
        List<Map<String, Object>> uncovered = list(json, "uncoveredClasses");
        Map<String, Integer> reasons = new TreeMap<>();
        for (Map<String, Object> u : uncovered) reasons.merge(String.valueOf(u.get("reason")), 1, Integer::sum);
        int shown = 0;
        for (Map<String, Object> u : uncovered) {
            if (shown++ == MAX_LINES) {
                out.println(p + "  ... and " + (uncovered.size() - MAX_LINES) + " more uncovered classes (see the JSON report)");
                break;
            }
            out.println(p + "  uncovered " + u.get("class") + " [" + u.get("loader") + "]: " + u.get("reason"));
        }
        long nonSc = number(json, "nonSc");
        out.println(p + (construction ? "unsafe constructor points (nonSc) = " : "nonSc = ") + nonSc);
        List<Map<String, Object>> findings = list(json, "findings");
        shown = 0;
        for (Map<String, Object> f : findings) {
            if (shown++ == MAX_LINES) break;
            out.println(p + "  " + f.get("class") + "." + f.get("method") + " @" + f.get("offset") + ": "
                    + f.get("kind") + " " + f.get("detail"));
        }
        if (nonSc > Math.min(findings.size(), MAX_LINES)) {
            out.println(p + "  ... and " + (nonSc - Math.min(findings.size(), MAX_LINES)) + " more (see the JSON report)");
        }
    }
}
