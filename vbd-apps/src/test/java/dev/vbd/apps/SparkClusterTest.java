package dev.vbd.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Spark's executors are JVMs of their own, which a worker starts with the {@code java} of
 * {@code spark.executorEnv.JAVA_HOME}: under {@code vbd run}, the driver's own home, the prepared
 * image (docs/integrations.md). Program {@link SparkCluster} in {@code local-cluster} mode reports,
 * from inside each executor that ran a task, its process, its {@code java.home} and whether that
 * JVM runs the program's class rewritten. Spark finds its jars in {@code $SPARK_HOME/jars}, a
 * folder of links to this module's dependencies.
 */
class SparkClusterTest {
    private static final Pattern EXECUTOR = Pattern.compile("executor pid=(\\d+) driver=(\\w+) java.home=(\\S+) vbd=(\\w+)");

    @Test
    void executorsRunRewrittenUnderVbd() throws Exception {
        Path java = Launcher.JDK17;
        List<String> javaCmd = new ArrayList<>(List.of(java.toString()));
        javaCmd.addAll(SparkWordCount.JVM_OPTIONS);
        javaCmd.addAll(List.of("-cp", Launcher.classpath(), SparkCluster.class.getName(), "2", Launcher.classes().toString()));

        List<String[]> vbd = executors(Launcher.run(environment(), Launcher.vbdCommand("run", List.of(), javaCmd), 900, "spark-cluster-vbd"));
        for (String[] e : vbd) {
            assertEquals("false", e[1], "a separate JVM");
            assertTrue(e[2].endsWith("/image"), "the prepared image's java: " + e[2]);
            assertEquals("rewritten", e[3], "the executor runs the program's class rewritten");
        }
        List<String[]> stock = executors(Launcher.run(environment(), javaCmd, 900, "spark-cluster-stock"));
        for (String[] e : stock) assertEquals("stock", e[3], "without vbd the executors say so: the test can tell");
    }

    private static List<String[]> executors(Launcher.Result r) {
        assertEquals(0, r.exitCode(), r.describe());
        List<String[]> found = new ArrayList<>();
        Matcher m = EXECUTOR.matcher(r.stdout());
        while (m.find()) found.add(new String[]{m.group(1), m.group(2), m.group(3), m.group(4)});
        assertTrue(!found.isEmpty() && r.stdout().contains("driver pid="), r.describe());
        return found;
    }

    /** A Spark home whose {@code jars} are this module's dependencies, as a Spark distribution lays them out. */
    private static Map<String, String> environment() throws Exception {
        Path home = Launcher.work().resolve("spark-home");
        Path jars = home.resolve("jars");
        Files.createDirectories(jars);
        try (Stream<Path> lib = Files.list(Launcher.lib())) {
            for (Path jar : (Iterable<Path>) lib::iterator) {
                Path link = jars.resolve(jar.getFileName());
                if (jar.toString().endsWith(".jar") && !Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    Files.createSymbolicLink(link, jar.toAbsolutePath());
                }
            }
        }
        Map<String, String> env = new HashMap<>(App.SPARK.environment);
        env.put("SPARK_HOME", home.toString());
        env.put("SPARK_SCALA_VERSION", "2.12");
        return env;
    }
}
