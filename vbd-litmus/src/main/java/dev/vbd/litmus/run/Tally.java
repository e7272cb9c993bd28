package dev.vbd.litmus.run;

import java.util.Map;
import java.util.TreeMap;

/**
 * What one configuration (stock or vbd) saw of one test, summed over every fork and JVM mode jcstress
 * ran it in: samples, how many of them were forbidden (not sequentially consistent, or outcomes the
 * test does not name), how many were acceptable but interesting (weak outcomes a relaxed test allows),
 * and the worst error status a fork reported.
 */
final class Tally {
    long samples;
    long forbidden;
    long interesting;
    int forks;
    String error;
    /** Outcome to count, for the report of a test that failed. */
    final Map<String, Long> forbiddenOutcomes = new TreeMap<>();

    boolean ran() {
        return forks > 0;
    }

    /**
     * Whether more samples are worth taking: a test that already showed a forbidden or a weak
     * outcome has made its point, and for a spin loop every further stale sample costs a timeout.
     */
    boolean needsSamples(long target) {
        return samples < target && forbidden == 0 && interesting == 0;
    }

    void addError(String message) {
        if (error == null) error = message;
    }
}
