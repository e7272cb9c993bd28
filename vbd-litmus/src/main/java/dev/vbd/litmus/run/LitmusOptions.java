package dev.vbd.litmus.run;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** The command line of {@code vbd litmus}; its usage text is generated from the options below. */
@Command(name = "vbd litmus", sortOptions = false, usageHelpWidth = 110, synopsisHeading = "usage: ", abbreviateSynopsis = true,
        description = "The jcstress litmus suite under vbd (and under stock Java with --stock).")
final class LitmusOptions {
    @Spec
    private CommandSpec spec;

    Preset preset = Preset.QUICK;
    @Option(names = "--stock", order = 2, description = "also run every test under stock Java, through the same jcstress forks")
    boolean stock;
    @Option(names = "--agent", order = 3,
            description = "forks rewrite with vbd's agent ('vbd run --agent') rather than the image's own define paths")
    boolean agent;
    /** {@code --mode}: sc, or safe-construction, which takes no {@code --fields} nor {@code --optimise}. */
    String mode = "sc";
    /** {@code --fields}: volatile, fenced or speculative. */
    String fields = "volatile";
    /** {@code --optimise}: all, constructors, local-arrays or none. */
    String optimise = "all";
    private boolean fieldsGiven, optimiseGiven;
    @Option(names = "--oversubscribe", order = 11, description = "also run the tests with more actors than this machine has CPUs, their "
            + "actors sharing CPUs (jcstress alone refuses them)")
    boolean oversubscribe;
    @Option(names = "--default-locking", order = 9, description = "each test once, in the JVM's default locking (JDK 17 has biased "
            + "locking, and jcstress runs every test with it on and off)")
    boolean defaultLocking;
    Path json;
    /** {@code --layout}: the forks run with this layout, as {@code vbd run --layout}; null for none. */
    Path layout;
    /** {@code --tests}; null for the default: every test, or under safe construction those {@link #safeConstruction()} selects. */
    Pattern tests;
    @Option(names = "--java", order = 10, paramLabel = "JAVA", description = "the java launcher of the JDK to test (default: java on the PATH)")
    String java = "java";
    Path out;
    Path from;
    @Option(names = {"-h", "--help"}, order = 20, usageHelp = true, description = "this text")
    boolean help;

    @Option(names = "--quick", order = 0, description = "one short fork per test and JVM configuration (the default; a few minutes)")
    private void quick(boolean on) {
        preset = Preset.QUICK;
    }

    @Option(names = "--full", order = 1, description = "forks until every test has at least 10^7 samples (10^3 for spin-loop tests)")
    private void full(boolean on) {
        preset = Preset.FULL;
    }

    @Option(names = "--mode", order = 4, paramLabel = "sc|safe-construction", description = {
            "the tests under 'vbd run --mode safe-construction': by default those whose forbidden outcomes it forbids too "
                    + "(any fails the run) and the store-buffering ones, whose non-SC outcomes it does not forbid "
                    + "(reported, not failures)"})
    private void mode(String v) {
        mode = among("--mode", v, "sc", "safe-construction");
    }

    @Option(names = "--fields", order = 5, paramLabel = "volatile|fenced|speculative",
            description = "how the tests' fields are made SC, as 'vbd run --fields' (default: volatile)")
    private void fields(String v) {
        fields = among("--fields", v, "volatile", "fenced", "speculative");
        fieldsGiven = true;
    }

    @Option(names = "--optimise", order = 6, paramLabel = "all|constructors|local-arrays|none", description =
            "which accesses stay plain because no other thread can see them, as 'vbd run --optimise' (default: all)")
    private void optimise(String v) {
        optimise = among("--optimise", v, "all", "constructors", "local-arrays", "none");
        optimiseGiven = true;
    }

    @Option(names = "--layout", order = 7, paramLabel = "FILE", description = "the tests' fields laid out as FILE says, as "
            + "'vbd run --layout' (docs/layout.md); 'contended dev.vbd.litmus.**#*' pads every field of every test apart")
    private void layout(String v) {
        Path p = Path.of(nonEmpty("--layout", v)).toAbsolutePath();
        if (!Files.isRegularFile(p)) throw new ParameterException(spec.commandLine(), "layout '" + v + "' does not exist");
        layout = p;
    }

    @Option(names = "--json", order = 7, paramLabel = "FILE", description = "write the results as JSON")
    private void json(String v) {
        json = Path.of(nonEmpty("--json", v)).toAbsolutePath();
    }

    @Option(names = "--tests", order = 8, paramLabel = "REGEX", description = {"only the tests whose name matches (e.g. 'sb\\.|mp\\.'); "
            + "without it, --fields fenced|speculative leave out the tests that race only where every field mode rewrites alike "
            + "(@SameInEveryFieldMode)"})
    private void tests(String re) {
        try {
            tests = Pattern.compile(nonEmpty("--tests", re));
        } catch (PatternSyntaxException e) {
            throw new ParameterException(spec.commandLine(), "--tests '" + re + "' is not a regular expression: " + e.getDescription());
        }
    }

    @Option(names = "--out", order = 12, paramLabel = "DIR",
            description = "where jcstress's reports and logs go (default: a new directory under /tmp)")
    private void out(String v) {
        out = Path.of(nonEmpty("--out", v)).toAbsolutePath();
    }

    @Option(names = "--from", order = 13, paramLabel = "DIR",
            description = "run nothing: report again on the results an earlier run left in its --out DIR")
    private void from(String v) {
        from = Path.of(nonEmpty("--from", v)).toAbsolutePath();
        if (!Files.isDirectory(from.resolve("vbd"))) {
            throw new ParameterException(spec.commandLine(), "--from " + from + " holds no results of an earlier run (no vbd/ in it)");
        }
    }

    static LitmusOptions parse(List<String> args) throws UsageException {
        LitmusOptions o = new LitmusOptions();
        try {
            o.commandLine().parseArgs(args.toArray(String[]::new));
        } catch (CommandLine.UnmatchedArgumentException e) {
            throw new UsageException("unknown option '" + e.getUnmatched().get(0) + "'");
        } catch (CommandLine.MissingParameterException e) {
            throw new UsageException(((OptionSpec) e.getMissing().get(0)).longestName() + " needs a value");
        } catch (ParameterException e) {
            if (e.getArgSpec() instanceof OptionSpec flag && flag.arity().max() == 0) {
                throw new UsageException(flag.longestName() + " takes no value, got '" + e.getValue() + "'");
            }
            throw new UsageException(e.getMessage());
        }
        if (o.safeConstruction() && (o.fieldsGiven || o.optimiseGiven)) {
            throw new UsageException((o.fieldsGiven ? "--fields" : "--optimise") + " applies to --mode sc only");
        }
        return o;
    }

    /** The usage text, generated from the options. */
    static String usage() {
        return new LitmusOptions().commandLine().getUsageMessage();
    }

    private CommandLine commandLine() {
        // a later --quick or --full, --fields, ... wins, as scripts that add to a command line expect
        return new CommandLine(this).setOverwrittenOptionsAllowed(true);
    }

    /** Whether the tests run under {@code --mode safe-construction}. */
    boolean safeConstruction() {
        return mode.equals("safe-construction");
    }

    private String among(String option, String value, String... choices) {
        if (List.of(choices).contains(value)) return value;
        throw new ParameterException(spec.commandLine(), option + " takes '" + String.join("', '", List.of(choices).subList(0, choices.length - 1))
                + "' or '" + choices[choices.length - 1] + "', got '" + value + "'");
    }

    private String nonEmpty(String option, String value) {
        if (value.isEmpty()) throw new ParameterException(spec.commandLine(), option + " needs a value");
        return value;
    }

    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }
}
