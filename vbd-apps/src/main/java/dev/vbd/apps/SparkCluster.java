package dev.vbd.apps;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Spark's {@code local-cluster} mode: a master and workers inside this JVM, and each executor a
 * JVM of its own that a worker starts, with the {@code java} of {@code spark.executorEnv.JAVA_HOME}
 * (here this JVM's own home) and the jars of {@code $SPARK_HOME/jars}. Usage:
 * {@code SparkCluster EXECUTORS CLASSES_DIR}; prints one line per executor JVM that ran a task,
 * {@code executor pid=P driver=false java.home=H vbd=V}, then {@code driver pid=P}. {@code V} is
 * what the JVM that ran the task says of a plain field of this class: {@code rewritten} when vbd
 * made it volatile, {@code plain} on a prepared JDK that did not, {@code stock} without vbd.
 */
public final class SparkCluster {
    /** Plain as declared; vbd makes it volatile in the JVM and remembers that it did. */
    int plain;

    private SparkCluster() {}

    public static void main(String[] args) throws Exception {
        int executors = Integer.parseInt(args[0]);
        SparkConf conf = new SparkConf()
                .setMaster("local-cluster[" + executors + ",1,1024]")
                .setAppName("vbd-local-cluster")
                .set("spark.ui.enabled", "false")
                .set("spark.ui.showConsoleProgress", "false")
                .set("spark.driver.host", "127.0.0.1")
                .set("spark.executorEnv.JAVA_HOME", System.getProperty("java.home"))
                .set("spark.executor.extraClassPath", args[1])
                .set("spark.executor.extraJavaOptions", String.join(" ", SparkWordCount.JVM_OPTIONS));
        long driver = ProcessHandle.current().pid();
        try (JavaSparkContext sc = new JavaSparkContext(conf)) {
            sc.setLogLevel("WARN");
            List<Integer> tasks = new ArrayList<>();
            for (int i = 0; i < 8 * executors; i++) tasks.add(i);
            List<String> seen = sc.parallelize(tasks, tasks.size()).map(i -> describe(driver)).collect();
            for (String line : new TreeSet<>(seen)) System.out.println(line);
        }
        System.out.println("driver pid=" + driver);
    }

    /** Where a task ran, and whether that JVM runs this class rewritten. */
    static String describe(long driver) throws Exception {
        long pid = ProcessHandle.current().pid();
        return "executor pid=" + pid + " driver=" + (pid == driver) + " java.home=" + System.getProperty("java.home")
                + " vbd=" + vbd();
    }

    private static String vbd() throws Exception {
        Class<?> changes;
        try {
            changes = Class.forName("java.util.concurrent.atomic.VbdFieldModifiers"); // only a prepared JDK has it
        } catch (ClassNotFoundException e) {
            return "stock";
        }
        int declared = (int) changes.getMethod("field", int.class, Class.class, String.class)
                .invoke(null, Modifier.VOLATILE, SparkCluster.class, "plain");
        return (declared & Modifier.VOLATILE) == 0 ? "rewritten" : "plain";
    }
}
