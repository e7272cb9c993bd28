package dev.vbd.cli;

import dev.vbd.core.layout.Layout;
import dev.vbd.core.layout.LayoutException;
import dev.vbd.core.rewrite.FieldMode;
import dev.vbd.core.rewrite.Optimisations;

import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Options shared by the commands, then {@code --} and the java command line. Each command takes some of
 * them ({@link Verb}); their descriptions are the usage text ({@link Usage}).
 */
final class Options {
    Path relaxed;
    /** {@code --layout}: where the program's fields lie, as {@code vbd layout} wrote it. */
    Path layout;
    Path cache = JdkCache.defaultRoot();
    @Option(names = "--skip-unrewritable", description = "run on when a class (or a method, which would outgrow the JVM's code "
            + "limit once fenced) cannot be rewritten; it is reported as uncovered")
    boolean skipUnrewritable;
    /**
     * {@code --fields}: how the program's fields are made SC; {@link FieldMode#SAFE_CONSTRUCTION}
     * with {@code --mode safe-construction}.
     */
    FieldMode fields = FieldMode.VOLATILE;
    /** {@code --optimise}: which accesses stay plain because no other thread can see them. */
    Optimisations optimise = Optimisations.ALL;
    @Option(names = "--strict", description = "with the agent, refuse to run when classes were loaded before it started (a custom "
            + "system class loader): their fields cannot be made volatile")
    boolean strict;
    @Option(names = "--agent", description = "rewrite with vbd's agent rather than the prepared image's own define paths: classes "
            + "that native code defines (JNI DefineClass) are covered too, at a cost in start-up (verify, and a "
            + "-Xbootclasspath/a, use it anyway)")
    boolean agent;
    @Option(names = {"--quiet", "-q"}, description = "no progress output at all")
    boolean quiet;
    @Option(names = "--progress", description = "show the JDK's preparation on stderr (run, jvm-args and verify show it only when "
            + "stderr is a terminal; prepare always does)")
    boolean progress;
    Path json;
    Path jar;
    @Option(names = "--jdk", description = "verify: check the prepared JDK statically instead of running a program")
    boolean jdk;
    @Option(names = "--all", description = "cache clean: remove every prepared JDK, this vbd's too")
    boolean all;
    /** {@code advise --budget}: at most this many rules. */
    Integer budget;
    /** {@code advise --profiles}: profiled runs under each of stock Java and vbd, their samples summed. */
    Integer profiles;
    /** {@code advise --out}: the relaxed config it writes. */
    Path out;
    /**
     * {@code advise --profile-from}: the profiles count only what follows the first line of output
     * that matches it (the end of a warm-up), so that they weigh the steady state.
     */
    Pattern profileFrom;
    /** {@code advise --scope}: what a rule relaxes: one method, every method of a class, or of a package's classes. */
    String scope;
    /** {@code layout --min-misses}: a finding with fewer misses in the model is left out. */
    Integer minMisses;
    /** {@code layout --min-rate}: a finding with fewer misses a second of the run is left out. */
    Integer minRate;
    /** {@code layout --trials}: runs under vbd with the layout, and as many without, to measure what it gives. */
    Integer trials;
    /** {@code bisect --fail-regex}: a run whose output (stdout or stderr) has a line it matches failed. */
    Pattern failRegex;
    /** {@code bisect --timeout}: a run still going after this many seconds failed. */
    Integer timeout;
    /** {@code bisect --repeat}: runs per trial, unless one fails first. */
    Integer repeat;
    /** {@code bisect --jobs}: runs at once. */
    Integer jobs;
    final List<String> command = new ArrayList<>();
    /** Prepared JDKs the cache keeps per JDK at least: a caller that asks for several in turn needs them all. */
    int keepAtLeast;

    /** The options of {@code vbd run} and the commands that share them. */
    static final List<String> COMMON = List.of("--relaxed", "--mode", "--fields", "--optimise", "--cache", "--skip-unrewritable",
            "--strict", "--agent", "--quiet", "--progress");

    /** {@code -h}, {@code --help}: the command's usage instead of running it. */
    @Option(names = {"-h", "--help"}, description = "this text", usageHelp = true)
    boolean help;

    /**
     * The options of {@code vbd VERB} in {@code args}, each among {@code allowed}, then {@code --} and
     * the java command line.
     */
    static Options parse(String verb, List<String> args, List<String> allowed) throws UsageException {
        Options o = new Options();
        String fields = System.getenv("VBD_FIELDS");
        if (fields != null && !fields.isEmpty() && allowed.contains("--fields")) o.fields = fieldMode("VBD_FIELDS", fields);
        String layout = System.getenv("VBD_LAYOUT");
        if (layout != null && !layout.isEmpty() && allowed.contains("--layout")) o.layout("$VBD_LAYOUT", layout);
        // '--' starts the java command line: it is never an option's value
        int end = args.indexOf("--");
        if (end >= 0) o.command.addAll(args.subList(end + 1, args.size()));
        List<String> options = end >= 0 ? args.subList(0, end) : args;
        CommandLine cl = Usage.parser(verb, o, allowed);
        try {
            cl.parseArgs(options.toArray(String[]::new));
        } catch (CommandLine.UnmatchedArgumentException e) {
            throw notTaken(verb, e.getUnmatched().get(0));
        } catch (CommandLine.MissingParameterException e) {
            throw new UsageException(((OptionSpec) e.getMissing().get(0)).longestName() + " needs a value");
        } catch (CommandLine.ParameterException e) {
            if (e.getCause() instanceof UsageException u) throw u;
            if (e.getArgSpec() instanceof OptionSpec flag && flag.arity().max() == 0) {
                throw new UsageException(flag.longestName() + " takes no value, got '" + e.getValue() + "'");
            }
            throw new UsageException(e.getMessage());
        }
        o.checkMode();
        return o;
    }

    private static UsageException notTaken(String verb, String arg) {
        return new UsageException("'vbd " + verb + "' does not take option '" + arg + "'"
                + (arg.startsWith("-") ? "" : " (the java command line goes after '--')"));
    }

    /** {@code --mode safe-construction} takes the other mode's choices away: nothing is made SC, and no access is left plain by a proof. */
    private void checkMode() throws UsageException {
        if (!"safe-construction".equals(mode)) return;
        if (fieldsGiven) throw new UsageException("--fields chooses how --mode sc makes fields SC; --mode safe-construction makes none");
        if (optimise != Optimisations.ALL) throw new UsageException("--optimise applies to --mode sc only");
        fields = FieldMode.SAFE_CONSTRUCTION;
    }

    private String mode;
    private boolean fieldsGiven;

    @Option(names = "--relaxed", paramLabel = "FILE", description = "relaxed scopes for code you cannot annotate (docs/relaxed-config.md)")
    private void relaxed(String value) throws UsageException {
        Path p = Path.of(nonEmpty("--relaxed", value)).toAbsolutePath();
        if (!Files.isRegularFile(p)) throw new UsageException("relaxed config '" + value + "' does not exist");
        relaxed = p;
    }

    @Option(names = "--layout", paramLabel = "FILE", description = "lay the program's fields out as FILE says (vbd layout writes it; "
            + "docs/layout.md): each field it names padded onto cache lines of its own, through the JVM's @Contended; "
            + "$VBD_LAYOUT sets the default")
    private void layout(String value) throws UsageException {
        layout("--layout", value);
    }

    private void layout(String where, String value) throws UsageException {
        Path p = Path.of(nonEmpty(where, value)).toAbsolutePath();
        if (!Files.isRegularFile(p)) throw new UsageException(where + ": layout '" + value + "' does not exist");
        try {
            Layout.load(p);
        } catch (LayoutException e) {
            throw new UsageException("bad layout: " + e.getMessage());
        }
        layout = p;
    }

    @Option(names = "--mode", paramLabel = "sc|safe-construction", description = {
            "sc (the default): every heap access sequentially consistent; safe-construction: only that every constructor, "
                    + "the JDK's too, gives what it stored the guarantee of a final field (an object published by a race is "
                    + "never seen partly built), every other access as on stock Java (docs/safe-construction.md; run, launch, "
                    + "jvm-args, verify, prepare, litmus, bench; a prepared JDK of its own)"})
    private void mode(String value) throws UsageException {
        if (!nonEmpty("--mode", value).equals("sc") && !value.equals("safe-construction")) {
            throw new UsageException("--mode takes sc or safe-construction, got '" + value + "'");
        }
        mode = value;
    }

    @Option(names = "--fields", paramLabel = "volatile|fenced|speculative", description = {
            "how the program's fields are made SC: declared volatile (the default), or left plain with each access fenced, "
                    + "so relaxed code and constructors run as on stock Java (docs/guarantee.md), or fenced only once a second "
                    + "thread touches an object's class (docs/speculation.md); the JDK's fields are fenced with either of the "
                    + "last two (a prepared JDK of their own); $VBD_FIELDS sets the default"})
    private void fields(String value) throws UsageException {
        fields = fieldMode("--fields", nonEmpty("--fields", value));
        fieldsGiven = true;
    }

    @Option(names = "--optimise", paramLabel = "all|constructors|local-arrays|none", description = {
            "which accesses stay plain because no other thread can see them: a constructor's to its own object before it "
                    + "can leave (fenced and speculative fields), elements of arrays that never leave their method; all (the "
                    + "default), or fewer to measure what each buys (a prepared JDK of their own)"})
    private void optimise(String value) throws UsageException {
        optimise = Optimisations.of(nonEmpty("--optimise", value));
        if (optimise == null) throw new UsageException("--optimise takes " + Optimisations.choices() + ", got '" + value + "'");
    }

    @Option(names = "--cache", paramLabel = "DIR",
            description = "where prepared JDKs live (default: $VBD_CACHE, $XDG_CACHE_HOME/vbd, ~/.cache/vbd)")
    private void cache(String value) throws UsageException {
        cache = Path.of(nonEmpty("--cache", value)).toAbsolutePath();
    }

    @Option(names = "--json", paramLabel = "FILE", description = "write the report as JSON to FILE")
    private void json(String value) throws UsageException {
        json = Path.of(nonEmpty("--json", value)).toAbsolutePath();
    }

    @Option(names = "--jar", paramLabel = "FILE", description = "verify: check this jar statically instead of running a program")
    private void jar(String value) throws UsageException {
        Path p = Path.of(nonEmpty("--jar", value)).toAbsolutePath();
        if (!Files.isRegularFile(p)) throw new UsageException("jar '" + value + "' does not exist");
        jar = p;
    }

    @Option(names = "--budget", paramLabel = "N", description = "advise: at most N rules (default: 20)")
    private void budget(String value) throws UsageException {
        budget = positive("--budget", "rules", value);
    }

    @Option(names = "--scope", paramLabel = "method|class|package", description = "advise: what each rule relaxes: one method "
            + "(the default), every method of a class, or of a package's classes")
    private void scope(String value) throws UsageException {
        if (!nonEmpty("--scope", value).equals("method") && !value.equals("class") && !value.equals("package")) {
            throw new UsageException("--scope takes method, class or package, got '" + value + "'");
        }
        scope = value;
    }

    @Option(names = "--profiles", paramLabel = "N", description = "advise: N profiled runs under each of stock Java and vbd, "
            + "their samples summed (default: 1)")
    private void profiles(String value) throws UsageException {
        profiles = positive("--profiles", "runs", value);
    }

    @Option(names = "--profile-from", paramLabel = "REGEX", description = "advise: profile only what follows the first line of "
            + "output REGEX matches, e.g. the end of the warm-up (default: all of each run)")
    private void profileFrom(String value) throws UsageException {
        profileFrom = regex("--profile-from", value);
    }

    @Option(names = "--out", paramLabel = "FILE", description = "advise: the relaxed config it writes (default: vbd-advised.relaxed); "
            + "layout: the layout it writes (default: vbd.layout)")
    private void out(String value) throws UsageException {
        out = Path.of(nonEmpty("--out", value)).toAbsolutePath();
    }

    @Option(names = "--min-misses", paramLabel = "N", description = "layout: report only what cost at least N coherence misses "
            + "in the model of the run (default: " + LayoutCommand.DEFAULT_MIN_MISSES + ")")
    private void minMisses(String value) throws UsageException {
        minMisses = positive("--min-misses", "misses", value);
    }

    @Option(names = "--min-rate", paramLabel = "N", description = "layout: report only what cost at least N coherence misses a "
            + "second of the run (default: " + LayoutCommand.DEFAULT_MIN_RATE + ", about 0.2% of a core's time)")
    private void minRate(String value) throws UsageException {
        minRate = positive("--min-rate", "misses a second", value);
    }

    @Option(names = "--trials", paramLabel = "N", description = "layout: then N runs of the program under vbd with the layout "
            + "written, and N without, alternating, for the time it saves, with a 95%% interval (default: none)")
    private void trials(String value) throws UsageException {
        trials = positive("--trials", "runs", value);
    }

    @Option(names = "--fail-regex", paramLabel = "RE", description = "bisect: a run also fails when it prints a line RE matches "
            + "(it fails when it exits non-zero, or runs past --timeout)")
    private void failRegex(String value) throws UsageException {
        failRegex = regex("--fail-regex", value);
    }

    @Option(names = "--timeout", paramLabel = "S", description = "bisect: a run still going after S seconds failed (default: 60)")
    private void timeout(String value) throws UsageException {
        timeout = positive("--timeout", "seconds", value);
    }

    @Option(names = "--repeat", paramLabel = "N", description = "bisect: N runs a trial unless one fails first (default: 5)")
    private void repeat(String value) throws UsageException {
        repeat = positive("--repeat", "runs", value);
    }

    @Option(names = "--jobs", paramLabel = "N", description = "bisect: N runs at once (default: cores / 4)")
    private void jobs(String value) throws UsageException {
        jobs = positive("--jobs", "runs at once", value);
    }

    private static String nonEmpty(String option, String value) throws UsageException {
        if (value.isEmpty()) throw new UsageException(option + " needs a non-empty value");
        return value;
    }

    private static Pattern regex(String option, String value) throws UsageException {
        try {
            return Pattern.compile(nonEmpty(option, value));
        } catch (PatternSyntaxException e) {
            throw new UsageException(option + " takes a regular expression, got '" + value + "': " + e.getDescription());
        }
    }

    private static int positive(String option, String what, String value) throws UsageException {
        int n;
        try {
            n = Integer.parseInt(nonEmpty(option, value));
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 1) throw new UsageException(option + " takes a positive number of " + what + ", got '" + value + "'");
        return n;
    }

    private static FieldMode fieldMode(String where, String value) throws UsageException {
        FieldMode m = FieldMode.of(value);
        if (m == null || !m.sc()) {
            throw new UsageException(where + " takes " + FieldMode.choices() + ", got '" + value + "'");
        }
        return m;
    }

    Options keepingAtLeast(int prepared) {
        keepAtLeast = prepared;
        return this;
    }

    /** These options with another relaxed config. */
    Options withRelaxed(Path config) {
        Options c = copy();
        c.relaxed = config;
        return c;
    }

    /** These options with another layout (null: none). */
    Options withLayout(Path file) {
        Options c = copy();
        c.layout = file;
        return c;
    }

    private Options copy() {
        Options c = new Options();
        c.relaxed = relaxed;
        c.layout = layout;
        c.cache = cache;
        c.skipUnrewritable = skipUnrewritable;
        c.fields = fields;
        c.optimise = optimise;
        c.strict = strict;
        c.agent = agent;
        c.quiet = quiet;
        c.progress = progress;
        c.keepAtLeast = keepAtLeast;
        c.command.addAll(command);
        return c;
    }

    /**
     * Whether to show vbd's own progress (preparing a JDK) on stderr, which the program shares:
     * only when asked, with {@code --progress} (bin/vbd adds it when stderr is a terminal).
     */
    boolean showProgress() {
        return progress && !quiet;
    }

    String javaWord() throws UsageException {
        if (command.isEmpty()) throw new UsageException("missing the java command line after '--' (e.g. -- java -jar app.jar)");
        return command.get(0);
    }
}
