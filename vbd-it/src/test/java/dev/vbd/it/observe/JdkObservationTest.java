package dev.vbd.it.observe;

import dev.vbd.core.verify.Json;
import dev.vbd.host.Trees;
import dev.vbd.it.support.Jvms;
import dev.vbd.it.support.OnEachJdk;
import dev.vbd.it.support.Outcome;
import dev.vbd.it.support.Program;
import dev.vbd.it.support.Programs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The observer watching JDK classes that hold a candidate, on a stock JDK as {@code vbd advise}
 * starts it: the JDK's collections, already loaded when the agent starts, are retransformed; what
 * two threads do through them is a race, or ordered, or confined, as the program made it.
 */
class JdkObservationTest {
    private static final String PUT_VAL = "java.util.HashMap#putVal(ILjava/lang/Object;Ljava/lang/Object;ZZ)Ljava/lang/Object;";
    private static final String ELEMENT = "java.util.ArrayList#elementData(I)Ljava/lang/Object;";

    @OnEachJdk
    void twoThreadsPuttingIntoOneMapWithoutALockRaceInsideTheMap(int jdk) throws IOException {
        Map<?, ?> putVal = observe(jdk, "shared", PUT_VAL).get(PUT_VAL);
        String race = (String) putVal.get("race");
        assertNotNull(race, putVal.toString());
        assertTrue(race.startsWith("java.util.HashMap."), race);
        assertTrue(race.contains("worker-0") && race.contains("worker-1"), race);
    }

    @OnEachJdk
    void putsUnderTheMapsMonitorAreOrdered(int jdk) throws IOException {
        Map<?, ?> putVal = observe(jdk, "locked", PUT_VAL).get(PUT_VAL);
        assertNull(putVal.get("race"), putVal.toString());
        assertTrue(number(putVal, "ordered") > 0, putVal.toString());
    }

    @OnEachJdk
    void aMapEachThreadMakesForItselfIsConfined(int jdk) throws IOException {
        Map<?, ?> putVal = observe(jdk, "confined", PUT_VAL).get(PUT_VAL);
        assertNull(putVal.get("race"), putVal.toString());
        assertTrue(number(putVal, "accesses") > 2 * 2_000, putVal.toString());
        assertTrue(number(putVal, "confined") > 0, putVal.toString());
    }

    /**
     * A hole: the observer watches the candidates' own classes of the JDK, not the rest of it.
     * {@code ArrayList.sort} writes the list's elements in {@code java.util.Arrays}, whose accesses
     * are not seen, so the race with the other thread's {@code get} is not either.
     */
    @OnEachJdk
    void aRaceThroughAnotherJdkClassIsNotSeen(int jdk) throws IOException {
        Map<?, ?> element = observe(jdk, "sorted", ELEMENT).get(ELEMENT);
        assertTrue(number(element, "accesses") >= 2_000, element.toString());
        assertNull(element.get("race"), element.toString());
    }

    private static final String READ = "Main$Table#read()I";

    /** A thread the JDK's executor starts is ordered after what its starter did before: Thread.start itself is watched. */
    @OnEachJdk
    void whatAThreadDidBeforeAnExecutorStartedItsWorkerIsOrdered(int jdk) throws IOException {
        assertOrdered(observeProgram(jdk, "poolstart", "fresh", READ).get(READ));
    }

    /** A task that reaches a worker started before, through the pool's queue, is ordered after its submission. */
    @OnEachJdk
    void aTaskHandedToAWorkerThroughAnExecutorsQueueIsOrdered(int jdk) throws IOException {
        assertOrdered(observeProgram(jdk, "poolstart", "prestarted", READ).get(READ));
    }

    /** What a task built and returned is ordered before what follows the future's get(). */
    @OnEachJdk
    void whatATaskReturnedThroughItsFutureIsOrderedBeforeTheGetter(int jdk) throws IOException {
        assertOrdered(observeProgram(jdk, "poolstart", "returned", READ).get(READ));
    }

    /**
     * A hole, on the safe side: an object handed over through a concurrent collection (here a
     * {@code LinkedBlockingQueue}, whose locks are taken in JDK code the observer does not watch) is
     * not seen as ordered, though the collection orders it.
     */
    @OnEachJdk
    void aHandOffThroughAConcurrentCollectionIsNotSeen(int jdk) throws IOException {
        assertUnorderedHandOff(observeProgram(jdk, "poolstart", "queued", READ).get(READ));
    }

    /**
     * The same through an {@code AtomicReference} the reader spins on: each call on it is an SC
     * access, recorded with the operation under one lock, so the get that saw the table is ordered
     * after the set.
     */
    @OnEachJdk
    void aHandOffThroughAnAtomicReferenceIsOrdered(int jdk) throws IOException {
        assertOrdered(observeProgram(jdk, "poolstart", "atomic", READ).get(READ));
    }

    private static void assertUnorderedHandOff(Map<?, ?> read) {
        String race = (String) read.get("race");
        assertNotNull(race, read.toString());
        assertTrue(race.startsWith("Main$Table.cells: write of Main$Table.cells at Main$Table.<init>"), race);
    }

    private static void assertOrdered(Map<?, ?> read) {
        assertNull(read.get("race"), read.toString());
        assertTrue(number(read, "ordered") > 0, read.toString());
    }

    /** The observer's entries by candidate, from a run of the program under it. */
    private static Map<String, Map<?, ?>> observe(int jdk, String mode, String... candidates) throws IOException {
        return observeProgram(jdk, "jdkrace", mode, candidates);
    }

    private static Map<String, Map<?, ?>> observeProgram(int jdk, String programName, String mode, String... candidates)
            throws IOException {
        Path dir = Programs.target().resolve("it-observe").resolve(jdk + "-" + mode);
        Trees.delete(dir);
        Files.createDirectories(dir);
        Files.write(dir.resolve("candidates.txt"), List.of(candidates), StandardCharsets.UTF_8);
        Path jar = Programs.home().resolve("vbd-cli/target/vbd.jar");
        Program program = Programs.compile(programName);
        Outcome o = program.on(Jvms.require(jdk), mode)
                .jvmOptions("-Xbootclasspath/a:" + jar, "-javaagent:" + jar + "=observe=" + dir)
                .stock().requireExit(0);
        assertEquals(mode + " done\n", o.stdout(), o.describe());
        Map<?, ?> report = (Map<?, ?>) Json.parse(Files.readString(dir.resolve("observed.json"), StandardCharsets.UTF_8));
        assertEquals(List.of(), report.get("unobserved"), o.describe());
        Map<String, Map<?, ?>> byMethod = new java.util.HashMap<>();
        for (Object e : (List<?>) report.get("candidates")) byMethod.put((String) ((Map<?, ?>) e).get("method"), (Map<?, ?>) e);
        return byMethod;
    }

    private static long number(Map<?, ?> m, String key) {
        return ((Number) m.get(key)).longValue();
    }
}
