package dev.vbd.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;

/**
 * Results that are reported, not asserted (what stock Java shows on this machine), written to
 * {@code vbd-it/target/<file>} and to the test output. Each file starts afresh with the first
 * report of a test run.
 */
public final class Reports {
    private static final Set<String> STARTED = new HashSet<>();

    private Reports() {}

    public static synchronized void append(String file, String header, String text) {
        System.out.print(text);
        Path p = Programs.target().resolve(file);
        try {
            if (STARTED.add(file)) {
                Files.createDirectories(p.getParent());
                Files.writeString(p, "# " + header + "\n# written " + Instant.now() + "\n", StandardCharsets.UTF_8);
            }
            Files.writeString(p, text, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + p, e);
        }
    }
}
