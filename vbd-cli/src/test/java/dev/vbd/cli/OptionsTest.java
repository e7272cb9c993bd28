package dev.vbd.cli;

import dev.vbd.core.rewrite.FieldMode;
import dev.vbd.core.rewrite.Optimisations;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command lines of vbd's commands, parsed in-process: every bad argument is named. */
class OptionsTest {
    private static Options parse(Verb verb, String... args) throws UsageException {
        return Options.parse(verb.words, List.of(args), verb.options);
    }

    private static String error(Verb verb, String... args) {
        return assertThrows(UsageException.class, () -> parse(verb, args)).getMessage();
    }

    @Test
    void readsOptionsThenTheJavaCommandLineAfterTheDashes() throws Exception {
        Options o = parse(Verb.RUN, "--fields", "fenced", "--optimise=none", "--agent", "-q", "--cache", "c",
                "--", "java", "--fields", "-jar", "app.jar");
        assertEquals(FieldMode.FENCED, o.fields);
        assertEquals(Optimisations.NONE, o.optimise);
        assertTrue(o.agent);
        assertTrue(o.quiet);
        assertTrue(o.cache.isAbsolute() && o.cache.endsWith("c"));
        assertEquals(List.of("java", "--fields", "-jar", "app.jar"), o.command);
        assertEquals("java", o.javaWord());
    }

    @Test
    void aLaterValueWins() throws Exception {
        assertEquals(FieldMode.SPECULATIVE, parse(Verb.RUN, "--fields", "fenced", "--fields=speculative", "--", "java").fields);
    }

    @Test
    void safeConstructionTakesNoFieldModeNorOptimisation() throws Exception {
        assertEquals(FieldMode.SAFE_CONSTRUCTION, parse(Verb.RUN, "--mode", "safe-construction", "--", "java").fields);
        assertEquals("--mode takes sc or safe-construction, got 'relaxed'", error(Verb.RUN, "--mode", "relaxed", "--", "java"));
        assertEquals("--fields chooses how --mode sc makes fields SC; --mode safe-construction makes none",
                error(Verb.RUN, "--mode", "safe-construction", "--fields", "fenced", "--", "java"));
        assertEquals("--optimise applies to --mode sc only", error(Verb.JVM_ARGS, "--mode=safe-construction", "--optimise", "none", "--", "java"));
        assertEquals("--fields takes 'volatile', 'fenced' or 'speculative', got 'safe-construction'",
                error(Verb.RUN, "--fields", "safe-construction", "--", "java"));
        assertEquals("--optimise takes 'all', 'constructors', 'local-arrays' or 'none', got 'some'", error(Verb.RUN, "--optimise", "some"));
    }

    @Test
    void eachCommandTakesOnlyItsOwnOptions() {
        assertEquals("'vbd run' does not take option '--fast'", error(Verb.RUN, "--fast", "--", "java"));
        assertEquals("'vbd run' does not take option 'java' (the java command line goes after '--')", error(Verb.RUN, "java", "-version"));
        assertEquals("'vbd advise' does not take option '--mode'", error(Verb.ADVISE, "--mode", "safe-construction", "--", "java"));
        assertEquals("'vbd bisect' does not take option '--mode'", error(Verb.BISECT, "--mode", "sc", "--", "java"));
        assertEquals("'vbd cache list' does not take option '--all'", error(Verb.CACHE_LIST, "--all"));
        assertEquals("'vbd java-home' does not take option '--relaxed'", error(Verb.JAVA_HOME, "--relaxed", "x", "--", "java"));
        assertEquals("'vbd run' does not take option '--help'", error(Verb.RUN, "--help"));
    }

    @Test
    void aValueIsNeverMissingNorEmptyNorTheDashes() {
        assertEquals("--profiles needs a value", error(Verb.ADVISE, "--profiles", "--", "java"));
        assertEquals("--profiles needs a value", error(Verb.ADVISE, "--profiles"));
        assertEquals("--cache needs a non-empty value", error(Verb.RUN, "--cache=", "--", "java"));
        assertEquals("--agent takes no value, got 'yes'", error(Verb.RUN, "--agent=yes", "--", "java"));
        assertEquals("relaxed config 'no-such.relaxed' does not exist", error(Verb.RUN, "--relaxed", "no-such.relaxed", "--", "java"));
        assertEquals("jar 'no-such.jar' does not exist", error(Verb.VERIFY, "--jar", "no-such.jar"));
    }

    @Test
    void adviseAndBisectNameEachBadCount() {
        assertEquals("--profiles takes a positive number of runs, got '0'", error(Verb.ADVISE, "--profiles", "0", "--", "java"));
        assertEquals("--budget takes a positive number of rules, got 'many'", error(Verb.ADVISE, "--budget=many", "--", "java"));
        assertEquals("--scope takes method, class or package, got 'module'", error(Verb.ADVISE, "--scope", "module", "--", "java"));
        assertEquals("--profile-from takes a regular expression, got 'iteration (5': Unclosed group",
                error(Verb.ADVISE, "--profile-from", "iteration (5", "--", "java"));
        assertEquals("--repeat takes a positive number of runs, got '0'", error(Verb.BISECT, "--repeat", "0", "--", "java"));
        assertEquals("--timeout takes a positive number of seconds, got 'soon'", error(Verb.BISECT, "--timeout=soon", "--", "java"));
        assertEquals("--jobs takes a positive number of runs at once, got '-1'", error(Verb.BISECT, "--jobs", "-1", "--", "java"));
        assertEquals("--fail-regex takes a regular expression, got 'FAIL (': Unclosed group",
                error(Verb.BISECT, "--fail-regex", "FAIL (", "--", "java"));
    }

    @Test
    void aLayoutMustExistAndReadAndOnlyRunAndJvmArgsTakeOne() throws Exception {
        assertEquals("--layout: layout 'no-such.layout' does not exist", error(Verb.RUN, "--layout", "no-such.layout", "--", "java"));
        Path bad = Files.createTempFile("vbd-options", ".layout");
        Files.writeString(bad, "contended a.B#c\npad a.B#d\n");
        assertEquals("bad layout: " + bad.toAbsolutePath() + ":2: unknown rule 'pad' (a layout has 'contended CLASS#FIELD [GROUP]' and 'stride CLASS#FIELD N')",
                error(Verb.RUN, "--layout", bad.toString(), "--", "java"));
        Path good = Files.createTempFile("vbd-options", ".layout");
        Files.writeString(good, "contended a.B#c\n");
        assertEquals(good.toAbsolutePath(), parse(Verb.JVM_ARGS, "--layout", good.toString(), "--", "java").layout);
        assertEquals("'vbd advise' does not take option '--layout'", error(Verb.ADVISE, "--layout", good.toString(), "--", "java"));
        assertEquals("--min-misses takes a positive number of misses, got '0'", error(Verb.LAYOUT, "--min-misses", "0", "--", "java"));
        assertEquals("--min-rate takes a positive number of misses a second, got 'high'", error(Verb.LAYOUT, "--min-rate", "high", "--", "java"));
        assertEquals("'vbd layout' does not take option '--relaxed'", error(Verb.LAYOUT, "--relaxed", good.toString(), "--", "java"));
    }

    @Test
    void theCommandsArgumentsAreNotExpanded() throws Exception {
        Path file = Files.createTempFile("vbd-options", ".txt");
        Files.writeString(file, "--agent\n");
        assertEquals("'vbd run' does not take option '@" + file + "' (the java command line goes after '--')",
                error(Verb.RUN, "@" + file, "--", "java"));
        assertEquals(List.of("java", "@" + file), parse(Verb.RUN, "--", "java", "@" + file).command);
    }

    @Test
    void helpIsTheCommandsUsageFromItsOptions() throws Exception {
        assertTrue(parse(Verb.ADVISE, "--help").help);
        String usage = Usage.of(Verb.ADVISE);
        for (String option : Verb.ADVISE.options) assertTrue(usage.contains(option), option + " in " + usage);
        assertFalse(usage.contains("--mode"), usage);
        assertTrue(usage.contains("at most N rules (default: 20)"), usage);
    }

    @Test
    void theUsageOfVbdListsEveryCommandAndTheSharedOptions() {
        String usage = Usage.ofAll();
        for (Verb v : Verb.values()) assertTrue(usage.contains(v.words + " "), v.words + " in " + usage);
        for (String option : Options.COMMON) assertTrue(usage.contains(option), option + " in " + usage);
        assertTrue(usage.contains("$VBD_FIELDS sets the default"), usage);
    }

    @Test
    void mainNamesAnUnknownCommandAndTheCacheVerb() {
        assertEquals("unknown command 'frobnicate' (try 'vbd help')",
                assertThrows(UsageException.class, () -> Main.run(List.of("frobnicate"))).getMessage());
        assertEquals("'vbd cache' needs 'list' or 'clean', got 'purge'",
                assertThrows(UsageException.class, () -> Main.run(List.of("cache", "purge"))).getMessage());
        assertEquals("'vbd --version' takes no arguments, got [x]",
                assertThrows(UsageException.class, () -> Main.run(new ArrayList<>(List.of("--version", "x")))).getMessage());
        assertEquals("'vbd litmus' runs from the source tree: bin/vbd litmus",
                assertThrows(UsageException.class, () -> Main.run(List.of("litmus", "--quick"))).getMessage());
    }
}
