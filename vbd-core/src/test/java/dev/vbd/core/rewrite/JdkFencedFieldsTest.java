package dev.vbd.core.rewrite;

import dev.vbd.core.policy.Policy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.Opcodes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The table of a prepared JDK's fenced fields: what is written is found, and nothing else. */
class JdkFencedFieldsTest {
    @TempDir
    Path dir;

    private JdkFencedFields table(List<String> keys) throws IOException {
        Path file = dir.resolve(JdkFencedFields.FILE);
        assertTrue(JdkFencedFields.write(file, keys));
        return JdkFencedFields.read(file.toFile());
    }

    @Test
    void findsEveryKeyWrittenInAnyOrderAndNoOther() throws IOException {
        List<String> keys = new ArrayList<>();
        Random random = new Random(7);
        for (int i = 0; i < 2_000; i++) {
            keys.add(JdkFencedFields.key("f" + random.nextInt(5_000), random.nextBoolean() ? "I" : "Ljava/lang/Object;"));
        }
        keys.add(JdkFencedFields.key("modCount", "I"));
        keys.add(JdkFencedFields.key("modCount", "I"));
        JdkFencedFields table = table(keys);
        for (String k : keys) {
            int dot = k.indexOf('.');
            assertTrue(table.fenced(k.substring(0, dot), k.substring(dot + 1)), k);
        }
        for (int i = 0; i < 5_000; i++) {
            String name = "f" + i;
            assertEquals(keys.contains(name + ".J"), table.fenced(name, "J"), name);
        }
        assertFalse(table.fenced("modCount", "J"));
        assertFalse(table.fenced("modCoun", "I"));
        assertFalse(table.fenced("modCountX", "I"));
        assertFalse(table.fenced("", ""));
    }

    @Test
    void aKeyIsNameAndDescriptorWholeNotAPrefixOfEither() throws IOException {
        JdkFencedFields table = table(List.of("a.I", "a.II", "ab.I", "\u00e9t\u00e9.I", "z.[I"));
        assertTrue(table.fenced("a", "I"));
        assertTrue(table.fenced("a", "II"));
        assertTrue(table.fenced("ab", "I"));
        assertTrue(table.fenced("\u00e9t\u00e9", "I"));
        assertTrue(table.fenced("z", "[I"));
        assertFalse(table.fenced("a", "J"));
        assertFalse(table.fenced("b", "I"));
        assertFalse(table.fenced("z", "I"));
        assertFalse(table.fenced("\u00e9t", "I"));
        assertEquals("a.I\na.II\nab.I\nz.[I\n\u00e9t\u00e9.I\n", Files.readString(dir.resolve(JdkFencedFields.FILE), StandardCharsets.UTF_8));
    }

    /** A class file declaring {@code int} fields, {@code final} where the name starts with "f". */
    private static byte[] classWithFields(String name, String superName, String... fields) {
        org.objectweb.asm.ClassWriter w = new org.objectweb.asm.ClassWriter(0);
        w.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, name, null, superName, null);
        for (String f : fields) {
            w.visitField(Opcodes.ACC_PUBLIC | (f.startsWith("f") ? Opcodes.ACC_FINAL : 0), f, "I", null, null).visitEnd();
        }
        w.visitEnd();
        return w.toByteArray();
    }

    @Test
    void theTableHoldsTheFencedFieldsOfJavaClassesAndTheirSuperclassesOnly() {
        Map<String, byte[]> jdk = Map.of(
                "sun/x/Base", classWithFields("sun/x/Base", "java/lang/Object", "base", "fixedBase"),
                "java/x/Sub", classWithFields("java/x/Sub", "sun/x/Base", "sub", "fixedSub"),
                "sun/x/Other", classWithFields("sun/x/Other", "java/lang/Object", "other"),
                "java/x/Failed", classWithFields("java/x/Failed", "java/lang/Object", "lost", "fixedLost"));
        ClassRewriter rewriter = ClassRewriter.forJdk(Policy.defaults(), jdk::get).fields(FieldMode.FENCED);
        JdkFencedFields.Builder table = new JdkFencedFields.Builder();
        for (String name : List.of("sun/x/Base", "java/x/Sub", "sun/x/Other")) {
            RewriteResult r = rewriter.rewrite(jdk.get(name));
            assertEquals(RewriteResult.Status.REWRITTEN, r.status(), r::reason);
            table.add(r.bytes());
        }
        table.addUnrewritten(jdk.get("java/x/Failed"));
        assertEquals(Set.of("sub.I", "base.I", "lost.I"), table.keys());
    }

    @Test
    void aModulePatchedFromElsewhereLeavesTheTableOut() throws IOException {
        Path prepared = dir.resolve("jdk");
        Files.createDirectories(prepared);
        assertTrue(JdkFencedFields.write(prepared.resolve(JdkFencedFields.FILE), List.of("x.I")));
        Properties system = new Properties();
        assertTrue(JdkFencedFields.of(prepared.toFile(), system).fenced("x", "I"));
        // the patches vbd adds where a JDK has no runtime image are its own modules
        system.setProperty("jdk.module.patch.0", "java.base=" + prepared.resolve("patch/java.base.jar"));
        system.setProperty("jdk.module.patch.1", "java.desktop=" + prepared.resolve("patch/java.desktop.jar")
                + java.io.File.pathSeparator + prepared.resolve("patch/more.jar"));
        assertTrue(JdkFencedFields.of(prepared.toFile(), system).fenced("x", "I"));
        system.setProperty("jdk.module.patch.2", "java.sql=" + prepared.resolve("patch/java.sql.jar")
                + java.io.File.pathSeparator + dir.resolve("mine"));
        assertNull(JdkFencedFields.of(prepared.toFile(), system));
        system.setProperty("jdk.module.patch.2", "java.sql=" + dir.resolve("jdk-elsewhere/java.sql.jar"));
        assertNull(JdkFencedFields.of(prepared.toFile(), system));
    }

    @Test
    void anEmptyTableFindsNothing() throws IOException {
        assertFalse(table(List.of()).fenced("x", "I"));
    }

    @Test
    void noFileOrACutFileIsNoTable() throws IOException {
        assertNull(JdkFencedFields.read(dir.resolve("none.txt").toFile()));
        Path cut = dir.resolve("cut.txt");
        Files.writeString(cut, "a.I\nb.I");
        assertNull(JdkFencedFields.read(cut.toFile()));
    }

    @Test
    void aKeyWithANewlineWritesNoTable() throws IOException {
        Path file = dir.resolve(JdkFencedFields.FILE);
        assertFalse(JdkFencedFields.write(file, List.of("a.I", "b\nc.I")));
        assertFalse(Files.exists(file));
    }
}
