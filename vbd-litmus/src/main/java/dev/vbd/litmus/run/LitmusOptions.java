package dev.vbd.litmus.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** {@code vbd litmus [--quick|--full] [--stock] [--agent] [--mode MODE] [--fields MODE] [--optimise WHICH] [--json FILE] [--tests REGEX] [--java J] [--oversubscribe] [--out DIR]}. */
final class LitmusOptions {
    static final String USAGE = """
            usage: vbd litmus [--quick|--full] [--stock] [--agent] [--mode sc|safe-construction]
                              [--fields volatile|fenced|speculative] [--optimise WHICH] [--json FILE] [--tests REGEX] [--java JAVA] [--oversubscribe] [--out DIR | --from DIR]
              --quick       one short fork per test and JVM configuration (the default; a few minutes)
              --full        forks until every test has at least 10^7 samples (10^3 for spin-loop tests)
              --stock       also run every test under stock Java, through the same jcstress forks
              --agent       forks rewrite with vbd's agent ('vbd run --agent') rather than the image's own define paths
              --mode safe-construction
                            the tests under 'vbd run --mode safe-construction': by default those whose
                            forbidden outcomes it forbids too (any fails the run) and the store-buffering
                            ones, whose non-SC outcomes it does not forbid (reported, not failures)
              --fields volatile|fenced|speculative
                            how the tests' fields are made SC, as 'vbd run --fields' (default: volatile)
              --optimise all|constructors|local-arrays|none
                            which accesses stay plain because no other thread can see them, as
                            'vbd run --optimise' (default: all)
              --json FILE   write the results as JSON
              --tests REGEX only the tests whose name matches (e.g. 'sb\\.|mp\\.')
              --java JAVA   the java launcher of the JDK to test (default: java on the PATH)
              --oversubscribe
                            also run the tests with more actors than this machine has CPUs, their
                            actors sharing CPUs (jcstress alone refuses them)
              --out DIR     where jcstress's reports and logs go (default: a new directory under /tmp)
              --from DIR    run nothing: report again on the results an earlier run left in its --out DIR
            """;

    Preset preset = Preset.QUICK;
    boolean stock;
    boolean agent;
    /** {@code --mode}: sc, or safe-construction, which takes no {@code --fields} nor {@code --optimise}. */
    String mode = "sc";
    /** {@code --fields}: volatile, fenced or speculative. */
    String fields = "volatile";
    /** {@code --optimise}: all, constructors, local-arrays or none. */
    String optimise = "all";
    boolean oversubscribe;
    Path json;
    /** {@code --tests}; null for the default: every test, or under safe construction those {@link #safeConstruction()} selects. */
    Pattern tests;
    String java = "java";
    Path out;
    Path from;

    static LitmusOptions parse(List<String> args) throws UsageException {
        LitmusOptions o = new LitmusOptions();
        boolean fieldsGiven = false, optimiseGiven = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--quick" -> o.preset = Preset.QUICK;
                case "--full" -> o.preset = Preset.FULL;
                case "--stock" -> o.stock = true;
                case "--agent" -> o.agent = true;
                case "--fields" -> {
                    String v = value(args, ++i, a);
                    if (!v.equals("volatile") && !v.equals("fenced") && !v.equals("speculative")) {
                        throw new UsageException("--fields takes 'volatile', 'fenced' or 'speculative', got '" + v + "'");
                    }
                    o.fields = v;
                    fieldsGiven = true;
                }
                case "--optimise" -> {
                    String v = value(args, ++i, a);
                    if (!List.of("all", "constructors", "local-arrays", "none").contains(v)) {
                        throw new UsageException("--optimise takes 'all', 'constructors', 'local-arrays' or 'none', got '" + v + "'");
                    }
                    o.optimise = v;
                    optimiseGiven = true;
                }
                case "--mode" -> {
                    String v = value(args, ++i, a);
                    if (!v.equals("sc") && !v.equals("safe-construction")) {
                        throw new UsageException("--mode takes 'sc' or 'safe-construction', got '" + v + "'");
                    }
                    o.mode = v;
                }
                case "--oversubscribe" -> o.oversubscribe = true;
                case "--json" -> o.json = Path.of(value(args, ++i, a)).toAbsolutePath();
                case "--out" -> o.out = Path.of(value(args, ++i, a)).toAbsolutePath();
                case "--java" -> o.java = value(args, ++i, a);
                case "--from" -> {
                    o.from = Path.of(value(args, ++i, a)).toAbsolutePath();
                    if (!Files.isDirectory(o.from.resolve("vbd"))) {
                        throw new UsageException("--from " + o.from + " holds no results of an earlier run (no vbd/ in it)");
                    }
                }
                case "--tests" -> {
                    String re = value(args, ++i, a);
                    try {
                        o.tests = Pattern.compile(re);
                    } catch (PatternSyntaxException e) {
                        throw new UsageException("--tests '" + re + "' is not a regular expression: " + e.getDescription());
                    }
                }
                default -> throw new UsageException("unknown option '" + a + "'");
            }
        }
        if (o.safeConstruction() && (fieldsGiven || optimiseGiven)) {
            throw new UsageException((fieldsGiven ? "--fields" : "--optimise") + " applies to --mode sc only");
        }
        return o;
    }

    /** Whether the tests run under {@code --mode safe-construction}. */
    boolean safeConstruction() {
        return mode.equals("safe-construction");
    }

    private static String value(List<String> args, int i, String option) throws UsageException {
        if (i >= args.size() || args.get(i).isEmpty()) throw new UsageException(option + " needs a value");
        return args.get(i);
    }

    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }
}
