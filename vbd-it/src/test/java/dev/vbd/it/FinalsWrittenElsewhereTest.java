package dev.vbd.it;

import dev.vbd.it.support.Jvm;
import dev.vbd.it.support.Jvms;
import dev.vbd.it.support.OnEachJdk;
import dev.vbd.it.support.Outcome;
import dev.vbd.it.support.Program;
import dev.vbd.it.support.Programs;
import dev.vbd.it.support.Reports;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Opcodes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spin loops on final fields written where final semantics do not cover the write (program
 * {@code finals}): by a method of a class file older than 53, instance and static; by a
 * constructor into another, already shared object; after a {@code this(...)} call whose body
 * published {@code this}. Stock Java may hoist each loop (reported, not asserted); under vbd each
 * field must lose {@code final} and each loop end: with the image, with the agent, and under the
 * verifier, which must find nothing to report. One more loop reads a plain field of a superclass
 * that vbd loads itself, as the JVM links it, while it judges the final of the subclass: vbd must
 * rewrite that superclass all the same.
 */
class FinalsWrittenElsewhereTest {
    static final String WAIT_MILLIS = "3000";
    static final List<String> VARIANTS = List.of("pre53-instance", "pre53-static", "other-object", "this-call", "superclass");

    @OnEachJdk
    void everyLoopEndsUnderVbd(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        for (String variant : VARIANTS) {
            ends(program().on(jvm, variant, WAIT_MILLIS).vbd(), variant);
        }
    }

    @OnEachJdk
    void everyLoopEndsUnderVbdsAgent(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        for (String variant : VARIANTS) {
            ends(program().on(jvm, variant, WAIT_MILLIS).agent().vbd(), variant);
        }
    }

    @OnEachJdk
    void everyLoopEndsUnderTheVerifierWhichReportsNothing(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        for (String variant : VARIANTS) {
            Path json = Programs.target().resolve("finals-verify-" + jdk + "-" + variant + ".json");
            Outcome o = program().on(jvm, variant, WAIT_MILLIS).verify(json);
            ends(o, variant);
            assertTrue(o.stdout().contains("vbd verify: nonSc = 0"), o::describe);
        }
    }

    /** Stock Java's behaviour, for the report (target/finals-report.txt). */
    @OnEachJdk
    void reportStock(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        for (String variant : VARIANTS) report(program().on(jvm, variant, WAIT_MILLIS).stock(), variant);
    }

    static void ends(Outcome o, String variant) {
        report(o, variant);
        assertEquals("spin " + variant + " ended", o.requireExit(0).stdout().lines().findFirst().orElse("").strip(),
                () -> "a spin loop on a final field written outside its construction (" + variant
                        + ") did not see the write under vbd:\n" + o.describe());
    }

    static void report(Outcome o, String variant) {
        Reports.append("finals-report.txt", "while (f == 0) {} on a final field written outside its construction; "
                + "'still spinning' = " + WAIT_MILLIS + " ms after the write", String.format("%-16s %-12s %s: %s%n",
                variant, o.mode(), o.jvm(), o.stdout().lines().findFirst().orElse("").strip()));
    }

    /** The program, with the fields made final and {@code Pre53} made a class file of version 52, as a generator would emit them. */
    static Program program() {
        Program p = Programs.compile("finals");
        patch(p, "Pre53", Set.of("x", "S"), Opcodes.V1_8);
        patch(p, "Other", Set.of("x"), 0);
        patch(p, "ThisCall", Set.of("x"), 0);
        return p;
    }

    private static void patch(Program p, String name, Set<String> finals, int version) {
        Path file = p.classes().resolve(name + ".class");
        try {
            ClassReader reader = new ClassReader(Files.readAllBytes(file));
            ClassWriter writer = new ClassWriter(reader, 0);
            reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
                @Override
                public void visit(int v, int access, String n, String signature, String superName, String[] interfaces) {
                    super.visit(version == 0 ? v : version, access, n, signature, superName, interfaces);
                }

                @Override
                public FieldVisitor visitField(int access, String n, String descriptor, String signature, Object value) {
                    return super.visitField(finals.contains(n) ? access | Opcodes.ACC_FINAL : access, n, descriptor, signature, value);
                }
            }, 0);
            Files.write(file, writer.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
