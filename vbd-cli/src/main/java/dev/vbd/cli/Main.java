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
    static final String USAGE = """
            usage: vbd <command> [options] -- <java command line>

            commands:
              run [options] -- java ARGS...      run a program with sequential consistency by default
              jvm-args [options] -- java         print the JVM options another launcher must add
              java-home [--cache DIR] -- java    print a Java home whose bin/java runs every program under vbd
                                                 (for launchers that take a Java home or executable)
              verify [--json FILE] [options] -- java ARGS...
                                                 run the program, then list every heap access that is
                                                 neither SC nor relaxed, with a coverage summary
              verify --jar FILE [--json FILE] [-- java]
              verify --jdk [--json FILE] [-- java]
                                                 static check of a jar, or of the prepared JDK
              advise [--budget N] [--scope method|class|package] [--profiles N]
                     [--profile-from REGEX] [--out FILE] [options] -- java ARGS...
                                                 run the program profiled and observed, then write the relaxed
                                                 scopes where SC costs most and no access can race
                                                 (docs/advise.md; default: 20 rules, each one method, 1
                                                 profiled run each under stock Java and vbd, all of each
                                                 run profiled, vbd-advised.relaxed; as many runs under vbd
                                                 and under the advice check it and measure what it gives
                                                 back; --scope class, package:
                                                 each rule every method of a class, of a package's classes;
                                                 --profile-from: only what follows the first line of
                                                 output it matches, e.g. the end of the warm-up)
              bisect [--fail-regex RE] [--timeout S] [--repeat N] [--jobs N] [--json FILE] [options]
                     -- java ARGS...
                                                 for a failure that vanishes under vbd: the fields (or the
                                                 methods' array accesses) that must be volatile for it to
                                                 vanish, and the fix (docs/bisect.md; a run fails when it
                                                 exits non-zero, prints a line RE matches, or runs past S
                                                 seconds, default 60; N runs a trial unless one fails,
                                                 default 5; N runs at once, default cores / 4)
              prepare [options] -- java          rewrite a JDK ahead of time (run does it on first use)
              cache list [--cache DIR]           the prepared JDKs: JDK, size, last use, whether this vbd made them
              cache clean [--all] [--cache DIR]  remove the prepared JDKs this vbd does not use (--all: every one)
              --version                          this vbd's version and build
              demo [-- java]                     the paper's examples under stock Java and under vbd
              litmus [--quick|--full] [--stock] [--json FILE] [--tests REGEX] [--java J]
                                                 the jcstress litmus suite under vbd (and stock Java)
              bench [--quick|--full|--jmh] [--workloads a,b] [--configs stock,vbd,...] [--help]
                                                 what SC costs on real applications, against stock Java

            options:
              --relaxed FILE        relaxed scopes for code you cannot annotate (docs/relaxed-config.md)
              --mode sc|safe-construction
                                    sc (the default): every heap access sequentially consistent;
                                    safe-construction: only that every constructor, the JDK's too, gives
                                    what it stored the guarantee of a final field (an object published
                                    by a race is never seen partly built), every other access as on stock
                                    Java (docs/safe-construction.md; run, launch, jvm-args, verify, prepare,
                                    litmus, bench; a prepared JDK of its own)
              --fields volatile|fenced|speculative
                                    how the program's fields are made SC: declared volatile (the default),
                                    or left plain with each access fenced, so relaxed code and constructors
                                    run as on stock Java (docs/guarantee.md), or fenced only once a second
                                    thread touches an object's class (docs/speculation.md); the JDK's fields
                                    are fenced with either of the last two (a prepared JDK of their own);
                                    $VBD_FIELDS sets the default
              --optimise all|constructors|local-arrays|none
                                    which accesses stay plain because no other thread can see them: a
                                    constructor's to its own object before it can leave (fenced and
                                    speculative fields), elements of arrays that never leave their method;
                                    all (the default), or fewer to measure what each buys (a prepared JDK
                                    of their own)
              --cache DIR           where prepared JDKs live (default: $VBD_CACHE, $XDG_CACHE_HOME/vbd, ~/.cache/vbd)
              --skip-unrewritable   run on when a class (or a method, which would outgrow the JVM's code
                                    limit once fenced) cannot be rewritten; it is reported as uncovered
              --agent               rewrite with vbd's agent rather than the prepared image's own define
                                    paths: classes that native code defines (JNI DefineClass) are covered
                                    too, at a cost in start-up (verify, and a -Xbootclasspath/a, use it anyway)
              --strict              with the agent, refuse to run when classes were loaded before it started
                                    (a custom system class loader): their fields cannot be made volatile
              --progress            show the JDK's preparation on stderr (run, jvm-args and verify show it
                                    only when stderr is a terminal; prepare always does)
              --quiet               no progress output at all
            """;

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
            System.err.print(USAGE);
            return 2;
        }
        if (args.get(0).equals("help") || args.get(0).equals("--help") || args.get(0).equals("-h")) {
            System.out.print(USAGE);
            return 0;
        }
        if (args.get(0).equals("--version") || args.get(0).equals("version")) {
            if (args.size() > 1) throw new UsageException("'vbd " + args.get(0) + "' takes no arguments, got " + args.subList(1, args.size()));
            System.out.println(version());
            return 0;
        }
        String verb = args.get(0);
        List<String> rest = args.subList(1, args.size());
        List<String> common = List.of("--relaxed", "--mode", "--fields", "--optimise", "--cache", "--skip-unrewritable", "--strict", "--agent", "--quiet", "-q",
                "--progress");
        switch (verb) {
            case "launch": {
                Options o = Options.parse("run", rest, common);
                List<String> cmd = launchCommand(o, null);
                System.out.println(Shell.quote(cmd));
                return 0;
            }
            case "jvm-args": {
                Options o = Options.parse(verb, rest, common);
                Jdk jdk = Jdk.resolve(o.javaWord());
                if (o.command.size() > 1) {
                    throw new UsageException("'vbd jvm-args' takes only the java launcher after '--', got " + o.command.subList(1, o.command.size()));
                }
                System.out.println(Shell.quote(jvmOptions(o, jdk, null)));
                return 0;
            }
            case "java-home": {
                Options o = Options.parse(verb, rest, List.of("--cache", "--quiet", "-q", "--progress"));
                Jdk jdk = Jdk.resolve(o.javaWord());
                if (o.command.size() > 1) {
                    throw new UsageException("'vbd java-home' takes only the java launcher after '--', got " + o.command.subList(1, o.command.size()));
                }
                Path home = JdkCache.imageHome(JdkCache.prepared(o.cache, jdk, null, FieldMode.VOLATILE, Optimisations.ALL, vbdJar(), !o.showProgress()));
                if (home == null) {
                    throw new UsageException(jdk.home() + " has no jlink, so vbd cannot link it into a Java home of its own;"
                            + " give the launcher the options of 'vbd jvm-args' instead");
                }
                System.out.println(home);
                return 0;
            }
            case "prepare": {
                Options o = Options.parse(verb, rest, common);
                Jdk jdk = Jdk.resolve(o.javaWord());
                checkConfig(o);
                Path dir = JdkCache.prepared(o.cache, jdk, o.relaxed, o.fields.jdk(), o.optimise, vbdJar(), o.quiet);
                System.out.println(dir);
                return 0;
            }
            case "cache": {
                if (rest.isEmpty() || !(rest.get(0).equals("list") || rest.get(0).equals("clean"))) {
                    throw new UsageException("'vbd cache' needs 'list' or 'clean'" + (rest.isEmpty() ? "" : ", got '" + rest.get(0) + "'"));
                }
                boolean list = rest.get(0).equals("list");
                Options o = Options.parse("cache " + rest.get(0), rest.subList(1, rest.size()),
                        list ? List.of("--cache") : List.of("--cache", "--all"));
                if (!o.command.isEmpty()) throw new UsageException("'vbd cache " + rest.get(0) + "' takes no java command line");
                return list ? CacheCommand.list(o.cache, vbdJar()) : CacheCommand.clean(o.cache, vbdJar(), o.all);
            }
            case "demo": {
                Options o = Options.parse(verb, rest, common);
                String java = o.command.isEmpty() ? "java" : o.javaWord();
                return Demo.run(o, java);
            }
            case "verify": {
                List<String> allowed = new ArrayList<>(common);
                allowed.addAll(List.of("--json", "--jar", "--jdk"));
                Options o = Options.parse(verb, rest, allowed);
                return VerifyCommand.run(o);
            }
            case "advise": {
                List<String> allowed = new ArrayList<>(common);
                allowed.remove("--mode"); // it relaxes what SC costs; under safe construction nothing does
                allowed.addAll(List.of("--budget", "--scope", "--profiles", "--profile-from", "--out"));
                return AdviseCommand.run(Options.parse(verb, rest, allowed));
            }
            case "bisect": {
                List<String> allowed = new ArrayList<>(common);
                allowed.remove("--mode"); // it searches for what SC repairs
                allowed.addAll(List.of("--fail-regex", "--timeout", "--repeat", "--jobs", "--json"));
                return BisectCommand.run(Options.parse(verb, rest, allowed));
            }
            case "litmus":
            case "bench":
                // Both build and launch their own modules, which the tool jar does not carry.
                throw new UsageException("'vbd " + verb + "' runs from the source tree: bin/vbd " + verb);
            default:
                throw new UsageException("unknown command '" + verb + "' (try 'vbd help')");
        }
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
        return JdkCache.jvmOptions(prepared, agentOptions(o, prepared, verifyReport), List.of());
    }

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
            String options = new AgentOptions(o.relaxed, o.skipUnrewritable, null, null, false, o.fields, o.optimise).format();
            if (!options.isEmpty()) cmd.add("-D" + ImageRewriting.OPTIONS_PROPERTY + "=" + options);
        }
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
        return JdkCache.prepared(o.cache, jdk, o.relaxed, o.fields.jdk(), o.optimise, vbdJar(), !o.showProgress());
    }

    private static String agentOptions(Options o, Path prepared, Path verifyReport) {
        return new AgentOptions(o.relaxed, o.skipUnrewritable, verifyReport, prepared, o.strict, o.fields, o.optimise).format();
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
