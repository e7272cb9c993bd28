package dev.vbd.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class VbdOptionsTest {
    private static String keptFor(String asked, int prepared) {
        ProcessBuilder pb = new ProcessBuilder("true");
        if (asked == null) pb.environment().remove("VBD_CACHE_KEEP");
        else pb.environment().put("VBD_CACHE_KEEP", asked);
        VbdOptions.keepAtLeast(pb, prepared);
        return pb.environment().get("VBD_CACHE_KEEP");
    }

    @Test
    void theCacheKeepsAsManyPreparedJdksAsTheRunAsksFor() {
        assertEquals("6", keptFor(null, 6));
        assertEquals("6", keptFor("2", 6));
    }

    @Test
    void aLargerOrABadValueOfTheUsersStaysAsItIs() {
        assertEquals("10", keptFor("10", 6));
        assertEquals("many", keptFor("many", 6));
    }
}
