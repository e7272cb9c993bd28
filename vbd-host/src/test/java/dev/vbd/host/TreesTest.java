package dev.vbd.host;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TreesTest {
    @TempDir
    Path tmp;

    @Test
    void deletesADirectoryWithEverythingBelowIt() throws Exception {
        Path root = tmp.resolve("root");
        Files.createDirectories(root.resolve("a/b"));
        Files.writeString(root.resolve("a/b/f"), "x");
        Files.writeString(root.resolve("g"), "y");
        Trees.delete(root);
        assertFalse(Files.exists(root));
        assertTrue(Files.isDirectory(tmp));
    }

    @Test
    void aMissingTreeIsNothingToDo() throws Exception {
        Trees.delete(tmp.resolve("absent"));
        assertTrue(Files.isDirectory(tmp));
    }
}
