package dev.vbd.litmus.run;

import dev.vbd.Relaxed;
import dev.vbd.litmus.ConstructionGuarantee;
import dev.vbd.litmus.SameInEveryFieldMode;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.infra.TestInfo;
import org.openjdk.jcstress.infra.runners.TestList;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code vbd litmus}: runs the jcstress tests of this module under vbd (and under stock Java with
 * {@code --stock}), through the same jcstress forks, and reports per test how many samples each
 * configuration took and how many were forbidden. Exit status: 0 when vbd showed no forbidden outcome
 * and no error, 1 otherwise, 2 for bad arguments, 3 when a full run could not gather its samples.
 */
public final class Litmus {
    private Litmus() {}

    public static void main(String[] argv) {
        if (argv.length < 1) {
            System.err.println("usage: Litmus VBD_HOME [options]");
            System.exit(2);
        }
        try {
            LitmusOptions o = LitmusOptions.parse(Arrays.asList(argv).subList(1, argv.length));
            if (o.help) {
                System.out.print(LitmusOptions.usage());
                System.exit(0);
            }
            System.exit(run(Path.of(argv[0]), o));
        } catch (LitmusOptions.UsageException e) {
            System.err.println("vbd litmus: " + e.getMessage());
            System.err.print(LitmusOptions.usage());
            System.exit(2);
        } catch (IOException | RuntimeException e) {
            System.err.println("vbd litmus: " + e.getMessage());
            System.exit(1);
        } catch (InterruptedException e) {
            System.exit(130);
        }
    }

    static int run(Path home, LitmusOptions o) throws IOException, InterruptedException, LitmusOptions.UsageException {
        List<Suite.Test> tests = Suite.select(o.tests, o.safeConstruction(), o.oversubscribe);
        int leftOut = 0;
        if (o.tests == null && !o.safeConstruction() && !o.fields.equals("volatile")) {
            List<Suite.Test> differing = tests.stream().filter(t -> !Suite.sameInEveryFieldMode(t.name())).toList();
            leftOut = tests.size() - differing.size();
            tests = differing;
        }
        if (tests.isEmpty()) {
            throw new LitmusOptions.UsageException(o.tests == null ? "no test to run" : "no test matches --tests '" + o.tests + "'");
        }
        Path out = o.from != null ? o.from : o.out != null ? o.out : Files.createTempDirectory("vbd-litmus-");
        Files.createDirectories(out);
        Path harness = out.resolve("harness.relaxed");
        try (InputStream in = Litmus.class.getResourceAsStream("harness.relaxed")) {
            Files.copy(in, harness, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        long start = System.nanoTime();
        Jcstress jcstress = new Jcstress(o.java, out, o.preset, o.defaultLocking);
        Map<String, Map<String, Tally>> byConfig = new LinkedHashMap<>();
        double minutes;
        if (o.from != null) {
            for (String config : List.of("vbd", "stock")) {
                Map<String, Tally> tallies = Jcstress.readEarlier(o.from, config);
                if (!tallies.isEmpty()) byConfig.put(config, tallies);
            }
            if (!byConfig.containsKey("vbd")) throw new IOException("no results of a vbd run under " + o.from);
            minutes = Double.NaN;
        } else {
            System.err.printf("vbd litmus: %d tests, %s mode, JDK %s%s%s; reports in %s%n",
                    tests.size(), o.preset.id(), jcstress.javaVersion(), o.safeConstruction() ? ", vbd in safe construction" : "",
                    o.layout == null ? "" : ", fields laid out as " + o.layout.getFileName() + " says", out);
            if (leftOut > 0) {
                System.err.printf("vbd litmus: %d tests left out: they race only where every field mode rewrites alike "
                        + "(@SameInEveryFieldMode); --tests runs them%n", leftOut);
            }
            VbdArgs.Forks forks = VbdArgs.of(home, o.java, harness, o.agent, o.mode, o.fields, o.optimise, o.layout);
            byConfig.put("vbd", collect("vbd", forks, tests, o.preset, jcstress));
            if (o.stock) {
                byConfig.put("stock", collect("stock", new VbdArgs.Forks(o.java, List.of()), tests, o.preset, jcstress));
            }
            minutes = (System.nanoTime() - start) / 60e9;
        }

        Report report = new Report(o.preset, o.mode, jcstress.javaVersion(), tests, byConfig, minutes);
        System.out.print(report.table());
        if (o.json != null) {
            Files.createDirectories(o.json.toAbsolutePath().getParent());
            Files.writeString(o.json, report.json());
            System.err.println("vbd litmus: JSON written to " + o.json);
        }
        return report.exitStatus();
    }

    /**
     * Runs the tests in one configuration; in full mode, passes again over the tests that are still
     * short of samples.
     */
    private static Map<String, Tally> collect(String config, VbdArgs.Forks forks, List<Suite.Test> tests,
                                              Preset preset, Jcstress jcstress) throws IOException, InterruptedException {
        Map<String, Tally> tallies = new TreeMap<>();
        List<Suite.Test> todo = new ArrayList<>();
        for (Suite.Test t : tests) {
            if (t.runnable()) todo.add(t);
        }
        for (int pass = 1; !todo.isEmpty() && pass <= preset.maxPasses; pass++) {
            System.err.printf("vbd litmus: %s, pass %d: %d tests%n", config, pass, todo.size());
            // a host of its own for the oversized tests: told of more CPUs, jcstress would also run
            // the others side by side
            List<Suite.Test> fit = todo.stream().filter(t -> !t.oversubscribed()).toList();
            List<Suite.Test> over = todo.stream().filter(Suite.Test::oversubscribed).toList();
            if (!fit.isEmpty()) jcstress.run(config, pass, forks, fit, tallies, 0);
            if (!over.isEmpty()) {
                int cpus = over.stream().mapToInt(Suite.Test::actors).max().orElseThrow();
                jcstress.run(config, pass, forks, over, tallies, cpus);
            }
            List<Suite.Test> next = new ArrayList<>();
            for (Suite.Test t : todo) {
                Tally tally = tallies.get(t.name());
                boolean broken = tally == null || tally.error != null;
                if (!broken && tally.needsSamples(t.minSamples(preset))) next.add(t);
            }
            todo = next;
        }
        return tallies;
    }

    /** The tests of this module, from the list jcstress's annotation processor generated. */
    static final class Suite {
        /**
         * @param weak which weak outcomes the test declares acceptable (and interesting)
         * @param oversubscribe whether a test with more actors than CPUs runs anyway
         */
        record Test(String name, int actors, boolean termination, int cpus, Weak weak, boolean oversubscribe) {
            Test(String name, int actors, boolean termination, int cpus) {
                this(name, actors, termination, cpus, Weak.NONE, false);
            }

            String shortName() {
                return Suite.shortName(name);
            }

            boolean runnable() {
                return actors <= cpus || oversubscribe;
            }

            /** Whether its actors share CPUs. */
            boolean oversubscribed() {
                return actors > cpus && oversubscribe;
            }

            long minSamples(Preset p) {
                return termination ? p.minTerminationSamples : p.minSamples;
            }
        }

        /** A test's name without the package prefix every test of this module shares. */
        static String shortName(String name) {
            return name.startsWith("dev.vbd.litmus.") ? name.substring("dev.vbd.litmus.".length()) : name;
        }

        /** Why a test accepts an outcome that sequential consistency forbids. */
        enum Weak {
            /** It accepts none: every non-SC outcome is forbidden. */
            NONE,
            /** Its actors or fields are {@code @Relaxed}: they keep the Java Memory Model. */
            RELAXED,
            /** It shows a documented hole in vbd's guarantee, where vbd keeps the Java Memory Model. */
            HOLE,
            /**
             * Under safe construction: its forbidden outcomes are not SC, and that mode does not
             * promise SC ({@link dev.vbd.litmus.ConstructionGuarantee} marks the tests it does hold to).
             */
            NOT_PROMISED
        }

        /**
         * The tests {@code filter} matches; without one, all of them, or under safe construction
         * those it holds to and the store-buffering ones, which show that it is not SC.
         */
        static List<Test> select(java.util.regex.Pattern filter, boolean safeConstruction, boolean oversubscribe) {
            int cpus = Runtime.getRuntime().availableProcessors();
            List<Test> tests = new ArrayList<>();
            for (String name : new java.util.TreeSet<>(TestList.tests())) {
                if (filter != null && !filter.matcher(name).find()) continue;
                Class<?> c = load(name);
                boolean promised = c.isAnnotationPresent(ConstructionGuarantee.class);
                if (filter == null && safeConstruction && !promised && !name.startsWith("dev.vbd.litmus.sb.")) continue;
                TestInfo info = TestList.getInfo(name);
                Weak weak = safeConstruction && !promised ? Weak.NOT_PROMISED : weak(c);
                tests.add(new Test(name, info.threads(), isTermination(c), cpus, weak, oversubscribe));
            }
            return tests;
        }

        /**
         * Whether the test races only where every {@code --fields} mode rewrites alike: marked
         * {@link SameInEveryFieldMode}, itself or its package.
         */
        static boolean sameInEveryFieldMode(String name) {
            Class<?> c = load(name);
            return c.isAnnotationPresent(SameInEveryFieldMode.class) || c.getPackage().isAnnotationPresent(SameInEveryFieldMode.class);
        }

        private static Class<?> load(String name) {
            try {
                return Class.forName(name, false, Suite.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("test " + name + " is listed but not on the class path", e);
            }
        }

        private static boolean isTermination(Class<?> c) {
            JCStressTest a = c.getAnnotation(JCStressTest.class);
            return a != null && a.value() == Mode.Termination;
        }

        /**
         * A test that accepts a weak outcome is a relaxed one when it relaxes something of its own,
         * the class, an actor or a field; otherwise it documents a hole.
         */
        static Weak weak(Class<?> c) {
            boolean weak = Arrays.stream(c.getAnnotationsByType(Outcome.class)).anyMatch(o -> o.expect() == Expect.ACCEPTABLE_INTERESTING);
            if (!weak) return Weak.NONE;
            boolean relaxed = c.isAnnotationPresent(Relaxed.class)
                    || Arrays.stream(c.getDeclaredMethods()).anyMatch(m -> m.isAnnotationPresent(Relaxed.class))
                    || Arrays.stream(c.getDeclaredFields()).anyMatch(f -> f.isAnnotationPresent(Relaxed.class));
            return relaxed ? Weak.RELAXED : Weak.HOLE;
        }
    }
}
