package dev.vbd.core.verify;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Supplier;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PreparedJdkTest {
    @Test
    void readsJarAndFolderLayouts(@TempDir Path dir) throws IOException {
        Path patch = dir.resolve("patch");
        Files.createDirectories(patch.resolve("m.two/b"));
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(patch.resolve("m.one.jar")))) {
            zip.putNextEntry(new ZipEntry("a/A.class"));
            zip.write(new byte[]{1, 2, 3});
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry("module-info.class"));
            zip.closeEntry();
        }
        Files.write(patch.resolve("m.two/b/B.class"), new byte[]{4, 5});
        try (PreparedJdk jdk = new PreparedJdk(dir)) {
            assertArrayEquals(new byte[]{1, 2, 3}, jdk.find("m.one", "a/A"));
            assertArrayEquals(new byte[]{4, 5}, jdk.find("m.two", "b/B"));
            assertNull(jdk.find("m.one", "b/B"));
            assertNull(jdk.find("m.three", "a/A"));
            Map<String, Supplier<byte[]>> all = jdk.classes();
            assertEquals(java.util.Set.of("a/A", "b/B"), all.keySet());
            assertArrayEquals(new byte[]{4, 5}, all.get("b/B").get());
        }
    }

    @Test
    void missingPatchFolderIsNamed(@TempDir Path dir) {
        IOException e = assertThrows(IOException.class, () -> new PreparedJdk(dir).classes());
        assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
    }

    @Test
    void badJsonNamesThePosition() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\": [1, 2,}"));
        assertTrue(e.getMessage().contains("character 12"), e.getMessage());
        assertEquals(Map.of("s", "q\"\n\u0001"), Json.parse(Json.write(Map.of("s", "q\"\n\u0001"))));
    }
}
