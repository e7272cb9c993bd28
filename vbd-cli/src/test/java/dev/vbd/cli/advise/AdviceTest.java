package dev.vbd.cli.advise;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The advisor's choice from costs and the observer's evidence, and the config it writes. */
class AdviceTest {
    @TempDir
    Path tmp;

    private static final String SAMPLING = "the sampler took 400 rounds a second";

    private static Map<String, Object> evidence(String method, long accesses, long confined, long ordered, String race) {
        Map<String, Object> m = new HashMap<>();
        m.put("method", method);
        m.put("accesses", accesses);
        m.put("confined", confined);
        m.put("ordered", ordered);
        m.put("race", race);
        return m;
    }

    @Test
    void theCostliestSafeMethodsWithinTheBudgetAndWhyEachOtherIsLeftOut() {
        List<Cost> costs = List.of(
                new Cost("a.Racy#hot()V", 10, 400, true),
                new Cost("a.Safe#first()V", 10, 300, true),
                new Cost("java.util.HashMap#get(Ljava/lang/Object;)Ljava/lang/Object;", 0, 250, false),
                new Cost("java.lang.Thread#run()V", 0, 240, false),
                new Cost("a.Safe#second()V", 0, 200, true),
                new Cost("a.Idle#noAccess()V", 0, 150, true),
                new Cost("a.Safe#third()V", 0, 100, true),
                new Cost("a.Late#unobserved()V", 0, 50, true));
        Map<String, Map<?, ?>> seen = new HashMap<>();
        seen.put("a.Racy#hot()V", evidence("a.Racy#hot()V", 9, 0, 0, "a.Racy.n: write ... no order"));
        seen.put("a.Safe#first()V", evidence("a.Safe#first()V", 100, 3, 1, null));
        seen.put("java.util.HashMap#get(Ljava/lang/Object;)Ljava/lang/Object;",
                evidence("java.util.HashMap#get(Ljava/lang/Object;)Ljava/lang/Object;", 40, 0, 0, "java.util.HashMap.table: ... no order"));
        seen.put("a.Safe#second()V", evidence("a.Safe#second()V", 100, 1, 0, null));
        seen.put("a.Idle#noAccess()V", evidence("a.Idle#noAccess()V", 0, 0, 0, null));
        seen.put("a.Safe#third()V", evidence("a.Safe#third()V", 5, 1, 0, null));

        Advice a = Advice.choose(costs, List.of(), seen, 2, 2000, 1500);
        assertEquals(List.of("a.Safe#first()V", "a.Safe#second()V"), a.rules.stream().map(r -> r.cost().scope()).toList());
        Map<String, String> why = new HashMap<>();
        a.leftOut.forEach(l -> why.put(l.cost().scope(), l.why()));
        assertTrue(why.get("a.Racy#hot()V").startsWith("may race: a.Racy.n"), why.toString());
        // a JDK method is observed like the program's, but for the classes the JVM and the observer run on
        assertTrue(why.get("java.util.HashMap#get(Ljava/lang/Object;)Ljava/lang/Object;").startsWith("may race: java.util.HashMap.table"),
                why.toString());
        assertTrue(why.get("java.lang.Thread#run()V").startsWith("JDK code the JVM or the observer runs on"), why.toString());
        assertTrue(why.get("a.Idle#noAccess()V").startsWith("not observed: no heap access"), why.toString());
        assertTrue(why.get("a.Safe#third()V").startsWith("past the budget of 2"), why.toString());
        assertTrue(why.get("a.Late#unobserved()V").startsWith("not observed: past the candidates"), why.toString());
        Map<String, Advice.Reason> reason = new HashMap<>();
        a.leftOut.forEach(l -> reason.put(l.cost().scope(), l.reason()));
        assertEquals(Map.of("a.Racy#hot()V", Advice.Reason.RACE,
                "java.util.HashMap#get(Ljava/lang/Object;)Ljava/lang/Object;", Advice.Reason.RACE,
                "java.lang.Thread#run()V", Advice.Reason.UNWATCHED, "a.Idle#noAccess()V", Advice.Reason.UNOBSERVED,
                "a.Safe#third()V", Advice.Reason.BUDGET, "a.Late#unobserved()V", Advice.Reason.UNOBSERVED), reason);
        // (290 + 200) of 2000 samples under vbd
        assertEquals(0.245, a.expectedGain(), 1e-9);
    }

    @Test
    void aConfigWithAJdkRuleSaysItGetsAPreparedJdkOfItsOwn() {
        String jdkMethod = "java.util.ArrayList#grow(I)[Ljava/lang/Object;";
        Map<String, Map<?, ?>> seen = Map.of(
                "a.Safe#first()V", evidence("a.Safe#first()V", 100, 3, 1, null),
                jdkMethod, evidence(jdkMethod, 10, 2, 0, null));
        List<Cost> program = List.of(new Cost("a.Safe#first()V", 10, 300, true));
        String withoutJdk = Advice.choose(program, List.of(), seen, 20, 1000, 800).config(List.of("Main"), List.of(), SAMPLING, null);
        assertFalse(withoutJdk.contains("prepared JDK"), withoutJdk);
        List<Cost> both = List.of(program.get(0), new Cost(jdkMethod, 0, 100, false));
        String withJdk = Advice.choose(both, List.of(), seen, 20, 1000, 800).config(List.of("Main"), List.of(), SAMPLING, null);
        assertTrue(withJdk.contains("method " + jdkMethod + "\n"), withJdk);
        assertTrue(withJdk.contains("# Rules in JDK classes give this config a prepared JDK of its own"), withJdk);
    }

    @Test
    void whatAJdkCandidateReachesIsReadFromTheRunTimeImage() throws Exception {
        List<String> reach = Reach.of(List.of("-cp", tmp.toString(), "Main"),
                List.of("java.util.HashMap#putVal(ILjava/lang/Object;Ljava/lang/Object;ZZ)Ljava/lang/Object;"),
                Path.of(System.getProperty("java.home")));
        assertTrue(reach.contains("field table:[Ljava/util/HashMap$Node;"), reach.toString());
        assertTrue(reach.contains("array 4"), reach.toString());
        assertFalse(reach.contains(Reach.EVERYTHING), reach.toString());
    }

    @Test
    void theConfigIsValidAndCarriesEachRulesGainAndEvidence() throws Exception {
        List<Cost> costs = List.of(new Cost("a.Safe#first()V", 10, 300, true), new Cost("a.Racy#hot()V", 0, 100, true));
        Map<String, Map<?, ?>> seen = Map.of(
                "a.Safe#first()V", evidence("a.Safe#first()V", 100, 3, 1, null),
                "a.Racy#hot()V", evidence("a.Racy#hot()V", 7, 0, 0, "a.Racy.n: no order"));
        Advice a = Advice.choose(costs, List.of(), seen, 20, 1000, 800);
        String config = a.config(List.of("-Xmx1g", "-cp", "/somewhere/app.jar", "com.example.Main", "--size", "3"), List.of(), SAMPLING, null);
        Path file = tmp.resolve("advised.relaxed");
        Files.writeString(file, config);
        var parsed = dev.vbd.core.policy.RelaxedConfig.load(file);
        assertEquals(1, parsed.size(), config);
        assertTrue(config.contains("for: com.example.Main --size 3\n"), config);
        assertTrue(config.contains("(+25.0%). The rule below\n# spent 29.0% of the run under vbd beyond stock: what relaxing it can give back.\n"),
                config);
        assertFalse(config.contains("/somewhere"), config);
        assertTrue(config.contains("# gain: 29.0% of the run under vbd (300 samples under vbd, 10 under stock)\n"
                + "# safe: 100 accesses to 4 locations: 3 confined to one thread, 1 shared and ordered\n"
                + "method a.Safe#first()V\n"), config);
        assertTrue(config.contains("#   a.Racy#hot()V (10.0% of the run): may race: a.Racy.n: no order"), config);
    }

    /** Ten methods of the program, 20 samples each under stock Java and 28 under vbd. */
    private static void spread(Profile stock, Profile vbd, java.util.function.IntFunction<String> method) {
        for (int i = 0; i < 10; i++) {
            stock.samples.put(method.apply(i), 20L);
            vbd.samples.put(method.apply(i), 28L);
            vbd.program.add(method.apply(i));
        }
    }

    /** A run at 400 rounds a second for a second: {@code swinging} samples in a.Contended, {@code steady} in a.Steady. */
    private static Profile.Run run(long swinging, long steady) {
        Map<String, Long> samples = Map.of("a.Contended#spin()V", swinging, "a.Steady#m()V", steady);
        return new Profile.Run(samples, samples.keySet(), swinging + steady, new Profile.Rounds(400, 1.0));
    }

    @Test
    void aScopeWhoseCountSwingsFromOneRunToTheNextIsNotCostlyOnItsMean() {
        // where threads contend, a run whose threads collide more spends more samples in the same code
        List<Profile> p = Profile.atOnePace(List.of(List.of(run(40, 40), run(45, 40), run(50, 40)),
                List.of(run(20, 80), run(150, 80), run(30, 80))));
        // beyond Poisson's noise (65 > 2 * sqrt(335)), within the runs' spread (2 * sqrt(3 * 5233 + 3 * 25))
        assertEquals(List.of("a.Steady#m()V"), Cost.of(p.get(0), p.get(1)).stream().map(Cost::scope).toList());
        Cost contended = new Cost("a.Contended#spin()V", 135, 200, true);
        assertTrue(contended.significant(), "on Poisson's noise alone it would be");
        assertEquals(Math.sqrt(3 * (10466.67 / 2) + 3 * 25), Cost.noise(200, 135, new long[] {20, 150, 30}, new long[] {40, 45, 50}), 0.01);
        assertEquals(List.of("a.Steady"), Cost.byClass(p.get(0), p.get(1)).stream().map(Cost::scope).toList());
        // the package's runs swing as its contended class's do: 185 beyond stock, within 2 * sqrt(3 * 5233 + 3 * 25)
        assertEquals(List.of(), Cost.byPackage(p.get(0), p.get(1)));
    }

    @Test
    void aCostSpreadOverAClassesMethodsShowsForTheClass() {
        Profile stock = new Profile();
        Profile vbd = new Profile();
        spread(stock, vbd, i -> "a.Spread#m" + i + "()V"); // each method within sampling noise
        stock.samples.put("java.util.HashMap#get(Ljava/lang/Object;)Ljava/lang/Object;", 100L);
        vbd.samples.put("java.util.HashMap#get(Ljava/lang/Object;)Ljava/lang/Object;", 160L);
        assertEquals(List.of("java.util.HashMap#get(Ljava/lang/Object;)Ljava/lang/Object;"),
                Cost.of(stock, vbd).stream().map(Cost::scope).toList());
        List<Cost> classes = Cost.byClass(stock, vbd);
        assertEquals(List.of("a.Spread", "java.util.HashMap"), classes.stream().map(Cost::scope).toList());
        assertEquals(new Cost("a.Spread", 200, 280, true), classes.get(0));
        assertFalse(classes.get(1).program());
        assertEquals("method a.Spread#*", classes.get(0).rule());
        assertEquals("method a.Safe#first()V", new Cost("a.Safe#first()V", 0, 1, true).rule());
    }

    @Test
    void aPackagesCostIsItsClassesSummedAndItsRuleEveryMethodOfThem() {
        Profile stock = new Profile();
        Profile vbd = new Profile();
        spread(stock, vbd, i -> "a.b.C" + i + "#m()V"); // each class within sampling noise
        vbd.samples.put("Top#m()V", 1L);
        assertEquals(List.of(), Cost.byClass(stock, vbd));
        List<Cost> packages = Cost.byPackage(stock, vbd);
        assertEquals(List.of(new Cost("a.b.*", 200, 280, true)), packages);
        assertTrue(packages.get(0).isPackage() && packages.get(0).wholeClasses());
        assertEquals("method a.b.*#*", packages.get(0).rule());
        assertEquals("*", Cost.packageOf("Top#m()V"));
        // a JDK package is not watched whole: the JVM and the observer run on its classes
        Cost jdk = new Cost("java.util.*", 0, 90, false);
        assertFalse(jdk.observable());
        Advice a = Advice.choose(List.of(jdk), List.of(), Map.of(), 20, 1000, 800);
        assertTrue(a.leftOut.get(0).why().startsWith("a package of the JDK's"), a.leftOut.toString());
    }

    @Test
    void aJdkPackageAtPackageScopeBringsItsCostlierWatchableClassesAsCandidatesOfTheirOwn() {
        Profile stock = new Profile();
        Profile vbd = new Profile();
        spread(stock, vbd, i -> "java.util.C" + i + "#m()V"); // the package costs, no class of it on its own
        vbd.program.clear();
        stock.samples.put("java.util.HashMap#get(Ljava/lang/Object;)Ljava/lang/Object;", 100L);
        vbd.samples.put("java.util.HashMap#get(Ljava/lang/Object;)Ljava/lang/Object;", 160L);
        stock.samples.put("java.util.concurrent.atomic.AtomicLong#get()J", 100L); // never watched
        vbd.samples.put("java.util.concurrent.atomic.AtomicLong#get()J", 160L);
        stock.samples.put("a.b.Hot#m()V", 100L); // a program package is watched whole: no class of its own
        vbd.samples.put("a.b.Hot#m()V", 160L);
        vbd.program.add("a.b.Hot#m()V");
        List<Cost> costs = Cost.byPackage(stock, vbd);
        assertEquals(List.of("java.util.*", "a.b.*", "java.util.HashMap", "java.util.concurrent.atomic.*"),
                costs.stream().map(Cost::scope).toList());
        Map<String, Map<?, ?>> evidence = Map.of(
                "a.b.*", evidence("a.b.Hot#m()V", 10, 1, 0, null),
                "java.util.HashMap", evidence("java.util.HashMap#get(Ljava/lang/Object;)Ljava/lang/Object;", 10, 1, 0, null));
        Advice a = Advice.choose(costs, List.of(), evidence, 20, 2000, 1600);
        assertEquals(List.of("method a.b.*#*", "method java.util.HashMap#*"),
                a.rules.stream().map(r -> r.cost().rule()).toList());
        assertEquals(List.of("java.util.*", "java.util.concurrent.atomic.*"),
                a.leftOut.stream().map(l -> l.cost().scope()).toList());
        assertTrue(a.leftOut.get(0).why().contains("its costlier classes are candidates of their own"), a.leftOut.toString());
        // 400 samples beyond stock in 2000: the package's 140 less its class's 60 that the rule holds
        assertEquals(Map.of("in all", 0.2, "in the rules", 0.06, "in scopes that may race", 0.0, "in JDK code not watched", 0.07,
                        "in scopes not observed", 0.0, "past the budget", 0.0,
                        "elsewhere, each scope within sampling noise (or noise itself)", 0.07),
                a.whereTheCostWent());
        String config = a.config(List.of("Main"), List.of(), SAMPLING, null);
        assertTrue(config.contains("# vbd's cost beyond stock is 20.0% of the run under vbd: 6.0% in the rules, 7.0% in JDK code not\n"
                + "# watched, 7.0% elsewhere, each scope within sampling noise (or noise itself).\n"), config);
    }

    @Test
    void aPackagesClassesAreItsOwnNotItsSubpackages() throws Exception {
        Path classes = tmp.resolve("classes");
        Files.createDirectories(classes.resolve("a/b/c"));
        Files.write(classes.resolve("a/b/C.class"), new byte[0]);
        Files.write(classes.resolve("a/b/C$In.class"), new byte[0]);
        Files.write(classes.resolve("a/b/package-info.class"), new byte[0]);
        Files.write(classes.resolve("a/b/c/D.class"), new byte[0]);
        Map<String, List<String>> m = Reach.classes(List.of("-cp", classes.toString(), "Main"), List.of("a.b.*", "a.*"),
                Path.of(System.getProperty("java.home")));
        assertEquals(List.of("a.b.C$In", "a.b.C"), m.get("a.b.*")); // by class file name
        assertEquals(List.of(), m.get("a.*"));
    }

    @Test
    void aClassIsSafeWhenEachOfItsMethodsIsAndItsRaceNamesTheMethod() {
        Map<String, Map<?, ?>> perMethod = Map.of(
                "a.C#f()V", evidence("a.C#f()V", 10, 2, 1, null),
                "a.C#g()V", evidence("a.C#g()V", 5, 1, 0, null),
                "a.D#h()V", evidence("a.D#h()V", 3, 0, 0, "a.D.n: no order"),
                "a.D#k()V", evidence("a.D#k()V", 4, 1, 0, null));
        Map<String, Object> c = Advice.combined(List.of("a.C#f()V", "a.C#g()V"), perMethod);
        assertEquals(15L, c.get("accesses"));
        assertEquals(3L, c.get("confined"));
        assertEquals(1L, c.get("ordered"));
        assertEquals(null, c.get("race"));
        assertEquals("h()V: a.D.n: no order", Advice.combined(List.of("a.D#k()V", "a.D#h()V"), perMethod).get("race"));
        assertEquals(null, Advice.combined(List.of(), perMethod));

        Map<String, Map<?, ?>> evidence = Map.of("a.C", c, "a.D", Advice.combined(List.of("a.D#k()V", "a.D#h()V"), perMethod));
        Advice a = Advice.choose(List.of(new Cost("a.D", 0, 300, true), new Cost("a.C", 10, 200, true)), List.of(), evidence, 20, 1000, 800);
        String config = a.config(List.of("Main"), List.of(), SAMPLING, null);
        assertTrue(config.contains("# safe: 15 accesses to 4 locations (per method): 3 confined to one thread, 1 shared and ordered\n"
                + "method a.C#*\n"), config);
        assertTrue(config.contains("#   a.D (30.0% of the run): may race: h()V: a.D.n: no order"), config);
    }

    @Test
    void aScopeThatMayRaceHasItsPartsJudgedOnTheirOwn() {
        Map<String, Map<?, ?>> perMethod = Map.of(
                "a.R#racy()V", evidence("a.R#racy()V", 10, 0, 0, "a.R.n: no order"),
                "a.R#fine()V", evidence("a.R#fine()V", 20, 2, 0, null),
                "a.S#m()V", evidence("a.S#m()V", 30, 3, 1, null));
        Map<String, Map<?, ?>> evidence = new HashMap<>(perMethod);
        evidence.put("a.*", Advice.combined(List.of("a.R#racy()V", "a.R#fine()V", "a.S#m()V"), perMethod));
        evidence.put("a.R", Advice.combined(List.of("a.R#racy()V", "a.R#fine()V"), perMethod));
        evidence.put("a.S", Advice.combined(List.of("a.S#m()V"), perMethod));
        List<Cost> costs = List.of(new Cost("a.*", 100, 600, true), new Cost("b.*", 0, 150, true));
        List<Cost> parts = List.of(new Cost("a.R", 50, 350, true), new Cost("a.S", 50, 200, true),
                new Cost("a.R#racy()V", 20, 200, true), new Cost("a.R#fine()V", 20, 140, true),
                new Cost("b.T", 0, 150, true), new Cost("b.T#t()V", 0, 150, true));
        evidence.put("b.*", evidence("b.T#t()V", 5, 1, 0, null));

        Advice a = Advice.choose(costs, parts, evidence, 20, 2000, 1400);
        // costliest first: the package's safe class, then the racy class's safe method
        assertEquals(List.of("method a.S#*", "method b.*#*", "method a.R#fine()V"),
                a.rules.stream().map(r -> r.cost().rule()).toList());
        assertEquals(List.of("a.*", "a.R", "a.R#racy()V"), a.leftOut.stream().map(l -> l.cost().scope()).toList());
        assertTrue(a.leftOut.get(0).why().startsWith("may race: a.R#racy()V: a.R.n: no order (its classes that cost"), a.leftOut.toString());
        assertTrue(a.leftOut.get(1).why().startsWith("may race: racy()V: a.R.n: no order (its methods that cost"), a.leftOut.toString());
        assertEquals("may race: a.R.n: no order", a.leftOut.get(2).why());
        // of 600 beyond stock in 2000: the rules' 150, 150 and 120; the racy package's 500 are its
        // classes' 150 and 300 and 50 of its own, the racy class's 300 its methods' 180 and 120
        assertEquals(Map.of("in all", 0.3, "in the rules", 0.21, "in scopes that may race", 0.115, "in JDK code not watched", 0.0,
                        "in scopes not observed", 0.0, "past the budget", 0.0,
                        "elsewhere, each scope within sampling noise (or noise itself)", -0.025),
                a.whereTheCostWent());

        // past the budget, a part waits its turn like any scope
        Advice one = Advice.choose(costs, parts, evidence, 1, 2000, 1400);
        assertEquals(List.of("method a.S#*"), one.rules.stream().map(r -> r.cost().rule()).toList());
        assertEquals(List.of("a.*", "a.R", "a.R#racy()V", "b.*", "a.R#fine()V"),
                one.leftOut.stream().map(l -> l.cost().scope()).toList());
    }

    /** The hole a wider scope widens: a method the observed run never ran is relaxed with its class. */
    @Test
    void aClassRuleCoversItsMethodsTheObservedRunNeverRan() {
        Map<String, Map<?, ?>> perMethod = Map.of(
                "a.C#ran()V", evidence("a.C#ran()V", 10, 2, 0, null),
                "a.C#neverRan()V", evidence("a.C#neverRan()V", 0, 0, 0, null));
        Map<String, Object> c = Advice.combined(List.of("a.C#ran()V", "a.C#neverRan()V"), perMethod);
        Advice a = Advice.choose(List.of(new Cost("a.C", 0, 300, true)), List.of(), Map.of("a.C", c), 20, 1000, 800);
        assertEquals(List.of("method a.C#*"), a.rules.stream().map(r -> r.cost().rule()).toList());
    }

    @Test
    void aClassesMethodsAreThoseWithCode() throws Exception {
        Map<String, List<String>> m = Reach.methods(List.of("-cp", tmp.toString(), "Main"),
                List.of("java.util.AbstractList", "no.Such"), Path.of(System.getProperty("java.home")));
        assertTrue(m.get("java.util.AbstractList").contains("java.util.AbstractList#indexOf(Ljava/lang/Object;)I"), m.toString());
        assertFalse(m.get("java.util.AbstractList").contains("java.util.AbstractList#get(I)Ljava/lang/Object;"), m.toString());
        assertEquals(List.of(), m.get("no.Such"));
    }

    @Test
    void onlyADifferenceBeyondSamplingNoiseIsACost() {
        assertFalse(new Cost("m", 100, 110, true).significant());
        assertTrue(new Cost("m", 100, 160, true).significant());
        assertFalse(new Cost("m", 0, 2, true).significant());
    }

    @Test
    void theClassPathOfAJavaCommandLine() {
        assertEquals(List.of(Path.of("a.jar"), Path.of("classes")),
                Reach.classPath(List.of("-Xmx1g", "-cp", "a.jar" + java.io.File.pathSeparator + "classes", "Main", "-cp", "x")));
        assertEquals(List.of(Path.of("app.jar")), Reach.classPath(List.of("-jar", "app.jar", "-cp", "y")));
    }
}
