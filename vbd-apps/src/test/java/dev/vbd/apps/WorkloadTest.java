package dev.vbd.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The workload driver and the workloads' determinism, under stock Java. */
class WorkloadTest {

    @Test
    void parsesOptionsAndRejectsBadOnes() {
        assertEquals(new Workload.Options(7, 3, 2),
                Workload.parse(new String[]{"--size", "7", "--threads", "3", "--iterations", "2"}, 100));
        assertEquals(new Workload.Options(100, 2, 1), Workload.parse(new String[0], 100));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Workload.parse(new String[]{"--size", "0"}, 1));
        assertTrue(e.getMessage().contains("--size needs a positive integer, got '0'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Workload.parse(new String[]{"--sise", "3"}, 1));
        assertTrue(e.getMessage().contains("unknown option '--sise'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Workload.parse(new String[]{"--threads"}, 1));
        assertTrue(e.getMessage().contains("missing value after '--threads'"), e.getMessage());
    }

    @Test
    void iterationsThatDisagreeFailTheRun() {
        Workload flaky = new Workload() {
            @Override
            protected String iteration(Options options, int index) {
                return "answer " + index + "\n";
            }
        };
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> flaky.run(new Workload.Options(1, 1, 2)));
        assertTrue(e.getMessage().contains("iteration 1 gave a different result than iteration 0"), e.getMessage());
    }

    @Test
    void unknownWorkloadIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> App.byId("derby"));
        assertTrue(e.getMessage().contains("unknown workload 'derby'"), e.getMessage());
    }

    /**
     * The printed result depends neither on the thread count nor on the interleaving, and several
     * iterations in one JVM agree: what makes stock and vbd runs comparable byte for byte.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = App.class, names = {"H2", "LUCENE", "JYTHON", "LUCENE_INDEX", "XALAN", "FOP", "JETTY",
            "FS_STATS", "FS_STATS_FIXED", "FS_COUNTERS", "FS_COUNTERS_FIXED", "FS_SLOTS", "FS_SLOTS_FIXED", "FS_QUEUE", "FS_QUEUE_FIXED",
            "FS_LINREG", "FS_LINREG_FIXED"})
    void resultDoesNotDependOnThreadCount(App app) throws Exception {
        String size = UnderVbdTest.smallArgs(app)[1];
        Launcher.Result one = Launcher.run(app, Launcher.javaCommand(app, Launcher.JDK17,
                "--size", size, "--threads", "1"), 600, app.id() + "-threads1");
        Launcher.Result three = Launcher.run(app, Launcher.javaCommand(app, Launcher.JDK17,
                "--size", size, "--threads", "3", "--iterations", "2"), 600, app.id() + "-threads3");
        Launcher.assertChecked(app, one, app.id() + " with 1 thread");
        Launcher.assertChecked(app, three, app.id() + " with 3 threads");
        assertEquals(one.stdout(), three.stdout());
        assertEquals(2, three.stderr().lines().filter(l -> l.startsWith(Workload.TIMING_PREFIX + app.id() + " iteration ")).count(),
                "one timing line per iteration on stderr:\n" + three.stderr());
        assertTrue(one.stdout().lines().noneMatch(l -> l.contains("time_ms")), "no timing on stdout");
    }

    @Test
    void classpathListsTheCopiedJars() {
        String cp = Launcher.classpath();
        for (String jar : List.of("h2-", "lucene-core-", "jython-standalone-", "spark-core_2.12-", "spark-mllib_2.12-",
                "xalan-", "fop-core-", "jetty-server-")) {
            assertTrue(cp.contains("/" + jar), "classpath has " + jar + "*.jar: " + cp);
        }
    }
}
