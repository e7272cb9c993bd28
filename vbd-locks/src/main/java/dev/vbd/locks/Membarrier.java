package dev.vbd.locks;

import dev.vbd.Relaxed;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Linux {@code membarrier(2)} with {@code MEMBARRIER_CMD_PRIVATE_EXPEDITED}, through the JNI library
 * {@code libvbdlocks.so} packaged in this jar. {@link #AVAILABLE} is false when the library cannot be
 * found or loaded (another OS or architecture), the kernel lacks the command, or a sandbox (seccomp)
 * refuses it; {@link #UNAVAILABLE_REASON} then says why. The library is extracted to a temporary
 * file at first use and loaded with {@link System#load}; on JDK 24+ pass
 * {@code --enable-native-access=ALL-UNNAMED} (or the module's name) to avoid the restricted-method
 * warning. {@code -Dvbd.locks.reserve=false} keeps the library unloaded and reservation off.
 */
@Relaxed("written for the Java Memory Model: the reservation protocol is argued in docs/locks.md")
final class Membarrier {
    private Membarrier() {}

    /**
     * {@code -Dvbd.locks.skipBarrierToTestTheTests=true} makes the cancellation skip membarrier, which
     * breaks mutual exclusion: a negative control for the stress and litmus tests, never for use.
     */
    private static final boolean SKIP_BARRIER_TO_TEST_THE_TESTS = Boolean.getBoolean("vbd.locks.skipBarrierToTestTheTests");

    static final boolean AVAILABLE;
    static final String UNAVAILABLE_REASON;

    static {
        String reason = load();
        AVAILABLE = reason == null;
        UNAVAILABLE_REASON = reason;
    }

    private static String load() {
        if (!Boolean.parseBoolean(System.getProperty("vbd.locks.reserve", "true"))) {
            return "reservation disabled by -Dvbd.locks.reserve=false";
        }
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (!os.startsWith("linux")) return "not Linux (" + os + ")";
        if (!arch.equals("amd64") && !arch.equals("x86_64")) return "no native library for " + arch;
        String resource = "native/linux-x86_64/libvbdlocks.so";
        try (InputStream in = Membarrier.class.getResourceAsStream(resource)) {
            if (in == null) return "native library " + resource + " not in the jar (built without a C compiler?)";
            Path tmp = Files.createTempFile("libvbdlocks", ".so");
            try {
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                System.load(tmp.toAbsolutePath().toString());
            } finally {
                // the loaded mapping stays valid after the file is unlinked
                Files.deleteIfExists(tmp);
            }
        } catch (IOException | UnsatisfiedLinkError | SecurityException e) {
            return "cannot load the native library: " + e;
        }
        int rc;
        try {
            rc = register0();
        } catch (UnsatisfiedLinkError e) {
            return "native library without membarrier: " + e;
        }
        if (rc == -1) return "the kernel has no MEMBARRIER_CMD_PRIVATE_EXPEDITED";
        if (rc != 0) return "membarrier failed, errno " + rc;
        return null;
    }

    /**
     * Issues the barrier. Only called when {@link #AVAILABLE}; a failure after the successful
     * registration and trial barrier is a broken environment, not a fallback case.
     */
    static void barrier() {
        if (SKIP_BARRIER_TO_TEST_THE_TESTS) return;
        int rc = barrier0();
        if (rc != 0) throw new IllegalStateException("membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed, errno " + rc);
    }

    private static native int register0();

    private static native int barrier0();
}
