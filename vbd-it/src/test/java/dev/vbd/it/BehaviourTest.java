package dev.vbd.it;

import dev.vbd.it.support.Jvm;
import dev.vbd.it.support.Jvms;
import dev.vbd.it.support.OnEachJdk;
import dev.vbd.it.support.Outcome;
import dev.vbd.it.support.Program;
import dev.vbd.it.support.Programs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A data-race-free program must print exactly what it prints on stock Java: the same stdout,
 * the same stderr, the same exit status. One program per area (under src/test/programs/),
 * run on each JDK, first stock, then through {@code bin/vbd run}.
 */
class BehaviourTest {

    @OnEachJdk
    void collections(int jdk) {
        sameAsStock("collections", jdk, 0);
    }

    @OnEachJdk
    void strings(int jdk) {
        sameAsStock("strings", jdk, 0);
    }

    @OnEachJdk
    void reflection(int jdk) {
        Outcome vbd = sameAsStock("reflection", jdk, 0);
        assertTrue(vbd.stdout().contains("leaky value after set=6"), "reflective writes reached the fields:\n" + vbd.describe());
    }

    /**
     * What a program learns of its fields' modifiers is what it declared: reflection, field
     * updaters, setters of final fields its constructor leaks, and the default serialVersionUID,
     * with an object serialized by stock Java read back under vbd.
     */
    @OnEachJdk
    void fieldModifiersAreAsDeclared(int jdk) throws IOException {
        Path dir = Programs.target().resolve("it-runs");
        Files.createDirectories(dir);
        Path serialized = dir.resolve("modifiers-" + jdk + ".ser");
        Programs.compile("modifiers").on(Jvms.require(jdk), "write", serialized.toString()).stock().requireExit(0);
        Outcome vbd = sameAsStock("modifiers", jdk, 0, null, serialized.toString());
        // equal to stock already says these; stated on their own so that a failure names the cause
        assertTrue(vbd.stdout().contains("Fields.plain: 1 [public] volatile=false final=false"), vbd.describe());
        assertTrue(vbd.stdout().contains("Leaky.value: 16 [final] volatile=false final=true"), vbd.describe());
        assertTrue(vbd.stdout().contains("int updater on plain field: java.lang.IllegalArgumentException: Must be volatile type"),
                vbd.describe());
        assertTrue(vbd.stdout().contains("int updater on volatile field: ok"), vbd.describe());
        assertTrue(vbd.stdout().contains("VarHandle.set on leaking final: java.lang.UnsupportedOperationException"), vbd.describe());
        assertTrue(vbd.stdout().contains("setAccessible + setInt on leaking final: ok value=10"), vbd.describe());
        assertTrue(vbd.stdout().contains("read back Plain count=4 text=hello"), vbd.describe());
    }

    @OnEachJdk
    void lambdasAndMethodReferences(int jdk) {
        sameAsStock("lambdas", jdk, 0);
    }

    @OnEachJdk
    void indirectPathsToBulkOperationsAndUnsafe(int jdk) {
        Outcome vbd = sameAsStock("indirect", jdk, 0);
        assertTrue(vbd.stdout().contains("unsafe through reflection: 6"), vbd.describe());
    }

    @OnEachJdk
    void records(int jdk) {
        sameAsStock("records", jdk, 0);
    }

    @OnEachJdk
    void enums(int jdk) {
        sameAsStock("enums", jdk, 0);
    }

    @OnEachJdk
    void exceptions(int jdk) {
        Outcome vbd = sameAsStock("exceptions", jdk, 0);
        // equal to stock already says this; stated on its own so that a failure names the cause
        assertFalse(vbd.stdout().matches("(?s).*vbd frames [1-9].*"), "a stack trace shows vbd's frames:\n" + vbd.describe());
        assertTrue(vbd.stdout().contains("load null array, bad index: java.lang.NullPointerException"),
                "a null array with a bad index throws NullPointerException:\n" + vbd.describe());
        assertTrue(vbd.stdout().contains("ref store wrong type, bad index: java.lang.ArrayIndexOutOfBoundsException"),
                "a bad index wins over a wrong element type:\n" + vbd.describe());
    }

    @OnEachJdk
    void classInitialisation(int jdk) {
        sameAsStock("classinit", jdk, 0);
    }

    @OnEachJdk
    void arrays(int jdk) {
        sameAsStock("arrays", jdk, 0);
    }

    @OnEachJdk
    void threads(int jdk) {
        Outcome vbd = sameAsStock("threads", jdk, 0);
        assertTrue(vbd.stdout().contains("synchronized block 200000"), "monitors kept the count:\n" + vbd.describe());
    }

    @OnEachJdk
    void stdinReachesTheProgram(int jdk) {
        byte[] input = "first line\r\nzweite Zeile: Gr\u00fc\u00dfe \u65e5\u672c \uD83D\uDE00\n\n\tlast line without newline"
                .getBytes(StandardCharsets.UTF_8);
        Outcome vbd = sameAsStock("stdin", jdk, 0, input);
        assertTrue(vbd.stdout().contains("bytes " + input.length + " lines 4"), "all of stdin arrived:\n" + vbd.describe());
    }

    @OnEachJdk
    void exitStatusPassesThrough(int jdk) {
        Outcome vbd = sameAsStock("exitstatus", jdk, 42, null, "42");
        assertTrue(vbd.stdout().contains("shutdown hook ran"), vbd.describe());
    }

    @OnEachJdk
    void stderrPassesThrough(int jdk) {
        Outcome vbd = sameAsStock("stderr", jdk, 1);
        assertTrue(vbd.stderr().contains("Exception in thread \"main\" java.lang.IllegalStateException: uncaught in main"), vbd.describe());
    }

    private static Outcome sameAsStock(String name, int feature, int expectedExit) {
        return sameAsStock(name, feature, expectedExit, null);
    }

    /**
     * Runs the program stock, checks that it behaves as written (exit status), then under vbd,
     * and compares all three channels; each difference is reported, not just the first.
     */
    private static Outcome sameAsStock(String name, int feature, int expectedExit, byte[] stdin, String... args) {
        Jvm jvm = Jvms.require(feature);
        Program program = Programs.compile(name);
        var stock = program.on(jvm, args);
        var underVbd = program.on(jvm, args);
        if (stdin != null) {
            stock.stdin(stdin);
            underVbd.stdin(stdin);
        }
        Outcome expected = stock.stock().requireExit(expectedExit);
        assertFalse(expected.stdout().isEmpty(), "the program prints nothing on stock Java:\n" + expected.describe());
        Outcome actual = underVbd.vbd().requireCompleted();
        assertAll("program '" + name + "' under vbd vs stock on " + jvm,
                () -> assertEquals(expected.stdout(), actual.stdout(), () -> "stdout differs\n" + actual.describe()),
                () -> assertEquals(expected.stderr(), actual.stderr(), () -> "stderr differs\n" + actual.describe()),
                () -> assertEquals(expected.exitStatus(), actual.exitStatus(), () -> "exit status differs\n" + actual.describe()));
        return actual;
    }
}
