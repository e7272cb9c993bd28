package dev.vbd.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The harness end to end in quick mode on its small workload, controls included: the JVMs run, the
 * files appear with the promised shape. Never a time: speed is the benchmark's business.
 */
class BenchSmokeTest {

    @Test
    void quickRunWritesItsReports(@TempDir Path out) throws Exception {
        Path repo = Path.of(System.getProperty("vbd.home", "..")).toAbsolutePath().normalize();
        Path json = out.resolve("copy/results.json");
        int rc = Bench.run(repo, List.of("--quick", "--iterations", "2", "--warmup", "1", "--out", out.toString(),
                "--json", json.toString(), "--precision", "1", "--max-invocations", "3"));
        assertEquals(0, rc, "the quick run failed; its report: " + out.resolve("results.md"));
        for (String f : List.of("results.json", "results.md", "relative-time.png")) {
            assertTrue(Files.size(out.resolve(f)) > 0, f);
        }
        assertEquals(Files.readString(out.resolve("results.json")), Files.readString(json));
        JsonNode j = new ObjectMapper().readTree(json.toFile());
        assertTrue(j.get("geomean").isNumber());
        assertTrue(j.get("max").isNumber());
        JsonNode ws = j.get("workloads");
        assertEquals(1, ws.size());
        assertEquals(WorkloadCatalog.quickWorkload(), ws.get(0).get("name").asText());
        assertTrue(ws.get(0).get("ratio").isNumber());
        assertEquals(2, ws.get(0).get("ci95").size());
        // both controls ran; their verdicts depend on the machine, not on the harness
        assertTrue(j.get("controls").get("negative").get("ratio").isNumber());
        assertTrue(j.get("controls").get("positive").get("ratio").isNumber());
        assertTrue(j.get("raw").size() >= 2 * 2 + 2 * 4);
        assertTrue(Files.readString(out.resolve("results.md")).contains("| **geometric mean** |"));
        // a workload stops adding rounds when its interval is narrow enough, else at the cap
        JsonNode p = j.get("precision").get("workloads").get(0);
        int n = p.get("invocations").asInt();
        if (p.get("reached").asBoolean()) {
            assertTrue(p.get("half_width").asDouble() <= 0.01 && n >= 2 && n <= 3, p.toString());
        } else {
            assertEquals(3, n, p.toString());
        }
        long runs = 0;
        for (JsonNode x : j.get("raw")) {
            if (x.get("workload").asText().equals(WorkloadCatalog.quickWorkload()) && x.get("config").asText().equals("vbd")) runs++;
        }
        assertEquals(n, runs);
    }
}
