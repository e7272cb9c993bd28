package dev.vbd.bench;

/** One planned JVM launch: a workload under a configuration at a thread count, the index-th of its kind. */
public record Invocation(WorkloadSpec workload, Config config, int threads, int index) {
    public String label() {
        return workload.id() + " " + config.id + (workload.threaded() ? " t=" + threads : "");
    }
}
