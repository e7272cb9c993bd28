package dev.vbd.bench;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VbdOptionsTest {
    private static String keptFor(String asked, int prepared) {
        Map<String, String> env = new HashMap<>();
        if (asked != null) env.put("VBD_CACHE_KEEP", asked);
        VbdOptions.keepAtLeast(env, prepared);
        return env.get("VBD_CACHE_KEEP");
    }

    @Test
    void theCacheKeepsAsManyPreparedJdksAsTheRunAsksFor() {
        assertEquals("6", keptFor(null, 6));
        assertEquals("6", keptFor("2", 6));
        assertEquals(null, keptFor(null, 3), "the cache's own default keeps more");
    }

    @Test
    void eachWorkloadsAdviceMayNeedAPreparedJdkOfItsOwn() {
        Set<Config> plain = new LinkedHashSet<>(List.of(Config.STOCK, Config.VBD, Config.VBD_FENCED));
        assertEquals(2, Bench.prepared(plain, 3));
        // vbd-fenced, then per workload: vbd+advised's image and vbd-fenced+advised's, and the advisor's check of each
        Set<Config> advised = new LinkedHashSet<>(List.of(Config.STOCK, Config.VBD_FENCED, Config.VBD_ADVISED, Config.VBD_FENCED_ADVISED));
        assertEquals(1 + 3 * 4, Bench.prepared(advised, 3));
    }

    @Test
    void aLargerOrABadValueOfTheUsersStaysAsItIs() {
        assertEquals("10", keptFor("10", 6));
        assertEquals("many", keptFor("many", 6));
    }

    private static final Path REPO = Path.of(System.getProperty("vbd.home", "..")).toAbsolutePath().normalize();

    @Test
    void vbdsJarAnswersInProcessAndNamesABadArgument() {
        String message = assertThrows(IllegalStateException.class,
                () -> VbdOptions.launchCommand(REPO, List.of("--fields", "plain"), "java", List.of())).getMessage();
        assertTrue(message.contains("--fields takes 'volatile', 'fenced' or 'speculative', got 'plain'"), message);
    }

    @Test
    void aBadRelaxedConfigIsTheUsersArgument() throws Exception {
        Path missing = Files.createTempDirectory("vbd-bench-").resolve("missing.relaxed");
        String message = assertThrows(IllegalArgumentException.class,
                () -> VbdOptions.launchPrefix(REPO, "java", missing, List.of(), 1)).getMessage();
        assertTrue(message.contains("relaxed config '" + missing + "' does not exist"), message);
    }
}
