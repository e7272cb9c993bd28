package dev.vbd.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code vbd advise} on a workload with a race planted in one of its costliest methods: the racy
 * method is named with its race and never relaxed, the confined one is, each rule with its gain and
 * evidence, and under the advice the workload prints what it printed on stock Java.
 */
class AdviseTest {
    /** Three profiles a side: one run's samples, on a busy machine, can leave the tables' cost within noise. */
    private static final List<String> PROFILED = List.of("--budget", "5", "--profiles", "3");

    static Stream<Path> jdks() {
        return Stream.of(Launcher.JDK17, Launcher.JDK25);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void plantedRaceIsNamedAndNeverRelaxed(Path java) throws Exception {
        assumeTrue(Files.isExecutable(java), java + " is not installed here");
        String label = "advise-planted-race-" + UnderVbdTest.jdkName(java);
        Path config = Launcher.work().resolve(label + ".relaxed");
        Files.deleteIfExists(config);
        List<String> javaCmd = List.of(java.toString(), "-cp", Launcher.classes().toString(), PlantedRace.class.getName(),
                "--size", "800", "--iterations", "3");
        Launcher.Result r = Launcher.run(Map.of(), Launcher.vbdCommand("advise",
                concat(PROFILED, "--out", config.toString()), javaCmd), 600, label);
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.stderr().contains("printed what it printed on stock Java"), r.describe());

        String tick = PlantedRace.Progress.class.getName() + "#tick(Ljava/lang/String;)V";
        List<String> lines = Files.readAllLines(config, StandardCharsets.UTF_8);
        List<String> rules = lines.stream().filter(l -> l.startsWith("method ")).toList();
        assertFalse(rules.isEmpty(), "some costly method is safe to relax:\n" + String.join("\n", lines));
        for (String rule : rules) {
            assertFalse(rule.contains(PlantedRace.Progress.class.getName()) || rule.contains("lambda$setUp"),
                    "a racy method relaxed: " + rule);
            int at = lines.indexOf(rule);
            assertTrue(lines.get(at - 3).startsWith("# gain: ") && lines.get(at - 2).startsWith("# safe: ")
                            && lines.get(at - 1).startsWith("# measured apart: "),
                    rule + " comes with its expected gain, its evidence and its gain measured apart:\n" + String.join("\n", lines));
        }
        // three runs under vbd and three under the advice beside the six the rules were chosen on
        String comments = String.join(" ", lines.stream().filter(l -> l.startsWith("# ")).map(l -> l.substring(2)).toList());
        assertTrue(comments.matches(".*Measured apart, on 3 runs each under vbd and under the advice, .*"
                + "the run under the advice took \\d\\.\\d\\d of its time under vbd.*"), String.join("\n", lines));
        assertTrue(r.stderr().contains("vbd: advise: 4/4 checking and measuring the advice under vbd (3 of 3)"), r.describe());
        String named = "not relaxed: " + tick + ": may race: " + PlantedRace.Progress.class.getName() + ".";
        assertTrue(r.stderr().contains(named), "the report names the planted race:\n" + r.describe());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("#   " + tick + " (") && l.contains("may race")),
                String.join("\n", lines));
    }
    /**
     * With a rule per class, the racy method's class is the scope left out, named with the race's
     * method, and so is that method.
     */
    @org.junit.jupiter.api.Test
    void plantedRacesClassIsNamedAndNeverRelaxed() throws Exception {
        Path java = Launcher.JDK17;
        assumeTrue(Files.isExecutable(java), java + " is not installed here");
        Path config = Launcher.work().resolve("advise-planted-race-classes.relaxed");
        Files.deleteIfExists(config);
        List<String> javaCmd = List.of(java.toString(), "-cp", Launcher.classes().toString(), PlantedRace.class.getName(),
                "--size", "800", "--iterations", "3");
        Launcher.Result r = Launcher.run(Map.of(), Launcher.vbdCommand("advise",
                concat(PROFILED, "--scope", "class", "--out", config.toString()), javaCmd), 600, "advise-planted-race-classes");
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.stderr().contains("printed what it printed on stock Java"), r.describe());

        String progress = PlantedRace.Progress.class.getName();
        List<String> lines = Files.readAllLines(config, StandardCharsets.UTF_8);
        List<String> rules = lines.stream().filter(l -> l.startsWith("method ")).toList();
        assertFalse(rules.isEmpty(), "some costly class is safe to relax:\n" + String.join("\n", lines));
        String workload = PlantedRace.class.getName();
        for (String rule : rules) {
            String scope = rule.substring("method ".length());
            // a class that may race has its costly methods judged on their own
            assertTrue(scope.endsWith("#*") || scope.startsWith(workload + "#"), "a rule per class, or a racy class's method: " + rule);
            assertFalse(scope.equals(progress + "#*") || scope.equals(workload + "#*") || scope.startsWith(progress + "#tick")
                    || scope.contains("lambda$setUp"), "a racy class or method relaxed: " + rule);
        }
        String named = "not relaxed: " + progress + ": may race: tick(Ljava/lang/String;)V: " + progress + ".";
        assertTrue(r.stderr().contains(named), "the report names the planted race and its method:\n" + r.describe());
    }

    private static List<String> concat(List<String> first, String... more) {
        return Stream.concat(first.stream(), Stream.of(more)).toList();
    }
}
