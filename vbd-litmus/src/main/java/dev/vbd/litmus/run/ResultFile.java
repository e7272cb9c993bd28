package dev.vbd.litmus.run;

import org.openjdk.jcstress.infra.Status;
import org.openjdk.jcstress.infra.collectors.DiskReadCollector;
import org.openjdk.jcstress.infra.collectors.InProcessCollector;
import org.openjdk.jcstress.infra.collectors.TestResult;
import org.openjdk.jcstress.infra.grading.GradingResult;
import org.openjdk.jcstress.infra.grading.TestGrading;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Reads the result blob jcstress writes ({@code jcstress-results-*.bin.gz}) and adds every fork's
 * outcome counts to per-test tallies, graded by the test's own {@code @Outcome} declarations.
 */
final class ResultFile {
    private ResultFile() {}

    static void addTo(Path blob, Map<String, Tally> tallies) throws IOException {
        InProcessCollector collector = new InProcessCollector();
        DiskReadCollector reader = new DiskReadCollector(blob.toString(), collector);
        try {
            reader.dump();
        } catch (ClassNotFoundException e) {
            throw new IOException("cannot read " + blob + ": " + e.getMessage(), e);
        } finally {
            reader.close();
        }
        for (TestResult r : collector.getTestResults()) {
            Tally t = tallies.computeIfAbsent(r.getName(), n -> new Tally());
            t.forks++;
            if (r.status() != Status.NORMAL) {
                String first = r.getMessages().isEmpty() ? "" : ": " + r.getMessages().get(0);
                t.addError(r.status() + first);
            }
            for (GradingResult g : TestGrading.grade(r).gradingResults.values()) {
                t.samples += g.count;
                switch (g.expect) {
                    case FORBIDDEN, UNKNOWN -> {
                        if (g.count > 0) {
                            t.forbidden += g.count;
                            t.forbiddenOutcomes.merge(g.id, g.count, Long::sum);
                        }
                    }
                    case ACCEPTABLE_INTERESTING -> t.interesting += g.count;
                    default -> { }
                }
            }
        }
    }
}
