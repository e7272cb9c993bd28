package dev.vbd.it;

import dev.vbd.it.support.Jvm;
import dev.vbd.it.support.Jvms;
import dev.vbd.it.support.OnEachJdk;
import dev.vbd.it.support.Outcome;
import dev.vbd.it.support.Programs;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Speculative fields ({@code vbd run --fields speculative}) through the real rewriter and runtime:
 * an object's owner stores on the fast path while another thread's first touch switches the
 * object's hierarchy under it, in the store-buffering shape, once per round on a hierarchy no
 * thread has touched, with the owner's store interpreted and compiled; and what a program sees of
 * the mode (no owner field, serialization as declared), and the paths that read an object without
 * the check (a clone by another thread, a clone or a VarHandle through a method handle) fencing
 * its hierarchy first.
 */
class SpeculativeFieldsTest {
    static final int INTERPRETED_ROUNDS = 1_000;
    static final int COMPILED_ROUNDS = 400;

    @OnEachJdk
    void theOwnersStoreStaysOrderedWhenAnotherThreadFirstTouches(int jdk) {
        transitions(Jvms.require(jdk), INTERPRETED_ROUNDS, false);
    }

    @OnEachJdk
    void aCompiledFastStoreStaysOrderedWhenItsHierarchyIsSwitched(int jdk) {
        transitions(Jvms.require(jdk), COMPILED_ROUNDS, true);
    }

    private static void transitions(Jvm jvm, int rounds, boolean compiled) {
        List<String> args = compiled ? List.of("transitions", String.valueOf(rounds), "compiled")
                : List.of("transitions", String.valueOf(rounds));
        Outcome o = Programs.compile("speculation").on(jvm, args.toArray(new String[0])).fields("speculative").vbd()
                .requireExit(0);
        Map<String, Long> out = parse(o.stdout());
        assertEquals("present", o.stdout().lines().filter(l -> l.startsWith("speculation ")).findFirst().orElse("")
                .substring("speculation ".length()), o::describe);
        // every round raced on a hierarchy that was fast until the other thread touched it
        assertEquals(rounds, out.get("fast-before"), o::describe);
        assertEquals(rounds, out.get("slow-after"), o::describe);
        assertEquals(0, out.get("outcome 00"), () -> "r1=0,r2=0, forbidden under SC:\n" + o.describe());
        assertEquals(rounds, out.get("outcome 01") + out.get("outcome 10") + out.get("outcome 11"), o::describe);
    }

    @OnEachJdk
    void programsSeeTheirClassesAsDeclared(int jdk) {
        Jvm jvm = Jvms.require(jdk);
        Outcome stock = Programs.compile("speculation").on(jvm, "behaviour").stock().requireExit(0);
        Outcome vbd = Programs.compile("speculation").on(jvm, "behaviour").fields("speculative").vbd().requireExit(0);
        List<String> stockLines = stock.stdout().lines().toList();
        List<String> vbdLines = vbd.stdout().lines().toList();
        assertEquals(stockLines, vbdLines.subList(0, stockLines.size()), vbd::describe);
        assertEquals(List.of("clone by its owner fast true", "clone by another thread fenced true",
                        "clone through a method handle fenced true",
                        "serialized class fenced true", "owned class fast true", "after a VarHandle fenced true 1",
                        "owner field found by name true"),
                vbdLines.subList(stockLines.size(), vbdLines.size()), vbd::describe);
    }

    private static Map<String, Long> parse(String stdout) {
        Map<String, Long> m = new HashMap<>();
        for (String line : stdout.lines().toList()) {
            int sp = line.lastIndexOf(' ');
            if (sp < 0) continue;
            try {
                m.put(line.substring(0, sp), Long.parseLong(line.substring(sp + 1)));
            } catch (NumberFormatException e) {
                // not a count
            }
        }
        for (String k : List.of("outcome 00", "outcome 01", "outcome 10", "outcome 11", "fast-before", "slow-after")) {
            assertTrue(m.containsKey(k), "no '" + k + "' in the output:\n" + stdout);
        }
        return m;
    }
}
