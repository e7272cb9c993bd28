package dev.vbd.litmus.generator;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.ToolProvider;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** The build's test generator (src/main/generator), compiled and run in this JVM on small trees. */
class GenerateFamiliesTest {
    private static Method main;

    @BeforeAll
    static void compile(@TempDir Path classes) throws Exception {
        Path source = Path.of("src/main/generator/GenerateFamilies.java");
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), source.toString());
        assertEquals(0, rc, "javac " + source);
        ClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()});
        main = loader.loadClass("GenerateFamilies").getMethod("main", String[].class);
    }

    private static void generate(Path templates, Path out) throws Throwable {
        try {
            main.invoke(null, (Object) new String[] {templates.toString(), out.toString()});
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static void write(Path file, String text) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    @Test
    void fillsEachVariantIntoThePackageOfItsFolder(@TempDir Path dir) throws Throwable {
        Path templates = dir.resolve("templates");
        write(templates.resolve("Shape.template"), String.join("\n",
                "package $package$;",
                "class $class$ {",
                "    $state$",
                "    $extra$",
                "    int load() { return $load$; }",
                "}", ""));
        write(templates.resolve("Shape.defaults"), "extra:\n");
        write(templates.resolve("a/b/Shape.variants"), String.join("\n",
                "# comment",
                "class: One",
                "state: int x;",
                "load: x",
                "",
                "class: Two",
                "state:",
                "| int[] a = new int[2];",
                "|",
                "| int y;",
                "extra: int z;",
                "load: (int) a[1]", ""));
        Path out = dir.resolve("out");
        generate(templates, out);

        String one = Files.readString(out.resolve("a/b/One.java"));
        assertTrue(one.startsWith("// Generated from Shape.template and a/b/Shape.variants"), one);
        assertTrue(one.endsWith("package a.b;\nclass One {\n    int x;\n    int load() { return x; }\n}\n"), one);
        String two = Files.readString(out.resolve("a/b/Two.java"));
        assertTrue(two.endsWith("class Two {\n    int[] a = new int[2];\n\n    int y;\n    int z;\n"
                + "    int load() { return (int) a[1]; }\n}\n"), two);
    }

    @Test
    void deletesWhatNoVariantNamesAnyMore(@TempDir Path dir) throws Throwable {
        Path templates = dir.resolve("templates");
        write(templates.resolve("p/Shape.template"), "class $class$ {}\n");
        write(templates.resolve("p/Shape.variants"), "class: Kept\n");
        Path out = dir.resolve("out");
        write(out.resolve("p/Gone.java"), "class Gone {}\n");
        generate(templates, out);
        assertTrue(Files.exists(out.resolve("p/Kept.java")));
        assertFalse(Files.exists(out.resolve("p/Gone.java")));
    }

    @Test
    void aHoleWithoutAValueFailsTheBuild(@TempDir Path dir) throws Exception {
        Path templates = dir.resolve("templates");
        write(templates.resolve("p/Shape.template"), "class $class$ { $missing$ }\n");
        write(templates.resolve("p/Shape.variants"), "class: A\n");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> generate(templates, dir.resolve("out")));
        assertTrue(e.getMessage().contains("no value for $missing$"), e.getMessage());
    }

    @Test
    void aValueNoHoleTakesFailsTheBuild(@TempDir Path dir) throws Exception {
        Path templates = dir.resolve("templates");
        write(templates.resolve("p/Shape.template"), "class $class$ {}\n");
        write(templates.resolve("p/Shape.variants"), "class: A\nlaod: x\n");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> generate(templates, dir.resolve("out")));
        assertTrue(e.getMessage().contains("no hole takes [laod]"), e.getMessage());
    }
}
