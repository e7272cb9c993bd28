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
        // JFR keeps its period only on an idle machine: a loaded one gave 18 samples where 400 were asked for;
        // what is asserted below needs each half sampled, not how often
        assertTrue(all.samples(WARM) > 5 && all.samples(STEADY) > 5, "both halves sampled: " + all.samples);
        assertEquals(0, after.samples(WARM), "the warm-up left out: " + after.samples);
        assertEquals(all.samples(STEADY), after.samples(STEADY), "the steady state kept whole");
        assertTrue(after.total() < all.total(), after.total() + " of " + all.total());
    }

    @Test
    void aRoundIsTheSamplesTakenTogetherAndALongSpellWithoutOneCountsAsTheLongestRound() {
        long ms = 1_000_000;
        // rounds at 0, 2, 4 and 204 ms, two threads sampled in the first three
        Profile.Rounds r = Profile.Rounds.of(new long[] {4 * ms + 20_000, 0, 10_000, 2 * ms, 2 * ms + 15_000, 4 * ms, 204 * ms});
        assertEquals(3, r.intervals());
        assertEquals(0.054, r.seconds(), 1e-9);
    }

    /** A run of the same work in which the sampler kept {@code perSecond} rounds a second, two threads in the same method. */
    private static Profile.Run sampledAt(int perSecond, double seconds) {
        long rounds = Math.round(perSecond * seconds);
        return new Profile.Run(java.util.Map.of(STEADY, 2 * rounds), java.util.Set.of(STEADY), 2 * rounds,
                new Profile.Rounds(rounds, seconds));
    }

    @Test
    void runsOfTheSameWorkWhoseSamplerKeptDifferentPacesCompareAtTheirCommonPace() {
        // the same work under both; the sampler kept 300 rounds a second in one's runs, 500 in the other's
        List<Profile> p = Profile.atOnePace(List.of(List.of(sampledAt(300, 2), sampledAt(300, 2)),
                List.of(sampledAt(500, 2), sampledAt(500, 2))));
        assertEquals(p.get(0).samples(STEADY), p.get(1).samples(STEADY), p.get(0).samples + " and " + p.get(1).samples);
        assertEquals(3200, p.get(1).samples(STEADY));
        assertEquals(3200, p.get(0).total());
        assertTrue(p.get(0).paceInWords(1).contains("400 rounds a second over the 4 runs (1000 asked), from 300 to 500"),
                p.get(0).paceInWords(1));
        // a quarter more time under the second, at the first's pace: a quarter more samples
        p = Profile.atOnePace(List.of(List.of(sampledAt(300, 2)), List.of(sampledAt(500, 2.5))));
        assertEquals(1.25, (double) p.get(1).samples(STEADY) / p.get(0).samples(STEADY), 1e-3);
    }
}
