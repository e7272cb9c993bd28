package dev.vbd.it;

import dev.vbd.it.support.Jvm;
import dev.vbd.it.support.Jvms;
import dev.vbd.it.support.OnEachJdk;
import dev.vbd.it.support.Outcome;
import dev.vbd.it.support.Programs;
import dev.vbd.it.support.StoreBuffering;
import dev.vbd.it.support.StoreBuffering.Count;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Relaxed scopes must really be relaxed: the store-buffering actors, relaxed by
 * {@code @Relaxed} or by a {@code --relaxed} config file, show the SC-forbidden outcome under
 * vbd again, while a non-relaxed shape in the same run still never does.
 */
class RelaxedTest {
    static final long TRIALS = 1_000_000;
    /** The relaxed shapes run until they show the forbidden outcome or this many trials have run. */
    static final long SEARCH_TRIALS = 8_000_000;
    static final int ATTEMPTS = 2;

    @OnEachJdk
    void annotatedActorsShowWeakBehaviour(int jdk) {
        relaxedShowsWeakBehaviour(Jvms.require(jdk), null, List.of("relaxed-instance", "relaxed-int[]"));
    }

    @OnEachJdk
    void configRelaxedClassShowsWeakBehaviour(int jdk) throws IOException {
        Path config = Programs.target().resolve("it-config").resolve("sb-relaxed.conf");
        Files.createDirectories(config.getParent());
        Files.writeString(config, "# the SB actors of these classes run with plain accesses\n"
                + "class ConfigRelaxedInstance\nclass ConfigRelaxedIntArray\n", StandardCharsets.UTF_8);
        relaxedShowsWeakBehaviour(Jvms.require(jdk), config, List.of("config-instance", "config-int[]"));
    }

    private static void relaxedShowsWeakBehaviour(Jvm jvm, Path config, List<String> relaxed) {
        // the plain SC shape runs alongside (first, so that it also warms the harness up):
        // relaxing one class must not relax the rest
        List<String> shapes = new ArrayList<>();
        shapes.add("instance");
        relaxed.forEach(s -> shapes.add(StoreBuffering.searching(s, SEARCH_TRIALS)));
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            var launch = StoreBuffering.program().on(jvm, StoreBuffering.args(TRIALS, shapes));
            if (config != null) launch.relaxed(config);
            Outcome o = launch.vbd();
            Map<String, Count> counts = StoreBuffering.parse(o, shapes);
            StoreBuffering.report((config == null ? "vbd, @Relaxed actors" : "vbd --relaxed " + config.getFileName())
                    + ", attempt " + attempt, o, counts);
            Count control = counts.get("instance");
            assertEquals(0, control.forbidden(), () -> "the non-relaxed shape showed r1=0,r2=0 " + control.forbidden()
                    + " times next to relaxed code:\n" + o.describe());
            long weak = relaxed.stream().mapToLong(s -> counts.get(s).forbidden()).sum();
            if (weak > 0) return;
        }
        fail("relaxed actors " + relaxed + " never showed r1=0,r2=0 under vbd in " + ATTEMPTS + " runs of " + SEARCH_TRIALS
                + " trials on " + jvm + ": relaxed code seems to keep vbd's fences (see target/sb-report.txt)");
    }
}
