package dev.vbd.cli.advise;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A profile from JFR's execution samples, all of a run or what follows its warm-up. */
class ProfileTest {
    @TempDir
    Path tmp;

    private static final String WARM = ProfileTest.class.getName() + "#warmUp(J)J";
    private static final String STEADY = ProfileTest.class.getName() + "#steady(J)J";

    static volatile long sink;

    static long warmUp(long untilNanos) {
        long x = 1;
        // the clock read rarely: a thread in native code is not an execution sample
        while (System.nanoTime() < untilNanos) {
            for (long i = 0; i < 1_000_000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    static long steady(long untilNanos) {
        long x = 3;
        // the clock read rarely: a thread in native code is not an execution sample
        while (System.nanoTime() < untilNanos) {
            for (long i = 0; i < 1_000_000; i++) x = x * 2862933555777941757L + 3037000493L;
        }
        return x;
    }

    @Test
    void samplesBeforeTheMarkDoNotCount() throws Exception {
        Path file = tmp.resolve("run.jfr");
        Instant mark;
        try (Recording r = new Recording(Configuration.create(new java.io.StringReader(Profile.settings(1))))) {
            r.start();
            sink = warmUp(System.nanoTime() + 400_000_000L);
            // a gap on either side of the mark: a sample's time and the mark's come from different clocks
            Thread.sleep(100);
            mark = Instant.now();
            Thread.sleep(100);
            sink = steady(System.nanoTime() + 400_000_000L);
            r.stop();
            r.dump(file);
        }
        Profile all = Profile.read(List.of(new Profile.Recording(file, null)));
        Profile after = Profile.read(List.of(new Profile.Recording(file, mark)));
        assertTrue(all.samples(WARM) > 20 && all.samples(STEADY) > 20, "both halves sampled: " + all.samples);
        assertEquals(0, after.samples(WARM), "the warm-up left out: " + after.samples);
        assertEquals(all.samples(STEADY), after.samples(STEADY), "the steady state kept whole");
        assertTrue(after.total() < all.total(), after.total() + " of " + all.total());
    }
}
