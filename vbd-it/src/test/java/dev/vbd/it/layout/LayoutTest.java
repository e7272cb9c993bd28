package dev.vbd.it.layout;

import dev.vbd.core.verify.Json;
import dev.vbd.it.support.Jvms;
import dev.vbd.it.support.OnEachJdk;
import dev.vbd.it.support.Outcome;
import dev.vbd.it.support.Program;
import dev.vbd.it.support.Programs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code vbd layout} on a program with false sharing planted among decoys (the program
 * {@code falsesharing}: two fields of one object, two objects allocated one after the other,
 * neighbouring elements of an array a private field holds, two statics, and a counter both threads
 * increment, which is true sharing), then {@code vbd run --layout} with such a layout.
 */
class LayoutTest {
    private static final Set<String> PLANTED = Set.of(
            "fields Main$Pair#a Main$Pair#b",
            "neighbours Main$Counter#value Main$Counter#value",
            "elements long[]@Main$Slots.<init> long[]@Main$Slots.<init>",
            "neighbours Main$Slots#counts long[]@Main$Slots.<init>",
            "statics Main#left Main#right",
            "true-sharing Main$Shared#hits Main$Shared#hits");

    @OnEachJdk
    void plantedFalseSharingIsFoundAmongDecoysAndTrueSharingIsToldApart(int jdk) throws IOException {
        Path dir = work(jdk);
        Map<?, ?> report = findLayout(jdk, dir, "planted");
        Set<String> found = new TreeSet<>();
        for (Object f : (List<?>) ((Map<?, ?>) report.get("model")).get("findings")) {
            Map<?, ?> m = (Map<?, ?>) f;
            if (((Number) m.get("misses")).longValue() < 1000) continue;
            List<String> pair = new ArrayList<>(List.of(name(m.get("a")), name(m.get("b"))));
            pair.sort(null);
            found.add(m.get("kind") + " " + String.join(" ", pair));
        }
        // the decoys (Padded, spread, ReadMostly, each worker's own Counter) are in no finding
        assertEquals(new TreeSet<>(PLANTED), found, report.toString());
        // the Slots object's field, which the workers read beside its array's elements, is padded too
        assertEquals(Set.of("Main$Pair#a", "Main$Pair#b", "Main$Counter#value", "Main$Slots#counts"),
                Set.copyOf((List<?>) report.get("contended")));
        assertEquals(List.of("Main$Slots#counts 16"), report.get("strides"));
        Set<String> rules = new TreeSet<>();
        for (String line : Files.readAllLines(dir.resolve("planted.layout"), StandardCharsets.UTF_8)) {
            if (!line.startsWith("#")) rules.add(line);
        }
        assertEquals(Set.of("contended Main$Pair#a", "contended Main$Pair#b", "contended Main$Counter#value",
                "contended Main$Slots#counts", "stride Main$Slots#counts 16"), rules);
    }

    /**
     * The layout moves the fields it names a padded block apart, and changes nothing the program
     * computes or sees through reflection, serialization and {@code Unsafe}'s offsets.
     */
    @OnEachJdk
    void theLayoutPadsTheFieldsApartUnderVbdAndChangesNothingElse(int jdk) throws IOException {
        Path dir = work(jdk);
        Path layout = dir.resolve("given.layout");
        Files.writeString(layout, "contended Main$Pair#a\ncontended Main$Pair#b\ncontended Main$Counter#value\n"
                + "stride Main$Slots#counts 16\n");
        Program p = Programs.compile("falsesharing");
        String plainOffsets = p.on(Jvms.require(jdk), "offsets").vbd().requireExit(0).stdout();
        String laidOut = p.on(Jvms.require(jdk), "offsets").layout(layout).vbd().requireExit(0).stdout();
        assertTrue(distance(plainOffsets) < 64, plainOffsets);
        assertTrue(distance(laidOut) >= 128, laidOut);
        for (String mode : List.of("planted", "reflect")) {
            String stock = p.on(Jvms.require(jdk), mode).stock().requireExit(0).stdout();
            Outcome repaired = p.on(Jvms.require(jdk), mode).layout(layout).vbd().requireExit(0);
            assertEquals(stock, repaired.stdout(), repaired.describe());
        }
    }

    /**
     * A hole: the model sees the program's own accesses only. Two {@code AtomicLong}s allocated one
     * after the other, each incremented by its own worker, share a line that only the JDK's code
     * writes, and nothing is found.
     */
    @OnEachJdk
    void falseSharingInsideTheJdksClassesIsNotSeen(int jdk) throws IOException {
        Map<?, ?> report = findLayout(jdk, work(jdk), "atomics");
        assertEquals(List.of(), report.get("contended"), report.toString());
        for (Object f : (List<?>) ((Map<?, ?>) report.get("model")).get("findings")) {
            assertTrue(((Number) ((Map<?, ?>) f).get("misses")).longValue() < 1000, report.toString());
        }
    }

    /**
     * A hole: reflection sees a strided array whole. The program's own code sees its elements where
     * they were; a field read by reflection (or serialization, which the rule refuses for a
     * serializable class) gets the array the stride made, as many times longer.
     */
    @OnEachJdk
    void reflectionSeesAStridedArrayWhole(int jdk) throws IOException {
        Path layout = work(jdk).resolve("slots.layout");
        Files.writeString(layout, "stride Main$Slots#counts 16\n");
        Program p = Programs.compile("falsesharing");
        assertEquals("slots 0 1, length by reflection 2\n", p.on(Jvms.require(jdk), "strided").stock().requireExit(0).stdout());
        Outcome repaired = p.on(Jvms.require(jdk), "strided").layout(layout).vbd().requireExit(0);
        assertEquals("slots 0 1, length by reflection 48\n", repaired.stdout(), repaired.describe());
    }

    /** A hole: reflection on a repaired field shows the annotation that pads it. */
    @OnEachJdk
    void aRepairedFieldShowsTheJvmsAnnotationToReflection(int jdk) throws IOException {
        Path layout = work(jdk).resolve("pair.layout");
        Files.writeString(layout, "contended Main$Pair#a\n");
        Program p = Programs.compile("falsesharing");
        assertEquals("Pair.a []\n", p.on(Jvms.require(jdk), "annotations").stock().requireExit(0).stdout());
        Outcome repaired = p.on(Jvms.require(jdk), "annotations").layout(layout).vbd().requireExit(0);
        assertTrue(repaired.stdout().startsWith("Pair.a [@jdk.internal.vm.annotation.Contended("), repaired.describe());
    }

    private static Map<?, ?> findLayout(int jdk, Path dir, String mode) throws IOException {
        Program p = Programs.compile("falsesharing");
        // the program's workers meet at a barrier every 50 steps, so its misses come a few thousand a second
        Outcome o = p.on(Jvms.require(jdk), mode).findLayout(dir.resolve(mode + ".layout"), dir.resolve(mode + ".json"),
                "--min-rate", "100").requireExit(0);
        assertTrue(o.stdout().startsWith("vbd layout: "), o.describe());
        return (Map<?, ?>) Json.parse(Files.readString(dir.resolve(mode + ".json"), StandardCharsets.UTF_8));
    }

    /** A target as the assertions name it: a field by class and name, an array by type and allocating method. */
    private static String name(Object target) {
        Map<?, ?> t = (Map<?, ?>) target;
        if ("array".equals(t.get("kind"))) {
            String site = String.valueOf(t.get("site"));
            return t.get("type") + "@" + site.substring(0, site.indexOf('('));
        }
        return t.get("class") + "#" + t.get("field");
    }

    private static long distance(String offsets) {
        String line = offsets.lines().filter(l -> l.startsWith("Pair.b - Pair.a: ")).findFirst().orElseThrow();
        return Long.parseLong(line.substring("Pair.b - Pair.a: ".length()).trim());
    }

    private static Path work(int jdk) throws IOException {
        Path dir = Programs.target().resolve("it-layout").resolve(String.valueOf(jdk));
        Files.createDirectories(dir);
        return dir;
    }
}
