package dev.vbd.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One workload as the harness launches it: main class, the JVM options and environment it needs,
 * its classpath and size. A null size leaves the workload at its own default.
 */
public record WorkloadSpec(String id, String mainClass, List<String> jvmOptions, Map<String, String> environment,
                           String classpath, Integer size, boolean threaded, boolean control) {

    /** Everything after the JVM options of the configuration: the workload's own options, classpath, main, args. */
    public List<String> javaArgs(int threads, int iterations) {
        List<String> cmd = new ArrayList<>(jvmOptions);
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(mainClass);
        if (size != null) {
            cmd.add("--size");
            cmd.add(String.valueOf(size));
        }
        cmd.add("--threads");
        cmd.add(String.valueOf(threads));
        cmd.add("--iterations");
        cmd.add(String.valueOf(iterations));
        return cmd;
    }
}
