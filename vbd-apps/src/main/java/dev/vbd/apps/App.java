package dev.vbd.apps;

import dev.vbd.apps.sharing.LinearRegression;
import dev.vbd.apps.sharing.PipelineStats;
import dev.vbd.apps.sharing.RingBuffer;
import dev.vbd.apps.sharing.SlotArray;
import dev.vbd.apps.sharing.WorkerCounters;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The workloads and how to launch each: main class and the JVM options it needs. The one place that
 * builds their java command lines, for {@code bin/workload}, the tests and the benchmark harness.
 */
public enum App {
    H2(H2Tpcc.class, List.of(), Map.of()),
    LUCENE(LuceneSearch.class, List.of(), Map.of()),
    JYTHON(JythonScript.class, List.of(), Map.of()),
    SPARK(SparkWordCount.class, SparkWordCount.JVM_OPTIONS, SparkWordCount.ENVIRONMENT),
    LUCENE_INDEX(LuceneIndex.class, List.of(), Map.of()),
    XALAN(XalanTransform.class, List.of(), Map.of()),
    JAVAC(JavacCompile.class, List.of(), Map.of()),
    FOP(FopRender.class, List.of("-Djava.awt.headless=true"), Map.of()),
    JETTY(JettyServe.class, List.of(), Map.of()),
    SPARK_MLLIB(SparkMllib.class, SparkWordCount.JVM_OPTIONS, SparkWordCount.ENVIRONMENT),
    // the false-sharing suite (docs/layout.md), each beside the fix a programmer would make by hand
    FS_STATS(PipelineStats.class, Suite.FALSE_SHARING),
    FS_STATS_FIXED(PipelineStats.Fixed.class, Suite.FALSE_SHARING),
    FS_COUNTERS(WorkerCounters.class, Suite.FALSE_SHARING),
    FS_COUNTERS_FIXED(WorkerCounters.Fixed.class, Suite.FALSE_SHARING),
    FS_SLOTS(SlotArray.class, Suite.FALSE_SHARING),
    FS_SLOTS_FIXED(SlotArray.Fixed.class, Suite.FALSE_SHARING),
    FS_QUEUE(RingBuffer.class, Suite.FALSE_SHARING),
    FS_QUEUE_FIXED(RingBuffer.Fixed.class, Suite.FALSE_SHARING),
    FS_LINREG(LinearRegression.class, Suite.FALSE_SHARING),
    FS_LINREG_FIXED(LinearRegression.Fixed.class, Suite.FALSE_SHARING);

    /** The real applications, the bench's headline and control suite; or the workloads with false sharing planted. */
    public enum Suite { APPLICATIONS, FALSE_SHARING }

    public final Class<?> mainClass;
    public final List<String> jvmOptions;
    /** Environment variables the workload's JVM needs (added to the inherited environment). */
    public final Map<String, String> environment;
    public final Suite suite;

    App(Class<?> mainClass, List<String> jvmOptions, Map<String, String> environment) {
        this(mainClass, jvmOptions, environment, Suite.APPLICATIONS);
    }

    App(Class<?> mainClass, Suite suite) {
        this(mainClass, List.of(), Map.of(), suite);
    }

    App(Class<?> mainClass, List<String> jvmOptions, Map<String, String> environment, Suite suite) {
        this.mainClass = mainClass;
        this.jvmOptions = jvmOptions;
        this.environment = environment;
        this.suite = suite;
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static App byId(String id) {
        for (App a : values()) {
            if (a.id().equals(id)) return a;
        }
        throw new IllegalArgumentException("unknown workload '" + id + "'; known: "
                + Arrays.stream(values()).map(App::id).toList());
    }

    /**
     * The classpath of the workloads: the module's classes directory, then the jars the build copied into
     * the lib directory, in the order of the resolved classpath that the build wrote to lib/classpath.txt.
     */
    public static String classpath(Path classes, Path lib) {
        Path list = lib.resolve("classpath.txt");
        if (!Files.isDirectory(classes) || !Files.isRegularFile(list)) {
            throw new IllegalArgumentException("no built workloads at " + classes + " and " + list
                    + " (run: mvn -pl vbd-apps -am -DskipTests package)");
        }
        List<String> entries = new ArrayList<>();
        entries.add(classes.toString());
        try {
            for (String entry : Files.readString(list).trim().split(File.pathSeparator)) {
                Path jar = lib.resolve(Path.of(entry).getFileName());
                if (!Files.isRegularFile(jar)) {
                    throw new IllegalArgumentException(list + " names " + entry + ", which is not in " + lib);
                }
                entries.add(jar.toString());
            }
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot read " + list, e);
        }
        return String.join(File.pathSeparator, entries);
    }

    /** {@code java [jvm options] -cp CP main args...}: everything after the java launcher itself. */
    public List<String> javaArgs(String classpath, List<String> args) {
        List<String> cmd = new ArrayList<>(jvmOptions);
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(mainClass.getName());
        cmd.addAll(args);
        return cmd;
    }

    /**
     * Prints how to launch a workload, for {@code bin/workload}: {@code App CLASSES LIB NAME [args...]}
     * prints a line {@code NAME=VALUE} per environment variable, a line {@code --}, then the java
     * arguments, one per line.
     */
    public static void main(String[] argv) {
        if (argv.length < 3) {
            System.err.println("usage: App CLASSES_DIR LIB_DIR NAME [workload args...]");
            System.exit(2);
        }
        try {
            App app = byId(argv[2]);
            String cp = classpath(Path.of(argv[0]), Path.of(argv[1]));
            new TreeMap<>(app.environment).forEach((k, v) -> System.out.println(k + "=" + v));
            System.out.println("--");
            for (String a : app.javaArgs(cp, Arrays.asList(argv).subList(3, argv.length))) {
                System.out.println(a);
            }
        } catch (IllegalArgumentException e) {
            System.err.println("workload: " + e.getMessage());
            System.exit(2);
        }
    }
}
