package dev.vbd.host;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** File trees. */
public final class Trees {
    private Trees() {}

    /** Deletes a file or a directory with everything below it; nothing when it does not exist. */
    public static void delete(Path root) throws IOException {
        if (!Files.exists(root)) return;
        // another process may be deleting the same tree: entries vanishing mid-walk are fine
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) Files.deleteIfExists(p);
        } catch (NoSuchFileException | UncheckedIOException e) {
            if (Files.exists(root)) throw e;
        }
    }
}
