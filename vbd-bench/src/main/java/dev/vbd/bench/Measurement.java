package dev.vbd.bench;

import java.util.Arrays;

/**
 * What one invocation measured: its iteration times in order. The score, the mean of the
 * iterations after the warm-up ones, is what the statistics work on; the first iteration of a
 * fresh JVM is the start-up figure.
 */
public record Measurement(String workload, String config, int threads, int invocation, Integer size,
                          double[] iterationsMs, int warmup, double wallS) {

    public double scoreMs() {
        return Stats.mean(Arrays.copyOfRange(iterationsMs, warmup, iterationsMs.length));
    }

    public double firstMs() {
        return iterationsMs[0];
    }
}
