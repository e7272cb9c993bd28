package dev.vbd.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code bin/vbd verify} over each application's run finds no heap access that is neither SC nor
 * relaxed, in the application's classes or the JDK's, leaves no loaded class unchecked, and the
 * application still checks its answer.
 */
class VerifyTest {

    private static final Pattern NON_SC = count("nonSc");
    private static final Pattern UNCOVERED = count("uncovered");

    private static Pattern count(String key) {
        return Pattern.compile("\"" + key + "\"\\s*:\\s*(\\d+)");
    }

    /**
     * A verified run costs more than a plain vbd run; FOP and Spark MLlib, the slowest, are verified only
     * with {@code -Dvbd.apps.all=true} (see {@link UnderVbdTest#covered}).
     */
    static boolean verified(App app) {
        return UnderVbdTest.ALL || (app != App.FOP && app != App.SPARK_MLLIB);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(App.class)
    void noNonScAccess(App app) throws Exception {
        assumeTrue(verified(app), app.id() + " is verified only with -Dvbd.apps.all=true");
        Path json = Launcher.work().resolve(app.id() + "-verify.json");
        Files.deleteIfExists(json);
        List<String> cmd = Launcher.vbdCommand("verify", List.of("--json", json.toString()),
                Launcher.javaCommand(app, Launcher.JDK17, UnderVbdTest.smallArgs(app)));
        Launcher.Result r = Launcher.run(app, cmd, UnderVbdTest.timeoutSeconds(app), app.id() + "-verify");

        assertEquals(0, r.exitCode(), "vbd verify of " + app.id() + ":\n" + r.describe());
        assertTrue(r.stdout().contains(app.id() + ": OK\n"), "the verified run checked its answer:\n" + r.describe());
        assertTrue(Files.exists(json), "vbd verify wrote " + json + ":\n" + r.describe());
        String report = Files.readString(json);
        Matcher m = NON_SC.matcher(report);
        assertTrue(m.find(), "no \"nonSc\" in " + json);
        assertEquals(0, Integer.parseInt(m.group(1)), "heap accesses that are neither SC nor relaxed in "
                + app.id() + "; findings in " + json);
        // a class verify cannot read back is one it did not check (e.g. one that cannot be linked)
        m = UNCOVERED.matcher(report);
        assertTrue(m.find(), "no \"uncovered\" in " + json);
        assertEquals(0, Integer.parseInt(m.group(1)), "classes vbd verify could not check in " + app.id()
                + "; uncoveredClasses in " + json);
    }
}
