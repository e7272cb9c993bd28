package dev.vbd.cli;

import dev.vbd.core.rewrite.FieldMode;
import dev.vbd.core.rewrite.Optimisations;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** Options shared by the commands, then {@code --} and the java command line. */
final class Options {
    Path relaxed;
    Path cache = JdkCache.defaultRoot();
    boolean skipUnrewritable;
    /**
     * {@code --fields}: how the program's fields are made SC; {@link FieldMode#SAFE_CONSTRUCTION}
     * with {@code --mode safe-construction}.
     */
    FieldMode fields = FieldMode.VOLATILE;
    /** {@code --optimise}: which accesses stay plain because no other thread can see them. */
    Optimisations optimise = Optimisations.ALL;
    boolean strict;
    boolean agent;
    boolean quiet;
    boolean progress;
    Path json;
    Path jar;
    boolean jdk;
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
    /** {@code bisect --fail-regex}: a run whose output (stdout or stderr) has a line it matches failed. */
    Pattern failRegex;
    /** {@code bisect --timeout}: a run still going after this many seconds failed. */
    Integer timeout;
    /** {@code bisect --repeat}: runs per trial, unless one fails first. */
    Integer repeat;
    /** {@code bisect --jobs}: runs at once. */
    Integer jobs;
    final List<String> command = new ArrayList<>();

    static Options parse(String verb, List<String> args, List<String> allowed) throws UsageException {
        Options o = new Options();
        String fields = System.getenv("VBD_FIELDS");
        if (fields != null && !fields.isEmpty() && allowed.contains("--fields")) o.fields = fieldMode("VBD_FIELDS", fields);
        String mode = null;
        boolean fieldsGiven = false;
        int i = 0;
        for (; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--")) {
                o.command.addAll(args.subList(i + 1, args.size()));
                break;
            }
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            if (!allowed.contains(name)) {
                throw new UsageException("'vbd " + verb + "' does not take option '" + a + "'"
                        + (a.startsWith("-") ? "" : " (the java command line goes after '--')"));
            }
            String value = null;
            if (name.equals("--relaxed") || name.equals("--cache") || name.equals("--json") || name.equals("--jar")
                    || name.equals("--fields") || name.equals("--mode") || name.equals("--optimise") || name.equals("--budget") || name.equals("--out")
                    || name.equals("--profiles") || name.equals("--profile-from") || name.equals("--scope")
                    || name.equals("--fail-regex") || name.equals("--timeout") || name.equals("--repeat") || name.equals("--jobs")) {
                if (a.contains("=")) {
                    value = a.substring(a.indexOf('=') + 1);
                } else {
                    // '--' starts the java command line: it is never an option's value
                    if (i + 1 >= args.size() || args.get(i + 1).equals("--")) throw new UsageException(name + " needs a value");
                    value = args.get(++i);
                }
                if (value.isEmpty()) throw new UsageException(name + " needs a non-empty value");
            }
            switch (name) {
                case "--relaxed" -> {
                    Path p = Path.of(value).toAbsolutePath();
                    if (!Files.isRegularFile(p)) throw new UsageException("relaxed config '" + value + "' does not exist");
                    o.relaxed = p;
                }
                case "--cache" -> o.cache = Path.of(value).toAbsolutePath();
                case "--json" -> o.json = Path.of(value).toAbsolutePath();
                case "--jar" -> {
                    Path p = Path.of(value).toAbsolutePath();
                    if (!Files.isRegularFile(p)) throw new UsageException("jar '" + value + "' does not exist");
                    o.jar = p;
                }
                case "--fields" -> {
                    o.fields = fieldMode("--fields", value);
                    fieldsGiven = true;
                }
                case "--mode" -> {
                    if (!value.equals("sc") && !value.equals("safe-construction")) {
                        throw new UsageException("--mode takes sc or safe-construction, got '" + value + "'");
                    }
                    mode = value;
                }
                case "--optimise" -> {
                    o.optimise = Optimisations.of(value);
                    if (o.optimise == null) throw new UsageException("--optimise takes " + Optimisations.choices() + ", got '" + value + "'");
                }
                case "--out" -> o.out = Path.of(value).toAbsolutePath();
                case "--budget" -> o.budget = positive("--budget", "rules", value);
                case "--profiles" -> o.profiles = positive("--profiles", "runs", value);
                case "--profile-from" -> o.profileFrom = regex("--profile-from", value);
                case "--fail-regex" -> o.failRegex = regex("--fail-regex", value);
                case "--timeout" -> o.timeout = positive("--timeout", "seconds", value);
                case "--repeat" -> o.repeat = positive("--repeat", "runs", value);
                case "--jobs" -> o.jobs = positive("--jobs", "runs at once", value);
                case "--scope" -> {
                    if (!value.equals("method") && !value.equals("class") && !value.equals("package")) {
                        throw new UsageException("--scope takes method, class or package, got '" + value + "'");
                    }
                    o.scope = value;
                }
                case "--jdk" -> o.jdk = true;
                case "--all" -> o.all = true;
                case "--skip-unrewritable" -> o.skipUnrewritable = true;
                case "--strict" -> o.strict = true;
                case "--agent" -> o.agent = true;
                case "--quiet", "-q" -> o.quiet = true;
                case "--progress" -> o.progress = true;
                default -> throw new UsageException("unknown option '" + a + "'");
            }
        }
        if ("safe-construction".equals(mode)) {
            // the other mode's choices: nothing is made SC, and no access is left plain by a proof
            if (fieldsGiven) throw new UsageException("--fields chooses how --mode sc makes fields SC; --mode safe-construction makes none");
            if (o.optimise != Optimisations.ALL) throw new UsageException("--optimise applies to --mode sc only");
            o.fields = FieldMode.SAFE_CONSTRUCTION;
        }
        return o;
    }

    private static Pattern regex(String option, String value) throws UsageException {
        try {
            return Pattern.compile(value);
        } catch (PatternSyntaxException e) {
            throw new UsageException(option + " takes a regular expression, got '" + value + "': " + e.getDescription());
        }
    }

    private static int positive(String option, String what, String value) throws UsageException {
        int n;
        try {
            n = Integer.parseInt(value);
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

    /** These options with another relaxed config. */
    Options withRelaxed(Path config) {
        Options c = new Options();
        c.relaxed = config;
        c.cache = cache;
        c.skipUnrewritable = skipUnrewritable;
        c.fields = fields;
        c.optimise = optimise;
        c.strict = strict;
        c.agent = agent;
        c.quiet = quiet;
        c.progress = progress;
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
