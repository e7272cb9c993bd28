package dev.vbd.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each real application gives the same stdout under bin/vbd as under stock Java, on each JDK, and
 * passes its own result check both times. Sizes are small: the point is that the rewritten
 * application and JDK still compute the same answer, not speed.
 */
class UnderVbdTest {

    /** Small inputs, and how long a run may take (Spark under vbd rewrites thousands of Scala classes). */
    static String[] smallArgs(App app) {
        return switch (app) {
            case H2 -> new String[]{"--size", "300", "--threads", "2"};
            case LUCENE -> new String[]{"--size", "1500", "--threads", "2"};
            case JYTHON -> new String[]{"--size", "2000", "--threads", "2"};
            case SPARK -> new String[]{"--size", "1000", "--threads", "2"};
            case LUCENE_INDEX -> new String[]{"--size", "500", "--threads", "2"};
            case XALAN -> new String[]{"--size", "400", "--threads", "2"};
            case JAVAC -> new String[]{"--size", "4", "--threads", "2"};
            case FOP -> new String[]{"--size", "8", "--threads", "2"};
            case JETTY -> new String[]{"--size", "300", "--threads", "2"};
            case SPARK_MLLIB -> new String[]{"--size", "2000", "--threads", "2"};
            case FS_STATS, FS_STATS_FIXED, FS_COUNTERS, FS_COUNTERS_FIXED, FS_SLOTS, FS_SLOTS_FIXED, FS_QUEUE, FS_QUEUE_FIXED,
                 FS_LINREG, FS_LINREG_FIXED ->
                    new String[]{"--size", "1", "--threads", "2", "--iterations", "2"};
        };
    }

    static long timeoutSeconds(App app) {
        return app == App.SPARK || app == App.SPARK_MLLIB ? 900 : 600;
    }

    /** With {@code -Dvbd.apps.all=true}, every workload on every JDK, whatever {@link #covered} says. */
    static final boolean ALL = Boolean.getBoolean("vbd.apps.all");

    /**
     * Which workloads a plain test run checks on which JDK. Each run under vbd costs tens of seconds (the
     * agent rewrites the application's classes), and the whole suite must fit in CI's time: the later
     * workloads run on JDK 17 only, and Spark MLlib (minutes, for thousands of Scala and Breeze classes)
     * only with {@code -Dvbd.apps.all=true}.
     */
    static boolean covered(App app, Path java) {
        if (ALL) return true;
        return switch (app) {
            case H2, LUCENE, JYTHON, SPARK -> true;
            case LUCENE_INDEX, XALAN, JAVAC, FOP, JETTY -> java.equals(Launcher.JDK17);
            case SPARK_MLLIB -> false;
            // the false-sharing suite: small loops over a few fields, on one JDK; the fixes only with -Dvbd.apps.all=true
            case FS_STATS, FS_COUNTERS, FS_SLOTS, FS_QUEUE, FS_LINREG -> java.equals(Launcher.JDK17);
            case FS_STATS_FIXED, FS_COUNTERS_FIXED, FS_SLOTS_FIXED, FS_QUEUE_FIXED, FS_LINREG_FIXED -> false;
        };
    }

    static Stream<Arguments> cases() {
        return Stream.of(Launcher.JDK17, Launcher.JDK25)
                .flatMap(jdk -> Stream.of(App.values()).map(app -> Arguments.of(app, jdk)));
    }

    static String jdkName(Path java) {
        return java.getParent().getParent().getFileName().toString();
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("cases")
    void sameOutputAsStock(App app, Path java) throws Exception {
        assumeTrue(Files.isExecutable(java), java + " is not installed here");
        assumeTrue(covered(app, java), app.id() + " on " + java + " runs only with -Dvbd.apps.all=true");
        List<String> javaCmd = Launcher.javaCommand(app, java, smallArgs(app));
        String label = app.id() + "-" + jdkName(java);

        Launcher.Result stock = Launcher.run(app, javaCmd, timeoutSeconds(app), label + "-stock");
        Launcher.assertChecked(app, stock, "stock " + label);

        Launcher.Result vbd = Launcher.run(app, Launcher.vbdCommand("run", List.of(), javaCmd),
                timeoutSeconds(app), label + "-vbd");
        Launcher.assertChecked(app, vbd, "vbd " + label);
        assertEquals(stock.stdout(), vbd.stdout(), label + ": stdout under vbd differs from stock");
        System.out.println("[vbd-apps] " + label + ": stock " + stock.millis() + " ms, vbd " + vbd.millis() + " ms");
    }
}
