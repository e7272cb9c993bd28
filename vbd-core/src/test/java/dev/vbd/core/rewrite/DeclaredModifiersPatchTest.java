package dev.vbd.core.rewrite;

import dev.vbd.core.ClassBytesSource;
import dev.vbd.core.policy.Policy;
import dev.vbd.host.Jdks;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The JDK methods that report a field's modifiers to programs, patched when the JDK is prepared
 * (and only then), shown before and after on the real classes of each installed JDK.
 */
class DeclaredModifiersPatchTest {
    private static final String DECLARED = "java/util/concurrent/atomic/VbdFieldModifiers";
    private static final String ADJUST_DESC = " (ILjava/lang/Class;Ljava/lang/String;)I";

    static Stream<String> jdks() {
        return Jdks.forTests().stream().map(j -> j.home().toString());
    }

    /** The java.base classes of the JDK at {@code home}, read through its own jrt file system. */
    private static final class JavaBase implements ClassBytesSource, AutoCloseable {
        private final FileSystem jrt;

        JavaBase(String home) throws IOException {
            jrt = FileSystems.newFileSystem(URI.create("jrt:/"), Map.of("java.home", home));
        }

        @Override
        public byte[] find(String internalName) {
            try {
                return Files.readAllBytes(jrt.getPath("/modules/java.base", internalName + ".class"));
            } catch (IOException e) {
                return null;
            }
        }

        @Override
        public void close() throws IOException {
            jrt.close();
        }
    }

    private static List<String> adjusted(String owner, String flagsField, String adjust) {
        return List.of("ALOAD 0", "GETFIELD " + owner + "." + flagsField + " : I",
                "ALOAD 0", "GETFIELD " + owner + ".clazz : Ljava/lang/Class;",
                "ALOAD 0", "GETFIELD " + owner + ".name : Ljava/lang/String;",
                "INVOKESTATIC " + DECLARED + "." + adjust + ADJUST_DESC);
    }

    private static List<String> concat(List<String> a, String... b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(List.of(b));
        return all;
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void fieldGetModifiersReportsTheDeclaredModifiers(String home) throws IOException {
        try (JavaBase base = new JavaBase(home)) {
            byte[] before = base.find("java/lang/reflect/Field");
            byte[] after = Bytecode.rewritten(ClassRewriter.forJdk(Policy.defaults(), base),
                    Map.of("java/lang/reflect/Field", before), "java/lang/reflect/Field");
            assertEquals(List.of("ALOAD 0", "GETFIELD java/lang/reflect/Field.modifiers : I", "IRETURN"),
                    Bytecode.of(before, "getModifiers()I"));
            assertEquals(concat(adjusted("java/lang/reflect/Field", "modifiers", "field"), "IRETURN"),
                    Bytecode.of(after, "getModifiers()I"));
            assertEquals(Bytecode.method(before, "getModifiers()I").maxStack + 2,
                    Bytecode.method(after, "getModifiers()I").maxStack);
            // the rest of Field, its accessors above all, reads the JVM's flags
            assertEquals(callsToDeclared(before), callsToDeclared(after) - 1);
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void memberNameReportsDeclaredFinalityAndTheVolatilityOfAnAccess(String home) throws IOException {
        try (JavaBase base = new JavaBase(home)) {
            String name = "java/lang/invoke/MemberName";
            byte[] before = base.find(name);
            byte[] after = Bytecode.rewritten(ClassRewriter.forJdk(Policy.defaults(), base), Map.of(name, before), name);
            assertEquals(List.of("ALOAD 0", "GETFIELD " + name + ".flags : I",
                    "INVOKESTATIC java/lang/reflect/Modifier.isFinal (I)Z", "IRETURN"), Bytecode.of(before, "isFinal()Z"));
            assertEquals(concat(adjusted(name, "flags", "member"),
                    "INVOKESTATIC java/lang/reflect/Modifier.isFinal (I)Z", "IRETURN"), Bytecode.of(after, "isFinal()Z"));
            assertEquals(List.of("ALOAD 0", "GETFIELD " + name + ".flags : I", "LDC 65535", "IAND", "IRETURN"),
                    Bytecode.of(before, "getModifiers()I"));
            assertEquals(concat(adjusted(name, "flags", "member"), "LDC 65535", "IAND", "IRETURN"),
                    Bytecode.of(after, "getModifiers()I"));
            // method handles pick their access mode from isVolatile(): a fenced field counts as volatile
            assertEquals(List.of("ALOAD 0", "GETFIELD " + name + ".flags : I",
                    "INVOKESTATIC java/lang/reflect/Modifier.isVolatile (I)Z", "IRETURN"), Bytecode.of(before, "isVolatile()Z"));
            assertEquals(concat(adjusted(name, "flags", "access"),
                    "INVOKESTATIC java/lang/reflect/Modifier.isVolatile (I)Z", "IRETURN"), Bytecode.of(after, "isVolatile()Z"));
            assertEquals(3, callsToDeclared(after));
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void theAgentsRewriterLeavesTheJdkMethodsAlone(String home) throws IOException {
        try (JavaBase base = new JavaBase(home)) {
            for (String name : List.of("java/lang/reflect/Field", "java/lang/invoke/MemberName")) {
                byte[] after = Bytecode.rewritten(new ClassRewriter(Policy.defaults(), base), Map.of(name, base.find(name)), name);
                assertEquals(0, callsToDeclared(after), name);
            }
        }
    }

    private static long callsToDeclared(byte[] classBytes) {
        return Bytecode.node(classBytes).methods.stream()
                .flatMap(m -> Stream.of(m.instructions.toArray()))
                .filter(i -> i instanceof org.objectweb.asm.tree.MethodInsnNode mi && mi.owner.equals(DECLARED))
                .count();
    }
}
