package dev.vbd.cli;

import dev.vbd.agent.AgentOptions;
import dev.vbd.agent.ImageRewriting;
import dev.vbd.core.policy.RelaxedConfig;
import dev.vbd.core.policy.RelaxedConfigException;
import dev.vbd.core.rewrite.FieldMode;
import dev.vbd.core.rewrite.Optimisations;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** {@code vbd}: sequential consistency by default for Java programs on a stock JDK. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        try {
            System.exit(run(Arrays.asList(args)));
        } catch (UsageException e) {
            System.err.println("vbd: " + e.getMessage());
            System.exit(2);
        } catch (IOException e) {
            System.err.println("vbd: " + e.getMessage());
            System.exit(1);
        }
    }

    static int run(List<String> args) throws UsageException, IOException {
        if (args.isEmpty()) {
            System.err.print(Usage.ofAll());
            return 2;
        }
        String first = args.get(0);
        List<String> rest = args.subList(1, args.size());
        switch (first) {
            case "help", "--help", "-h" -> {
                System.out.print(Usage.ofAll());
                return 0;
            }
            case "--version", "version" -> {
                if (!rest.isEmpty()) throw new UsageException("'vbd " + first + "' takes no arguments, got " + rest);
                return print(version());
            }
            case "launch" -> {
                return print(Shell.quote(launchCommand(Options.parse(Verb.RUN.words, rest, Verb.RUN.options), null)));
            }
            case "cache" -> {
                return cache(rest);
            }
            default -> {
                Verb verb = Verb.of(first);
                if (verb == null) throw new UsageException("unknown command '" + first + "' (try 'vbd help')");
                return run(verb, rest);
            }
        }
    }

    private static int run(Verb verb, List<String> args) throws UsageException, IOException {
        switch (verb) {
            // Both build and launch their own modules, which the tool jar does not carry.
            case LITMUS, BENCH -> throw new UsageException("'vbd " + verb.words + "' runs from the source tree: bin/vbd " + verb.words);
            case RUN -> throw new UsageException("'vbd run' runs from bin/vbd, which executes the command 'vbd launch' prints");
            default -> { }
        }
        Options o = Options.parse(verb.words, args, verb.options);
        if (o.help) {
            System.out.print(Usage.of(verb));
            return 0;
        }
        return switch (verb) {
            case JVM_ARGS -> print(Shell.quote(jvmArgs(o)));
            case JAVA_HOME -> print(javaHome(o).toString());
            case PREPARE -> {
                checkConfig(o);
                yield print(JdkCache.prepared(o.cache, Jdk.resolve(o.javaWord()), o.relaxed, o.fields.jdk(), o.optimise, vbdJar(), o.quiet).toString());
            }
            case DEMO -> Demo.run(o, o.command.isEmpty() ? "java" : o.javaWord());
            case VERIFY -> VerifyCommand.run(o);
            case ADVISE -> AdviseCommand.run(o);
            case BISECT -> BisectCommand.run(o);
            case LAYOUT -> LayoutCommand.run(o);
            default -> throw new IllegalStateException("'vbd " + verb.words + "' is run above");
        };
    }

    /** {@code vbd cache list|clean}. */
    private static int cache(List<String> args) throws UsageException, IOException {
        Verb verb = args.isEmpty() ? null : Verb.of("cache " + args.get(0));
        if (verb == null) throw new UsageException("'vbd cache' needs 'list' or 'clean'" + (args.isEmpty() ? "" : ", got '" + args.get(0) + "'"));
        Options o = Options.parse(verb.words, args.subList(1, args.size()), verb.options);
        if (o.help) {
            System.out.print(Usage.of(verb));
            return 0;
        }
        if (!o.command.isEmpty()) throw new UsageException("'vbd " + verb.words + "' takes no java command line");
        return verb == Verb.CACHE_LIST ? CacheCommand.list(o.cache, vbdJar()) : CacheCommand.clean(o.cache, vbdJar(), o.all);
    }

    private static int print(String line) {
        System.out.println(line);
        return 0;
    }

    /** What {@code vbd java-home} prints: the prepared runtime image's home. */
    private static Path javaHome(Options o) throws UsageException, IOException {
        Jdk jdk = Jdk.resolve(o.javaWord());
        if (o.command.size() > 1) {
            throw new UsageException("'vbd java-home' takes only the java launcher after '--', got " + o.command.subList(1, o.command.size()));
        }
        Path home = JdkCache.imageHome(JdkCache.prepared(o.cache, jdk, null, FieldMode.VOLATILE, Optimisations.ALL, vbdJar(), !o.showProgress()));
        if (home == null) {
            throw new UsageException(jdk.home() + " has no jlink, so vbd cannot link it into a Java home of its own;"
                    + " give the launcher the options of 'vbd jvm-args' instead");
        }
        return home;
    }

    /** What {@code vbd jvm-args} prints: the options that put the launcher after {@code --} under vbd. */
    static List<String> jvmArgs(Options o) throws UsageException, IOException {
        Jdk jdk = Jdk.resolve(o.javaWord());
        if (o.command.size() > 1) {
            throw new UsageException("'vbd jvm-args' takes only the java launcher after '--', got " + o.command.subList(1, o.command.size()));
        }
        return jvmOptions(o, jdk, null);
    }

    static void checkConfig(Options o) throws UsageException {
        if (o.relaxed == null) return;
        try {
            RelaxedConfig.load(o.relaxed);
        } catch (RelaxedConfigException e) {
            throw new UsageException("bad relaxed config: " + e.getMessage());
        }
    }

    /** The JVM options that put {@code jdk}'s own launcher under vbd (patched modules, the agent), preparing it on first use. */
    static List<String> jvmOptions(Options o, Jdk jdk, Path verifyReport) throws UsageException, IOException {
        Path prepared = prepared(o, jdk);
        List<String> options = new ArrayList<>(JdkCache.jvmOptions(prepared, agentOptions(o, prepared, verifyReport), List.of()));
        options.addAll(layoutOptions(o));
        return options;
    }

    /** What a layout needs of the JVM: {@code @Contended} honoured outside the JDK, where HotSpot ignores it by default. */
    private static List<String> layoutOptions(Options o) {
        return o.layout == null ? List.of() : List.of(CONTENDED_HONOURED);
    }

    static final String CONTENDED_HONOURED = "-XX:-RestrictContended";

    /**
     * The full command for {@code java ARGS...}: the prepared runtime image's own launcher, which
     * rewrites every class itself, with vbd's options; vbd's agent in it when asked, for the
     * verifier, and for a command line that puts classes on the boot class path (the JVM defines those itself, past
     * the image's define paths); for a JDK without an image (no jlink), the user's launcher with
     * the options {@link #jvmOptions} gives.
     */
    static List<String> launchCommand(Options o, Path verifyReport) throws UsageException, IOException {
        return launchCommand(o, o.javaWord(), o.command.subList(1, o.command.size()), verifyReport);
    }

    static List<String> launchCommand(Options o, String java, List<String> args, Path verifyReport)
            throws UsageException, IOException {
        Path prepared = prepared(o, Jdk.resolve(java));
        List<String> cmd = new ArrayList<>();
        Path launcher = JdkCache.imageLauncher(prepared);
        if (launcher == null) {
            cmd.add(java);
            cmd.addAll(JdkCache.jvmOptions(prepared, agentOptions(o, prepared, verifyReport), args));
        } else if (o.agent || verifyReport != null || bootClassPathAppended(args)) {
            cmd.add(launcher.toString());
            cmd.add(IMAGE_REWRITES_NOT);
            cmd.add(JdkCache.agentOption(prepared, agentOptions(o, prepared, verifyReport)));
        } else {
            cmd.add(launcher.toString());
            String options = new AgentOptions(o.relaxed, o.skipUnrewritable, null, null, false, o.fields, o.optimise, o.layout).format();
            if (!options.isEmpty()) cmd.add("-D" + ImageRewriting.OPTIONS_PROPERTY + "=" + options);
        }
        cmd.addAll(layoutOptions(o));
        cmd.addAll(args);
        return cmd;
    }

    /** The property that leaves the image's rewriting to vbd's agent. */
    static final String IMAGE_REWRITES_NOT = "-Dvbd.rewrite=agent";

    private static boolean bootClassPathAppended(List<String> javaArgs) {
        for (String a : javaArgs) {
            if (a.startsWith("-Xbootclasspath/a:")) return true;
        }
        return false;
    }

    /** The prepared JDK for these options (a relaxed config may need its own), preparing it on first use. */
    private static Path prepared(Options o, Jdk jdk) throws UsageException, IOException {
        checkConfig(o);
        return JdkCache.prepared(o.cache, jdk, o.relaxed, o.fields.jdk(), o.optimise, vbdJar(), !o.showProgress(),
                Math.max(JdkCache.keep(), o.keepAtLeast));
    }

    private static String agentOptions(Options o, Path prepared, Path verifyReport) {
        return new AgentOptions(o.relaxed, o.skipUnrewritable, verifyReport, prepared, o.strict, o.fields, o.optimise, o.layout).format();
    }

    /** {@code vbd VERSION (build HASH, rewrite N)}: the build is the jar's content, which keys the prepared JDKs. */
    static String version() throws IOException {
        String v = Main.class.getPackage().getImplementationVersion();
        Path jar = vbdJar();
        String build = Files.isRegularFile(jar) ? JdkCache.jarIdentity(jar).replace("sha256:", "").substring(0, 12) : "unpackaged";
        return "vbd " + (v == null ? "(unpackaged)" : v) + " (build " + build + ", rewrite " + dev.vbd.core.Conventions.REWRITE_VERSION + ")";
    }

    static Path vbdJar() {
        try {
            return Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
