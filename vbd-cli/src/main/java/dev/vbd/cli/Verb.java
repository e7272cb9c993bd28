package dev.vbd.cli;

import java.util.ArrayList;
import java.util.List;

/** The commands of {@code vbd}: what each does, the options it takes, and what follows its {@code --}. */
enum Verb {
    RUN("run", "java ARGS", with(Options.COMMON, List.of("--layout"), List.of()), "run a program with sequential consistency by default"),
    JVM_ARGS("jvm-args", "java", with(Options.COMMON, List.of("--layout"), List.of()), "print the JVM options another launcher must add"),
    JAVA_HOME("java-home", "java", List.of("--cache", "--quiet", "--progress"),
            "print a Java home whose bin/java runs every program under vbd (for launchers that take a Java home or executable)"),
    VERIFY("verify", "java ARGS", with(Options.COMMON, List.of("--json", "--jar", "--jdk"), List.of()),
            "run the program, then list every heap access that is neither SC nor relaxed, with a coverage summary; "
                    + "with --jar FILE or --jdk (and only the java launcher after '--'): a static check of a jar, or of the prepared JDK"),
    // it relaxes what SC costs; under safe construction nothing does
    ADVISE("advise", "java ARGS", with(Options.COMMON, List.of("--budget", "--scope", "--profiles", "--profile-from", "--out"), List.of("--mode")),
            "run the program profiled and observed, then write the relaxed scopes where SC costs most and no access can race "
                    + "(docs/advise.md); as many runs under vbd and under the advice check it and measure what it gives back"),
    // its trials run under vbd as run does
    LAYOUT("layout", "java ARGS", with(Options.COMMON, List.of("--out", "--json", "--min-misses", "--min-rate", "--trials"), List.of("--relaxed")),
            "run the program watched on stock Java, then report the cache lines its threads share falsely (two fields, "
                    + "neighbouring objects, an array's elements, statics), and write the layout that pads the fields apart "
                    + "for 'vbd run --layout' (docs/layout.md)"),
    // it searches for what SC repairs
    BISECT("bisect", "java ARGS", with(Options.COMMON, List.of("--fail-regex", "--timeout", "--repeat", "--jobs", "--json"), List.of("--mode")),
            "for a failure that vanishes under vbd: the fields (or the methods' array accesses) that must be volatile for it "
                    + "to vanish, and the fix (docs/bisect.md; a run fails when it exits non-zero, prints a line --fail-regex "
                    + "matches, or runs past --timeout)"),
    PREPARE("prepare", "java", Options.COMMON, "rewrite a JDK ahead of time (run does it on first use)"),
    CACHE_LIST("cache list", null, List.of("--cache"), "the prepared JDKs: JDK, size, last use, whether this vbd made them"),
    CACHE_CLEAN("cache clean", null, List.of("--cache", "--all"), "remove the prepared JDKs this vbd does not use (--all: every one)"),
    DEMO("demo", "java", Options.COMMON, "the paper's examples under stock Java and under vbd"),
    LITMUS("litmus", null, List.of(), "the jcstress litmus suite under vbd (and stock Java): bin/vbd litmus --help"),
    BENCH("bench", null, List.of(), "what SC costs on real applications, against stock Java: bin/vbd bench --help");

    /** The command's words after {@code vbd}. */
    final String words;
    /** What follows {@code --}; null: nothing does. */
    final String javaCommand;
    /** The options it takes, by their long names. */
    final List<String> options;
    final String description;

    Verb(String words, String javaCommand, List<String> options, String description) {
        this.words = words;
        this.javaCommand = javaCommand;
        this.options = options;
        this.description = description;
    }

    /** The command {@code words} names; null for none. */
    static Verb of(String words) {
        for (Verb v : values()) {
            if (v.words.equals(words)) return v;
        }
        return null;
    }

    private static List<String> with(List<String> base, List<String> added, List<String> removed) {
        List<String> all = new ArrayList<>(base);
        all.removeAll(removed);
        all.addAll(added);
        return List.copyOf(all);
    }
}
