package dev.vbd.core.policy;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Scope decisions: exclusions, the built-in JDK scopes, user rules and trusted finals. */
class PolicyTest {
    private final Policy defaults = Policy.defaults();

    @Test
    void vbdsRuntimeClassesAreExcludedFromTheJdksLoadersAlone() {
        for (String name : List.of("java/util/concurrent/atomic/VbdRuntime", "jdk/internal/misc/VbdFences",
                "java/util/concurrent/atomic/VbdFieldModifiers", "jdk/internal/misc/Vbd_ImageRewriting",
                "java/lang/VbdDefineClass", "java/lang/invoke/VbdMethodHandles")) {
            assertNotNull(defaults.exclusion(name, true), name);
            assertNull(defaults.exclusion(name, false), name);
        }
        for (String name : List.of("dev/vbd/core/rewrite/ClassRewriter", "dev/vbd/agent/VbdAgent", "dev/vbd/cli/Main",
                "dev/vbd/shaded/asm/ClassReader", "dev/vbd/internal/Rewritten", "org/openjdk/jmh/infra/Blackhole",
                "dev/vbd/demo/Demo", "java/util/HashMap", "jdk/internal/misc/Unsafe", "java/util/concurrent/atomic/AtomicInteger")) {
            assertNull(defaults.exclusion(name, true), name);
            assertNull(defaults.exclusion(name, false), name);
        }
    }

    @Test
    void builtinScopesRelaxUnsafeAndVarHandleImplementations() {
        assertTrue(defaults.classRelaxed("jdk/internal/misc/Unsafe", false, false));
        // sun.misc.Unsafe delegates: its rewritten body is what indirect paths to it reach
        assertFalse(defaults.classRelaxed("sun/misc/Unsafe", false, false));
        assertTrue(defaults.classRelaxed("java/lang/invoke/VarHandle", false, false));
        assertTrue(defaults.classRelaxed("java/lang/invoke/VarHandleInts$FieldInstanceReadWrite", false, false));
        assertTrue(defaults.classRelaxed("java/lang/invoke/VarForm", false, false));
        assertFalse(defaults.classRelaxed("java/lang/invoke/MethodHandles", false, false));
        assertFalse(defaults.classRelaxed("java/util/HashMap", false, false));
    }

    @Test
    void builtinScopesRelaxTheInsidesOfBulkOperations() {
        assertTrue(defaults.methodRelaxed("java/util/Arrays", "fill", "([II)V", false, false));
        assertTrue(defaults.methodRelaxed("java/util/Arrays", "copyOf", "([II)[I", false, false));
        assertTrue(defaults.methodRelaxed("java/util/Arrays", "copyOfRange", "([III)[I", false, false));
        assertFalse(defaults.methodRelaxed("java/util/Arrays", "sort", "([I)V", false, false));
        assertEquals(0, defaults.userRules());
    }

    @Test
    void annotationsAndClassScopeRelaxMembers() {
        assertTrue(defaults.classRelaxed("p/A", true, false));
        assertTrue(defaults.classRelaxed("p/A", false, true));
        assertFalse(defaults.classRelaxed("p/A", false, false));
        assertTrue(defaults.methodRelaxed("p/A", "m", "()V", true, false));
        assertTrue(defaults.methodRelaxed("p/A", "m", "()V", false, true));
        assertFalse(defaults.methodRelaxed("p/A", "m", "()V", false, false));
        assertTrue(defaults.fieldRelaxed("p/A", "f", true, false, false));
        assertTrue(defaults.fieldRelaxed("p/A", "f", false, true, false));
        assertTrue(defaults.fieldRelaxed("p/A", "f", false, false, true), "@Stable fields keep their semantics");
        assertFalse(defaults.fieldRelaxed("p/A", "f", false, false, false));
    }

    @Test
    void userRulesUseDottedNamesAndInternalNamesAreTranslated() throws Exception {
        Policy p = new Policy(RelaxedConfig.parse("user.relaxed", List.of(
                "class com.x.Kernel", "method com.x.Vec#dot", "field com.x.Stats#hits", "package com.gen.**",
                "class com.x.Outer$Inner")));
        assertEquals(5, p.userRules());
        assertTrue(p.classRelaxed("com/x/Kernel", false, false));
        assertTrue(p.classRelaxed("com/x/Outer$Inner", false, false));
        assertFalse(p.classRelaxed("com/x/Outer", false, false));
        assertTrue(p.classRelaxed("com/gen/Parser", false, false));
        assertTrue(p.classRelaxed("com/gen/ast/Node", false, false));
        assertTrue(p.methodRelaxed("com/x/Vec", "dot", "([D[D)D", false, false));
        assertFalse(p.methodRelaxed("com/x/Vec", "norm", "()D", false, false));
        assertTrue(p.fieldRelaxed("com/x/Stats", "hits", false, false, false));
        assertFalse(p.fieldRelaxed("com/x/Stats", "misses", false, false, false));
        assertTrue(p.classRelaxed("jdk/internal/misc/Unsafe", false, false), "built-in scopes still apply");
    }

    @Test
    void trustedFinals() {
        // records get the constructor analysis like any class: a leaking canonical constructor is a hole otherwise
        assertFalse(defaults.trustedFinal("p/Point"), "records");
        assertTrue(defaults.trustedFinal("java/lang/invoke/MethodType"));
        assertTrue(defaults.trustedFinal("jdk/internal/foreign/MemorySessionImpl"));
        assertFalse(defaults.trustedFinal("java/util/HashMap"));
        assertFalse(defaults.trustedFinal("java/lang/invokeX/A"));
    }
}
