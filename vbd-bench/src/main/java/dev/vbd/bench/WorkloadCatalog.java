package dev.vbd.bench;

import dev.vbd.apps.App;
import dev.vbd.bench.control.StoreLoop;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The workloads a run can use: every entry of {@link App}, at the size the bundled
 * {@code workloads.properties} gives for the mode, plus the positive control.
 */
public final class WorkloadCatalog {
    /** The quick run's workload when it exists: an in-memory database, starts fast, no Spark or Jython boot. */
    static final String QUICK_WORKLOAD = "h2";

    private final Properties table;
    private final String appsClasspath;
    private final String benchClasspath;

    /**
     * {@code appsClasspath}: vbd-apps' classes and the jars of the workloads; {@code benchClasspath}:
     * this module's classes and vbd-apps' classes, for the control workload.
     */
    public WorkloadCatalog(String appsClasspath, String benchClasspath) {
        this.appsClasspath = appsClasspath;
        this.benchClasspath = benchClasspath;
        this.table = new Properties();
        try (InputStream in = WorkloadCatalog.class.getResourceAsStream("workloads.properties")) {
            if (in == null) throw new IllegalStateException("workloads.properties is missing from the classpath");
            table.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Names of the real applications of vbd-apps, in the order of {@link App}: what 'all' runs. */
    public static List<String> names() {
        return names(App.Suite.APPLICATIONS);
    }

    /** Names of the workloads of one suite, in the order of {@link App}. */
    public static List<String> names(App.Suite suite) {
        return Arrays.stream(App.values()).filter(a -> a.suite == suite).map(App::id).toList();
    }

    /** Names of every workload a run can name. */
    public static List<String> known() {
        return Arrays.stream(App.values()).map(App::id).toList();
    }

    /**
     * The negative control's workload when the run has it: at one thread its invocations are short
     * and steady (stock varies by a few percent between invocations on 2 cores), so its interval is
     * narrow enough to tell 1.00 from a 20% overhead.
     */
    static final String NEGATIVE_CONTROL_WORKLOAD = "xalan";

    /** The negative control's workload among {@code run}: the preferred one, else the quick one, else the first. */
    static String negativeControlWorkload(List<String> run) {
        if (run.contains(NEGATIVE_CONTROL_WORKLOAD)) return NEGATIVE_CONTROL_WORKLOAD;
        return run.contains(QUICK_WORKLOAD) ? QUICK_WORKLOAD : run.get(0);
    }

    public static String quickWorkload() {
        List<String> names = names();
        return names.contains(QUICK_WORKLOAD) ? QUICK_WORKLOAD : names.get(0);
    }

    public WorkloadSpec spec(String id, BenchOptions.Mode mode, Map<String, Integer> overrides) {
        App app = App.byId(id);
        Integer size = overrides.get(id);
        if (size == null) {
            String s = table.getProperty(id + "." + key(mode));
            size = s == null ? null : Integer.valueOf(s.trim());
        }
        boolean threaded = !"false".equals(table.getProperty(id + ".threads", "true").trim());
        return new WorkloadSpec(id, app.mainClass.getName(), app.jvmOptions, app.environment, appsClasspath, size,
                threaded, false);
    }

    /** The positive control: a store-heavy loop on a shared object (one thread). */
    public WorkloadSpec storeLoop(BenchOptions.Mode mode) {
        int size = mode == BenchOptions.Mode.FULL ? StoreLoop.FULL_SIZE : StoreLoop.QUICK_SIZE;
        return new WorkloadSpec(StoreLoop.NAME, StoreLoop.class.getName(), List.of(), Map.of(), benchClasspath, size,
                false, true);
    }

    private static String key(BenchOptions.Mode mode) {
        return mode == BenchOptions.Mode.FULL ? "full" : "quick";
    }
}
