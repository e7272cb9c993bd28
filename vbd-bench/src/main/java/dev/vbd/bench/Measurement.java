package dev.vbd.bench;

import dev.vbd.host.Stats;

import java.util.Arrays;

/**
 * What one invocation measured: its iteration times in order, and where the workload reported it,
 * the CPU time the whole JVM spent in each ({@code cpuMs}, else null). The score, the mean of the
 * iterations after the warm-up ones, is what the statistics work on; the first iteration of a fresh
 * JVM is the start-up figure.
 */
public record Measurement(String workload, String config, int threads, int invocation, Integer size,
                          double[] iterationsMs, int warmup, double wallS, double[] cpuMs) {

    public Measurement(String workload, String config, int threads, int invocation, Integer size,
                       double[] iterationsMs, int warmup, double wallS) {
        this(workload, config, threads, invocation, size, iterationsMs, warmup, wallS, null);
    }

    /** CPU ms per iteration after the warm-up ones, or NaN without CPU times. */
    public double cpuScoreMs() {
        return cpuMs == null ? Double.NaN : Stats.mean(Arrays.copyOfRange(cpuMs, warmup, cpuMs.length));
    }

    public double scoreMs() {
        return Stats.mean(Arrays.copyOfRange(iterationsMs, warmup, iterationsMs.length));
    }

    public double firstMs() {
        return iterationsMs[0];
    }
}
