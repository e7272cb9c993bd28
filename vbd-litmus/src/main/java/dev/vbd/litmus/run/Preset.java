package dev.vbd.litmus.run;

import java.util.List;

/**
 * How hard jcstress runs each test. Both presets use one JVM configuration (tiered compilation, so
 * every actor goes through the interpreter, C1 and C2 within a fork) and unified compilation of the
 * actors: jcstress's full matrix of split compilation modes would multiply the forks by nine, and on
 * two cores a fork under vbd costs about two seconds of start-up. On JDK 17 jcstress still runs each
 * test with biased locking on and off, unless {@code --default-locking} (see {@link JcstressHost}).
 *
 * <p>Strides of 4096 samples instead of jcstress's 256: on two cores the actors then spend their time
 * racing instead of meeting at the stride barrier, several times the samples per second, and stock
 * Java shows store buffering in about 40% of them instead of a few percent.
 */
enum Preset {
    /** Under a second of sampling per test and configuration: the CI run. */
    QUICK(List.of("-f", "1", "-iters", "1", "-time", "300", "-strideSize", "4096"), 0, 0, 1),
    /** Repeats forks until a test has enough samples; spin-loop tests give far fewer per second. */
    FULL(List.of("-f", "1", "-iters", "5", "-time", "1000", "-strideSize", "4096"), 10_000_000L, 1_000L, 6);

    final List<String> jcstressArgs;
    final long minSamples;
    final long minTerminationSamples;
    final int maxPasses;

    Preset(List<String> jcstressArgs, long minSamples, long minTerminationSamples, int maxPasses) {
        this.jcstressArgs = jcstressArgs;
        this.minSamples = minSamples;
        this.minTerminationSamples = minTerminationSamples;
        this.maxPasses = maxPasses;
    }

    String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
