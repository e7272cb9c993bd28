package dev.vbd.it.support;

import dev.vbd.host.Jdks;
import org.junit.jupiter.api.Assumptions;

/**
 * The JDKs the end-to-end tests run on, from {@link Jdks#forTests()}. A missing JDK 17 fails, as
 * it is the release vbd is built for; a missing later release skips its tests instead of failing
 * them, because CI images need not carry it.
 */
public final class Jvms {
    private Jvms() {}

    /** The JDK of this feature release; skips the calling test (JUnit assumption) where it is not installed. */
    public static Jvm require(int feature) {
        Jdks.Jdk jdk = Jdks.forTests(feature).orElse(null);
        if (jdk == null && feature == Jdks.MIN_FEATURE) {
            throw new IllegalStateException("no JDK " + feature + " among the JDKs to test on " + Jdks.forTests()
                    + "; the JDK " + feature + " tests need it (name JDKs in $VBD_TEST_JDKS)");
        }
        Assumptions.assumeTrue(jdk != null, "no JDK " + feature + " among " + Jdks.forTests() + ": its tests skipped");
        return new Jvm(jdk.feature(), jdk.java(), jdk.version());
    }
}
