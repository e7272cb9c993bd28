package dev.vbd.agent.observe;

import dev.vbd.core.verify.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The observed run's findings, as JSON: one entry per candidate, in the order given, and what was shared. */
final class ObservationReport {
    /** What the observer put into the program: classes observed, sites, and the classes it could not observe. */
    record Instrumented(long observedClasses, long sites, List<Object> unobserved) {}

    private ObservationReport() {}

    static void write(Path file, List<String> candidateNames, long[] accesses, EvidenceTally evidence,
                      SiteTable sites, Sharing sharing) throws IOException {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < candidateNames.size(); i++) {
            EvidenceTally.Evidence e = evidence.of(i);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("method", candidateNames.get(i));
            synchronized (e) {
                m.put("accesses", accesses[i]);
                m.put("confined", e.confined);
                m.put("ordered", e.ordered);
                m.put("race", e.race);
            }
            out.add(m);
        }
        Map<String, Object> report = new LinkedHashMap<>();
        Instrumented instrumented = sites.instrumented();
        report.put("observedClasses", instrumented.observedClasses());
        report.put("sites", instrumented.sites());
        report.put("unobserved", instrumented.unobserved());
        report.put("candidates", out);
        report.put("shared", sharing.json());
        Files.writeString(file, Json.write(report), StandardCharsets.UTF_8);
    }
}
