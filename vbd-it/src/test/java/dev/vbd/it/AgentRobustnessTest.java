package dev.vbd.it;

import dev.vbd.core.verify.Json;
import dev.vbd.host.Command;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The agent inside long-lived and unusual class-loading setups: redeployed loaders, loaders that load while asked for bytes. */
class AgentRobustnessTest {

    @OnEachJdk
    void aDiscardedClassLoaderIsCollected(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        Program p = Programs.compile("loaderleak");
        Outcome stock = p.on(jvm).stock().requireExit(0);
        assertTrue(stock.stdout().contains("loader collected"), stock.describe());
        Outcome vbd = p.on(jvm).vbd().requireCompleted();
        assertEquals(stock.stdout(), vbd.stdout(), () -> "the plugin's loader must be collected under vbd too\n" + vbd.describe());
        assertEquals(0, vbd.exitStatus(), vbd.describe());
    }

    @OnEachJdk
    void aLoaderThatLoadsClassesWhileAskedForBytesIsRewrittenWithoutRecursion(int jdk) throws Exception {
        Jvm jvm = Jvms.require(jdk);
        Program p = Programs.compile("reentrant");
        Outcome stock = p.on(jvm).stock().requireExit(0);
        Path json = Programs.target().resolve("it-runs").resolve("reentrant-jdk" + jdk + ".json");
        Files.createDirectories(json.getParent());
        Files.deleteIfExists(json);
        List<String> cmd = new ArrayList<>(List.of(Programs.home().resolve("bin/vbd").toString(), "verify", "-q",
                "--json", json.toString(), "--", jvm.launcher().toString(), "-cp", p.classPath(), "Main"));
        Command.Result r = Command.of(cmd).timeout(Duration.ofMinutes(10)).run();
        String out = r.output();
        assertFalse(r.timedOut(), "finished: " + cmd);
        assertEquals(0, r.status(), out);
        String work = stock.stdout().substring(0, stock.stdout().indexOf(", sides"));
        assertTrue(out.contains(work), "the same work as on stock Java (" + work + "):\n" + out);
        assertTrue(out.contains("lookups made: true"), "vbd asked the loader for bytes, so loading nested:\n" + out);
        assertTrue(!out.contains("StackOverflowError") && !out.contains("ClassCircularityError"), out);
        Map<String, Object> report = report(json);
        assertEquals(0L, ((Number) report.get("nonSc")).longValue(), () -> String.valueOf(report.get("findings")));
        assertEquals(0L, ((Number) report.get("uncovered")).longValue(), () -> String.valueOf(report.get("uncoveredClasses")));
        @SuppressWarnings("unchecked")
        Map<String, Object> agent = (Map<String, Object>) report.get("agent");
        assertEquals(Map.of(), agent.get("failed"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> report(Path json) throws IOException {
        return (Map<String, Object>) Json.parse(Files.readString(json, StandardCharsets.UTF_8));
    }
}
