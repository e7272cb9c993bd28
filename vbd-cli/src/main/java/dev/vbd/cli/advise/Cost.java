package dev.vbd.cli.advise;

import dev.vbd.agent.observe.JdkClasses;
import dev.vbd.host.Stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What SC costs in one scope: its samples under vbd beyond those under stock Java, for the same
 * work. Only a difference larger than its noise counts: twice its standard deviation ({@link #noise(long, long, long[], long[])}).
 *
 * @param scope a method ({@code owner#name(descriptor)}, owner dotted), a class (its dotted name) or a
 *              package ({@code a.b.*}), as {@link #rule()} relaxes it
 * @param noise the standard deviation of {@link #excess()}
 */
public record Cost(String scope, long stock, long vbd, boolean program, double noise) {
    /** A cost whose noise is sampling's alone. */
    public Cost(String scope, long stock, long vbd, boolean program) {
        this(scope, stock, vbd, program, Math.sqrt(stock + vbd));
    }

    public long excess() {
        return vbd - stock;
    }

    public boolean significant() {
        return excess() > 2 * noise && excess() >= 3;
    }

    /**
     * The standard deviation of a difference of two scopes' samples, each the sum of some runs' (their
     * counts per run given, where known): a Poisson count's, or, where the runs' counts vary more from
     * one run to the next, that of their spread (the runs' number times their variance). Where threads
     * contend, a run whose threads collide more spends more samples in the same code: such a scope's
     * counts vary beyond Poisson's, and only runs apart show it.
     */
    public static double noise(long a, long b, long[] aRuns, long[] bRuns) {
        return Math.sqrt(Math.max(a + b, spread(aRuns) + spread(bRuns)));
    }

    private static double spread(long[] runs) {
        if (runs.length < 2) return 0;
        return runs.length * Stats.variance(Arrays.stream(runs).asDoubleStream().toArray());
    }

    /** Whether this scope is every method of a class or of a package's classes. */
    public boolean wholeClasses() {
        return scope.indexOf('#') < 0;
    }

    /** Whether this scope is a package's classes (not its sub-packages'). */
    public boolean isPackage() {
        return scope.endsWith("*");
    }

    /**
     * Whether the observer can check it: the program's, or a JDK method or class it can watch. Not a
     * JDK package: the JVM, and the observer itself, run on the classes of most of them.
     */
    public boolean observable() {
        if (program) return true;
        if (isPackage()) return false;
        return JdkClasses.watchable(wholeClasses() ? scope : classOf(scope));
    }

    /** Whether this scope is directly within {@code outer}: a class within its package, a method within its class. */
    public boolean within(Cost outer) {
        if (!outer.wholeClasses()) return false;
        if (isPackage()) return false;
        if (wholeClasses()) return outer.isPackage() && packageOfClass(scope).equals(outer.scope());
        return !outer.isPackage() && classOf(scope).equals(outer.scope());
    }

    /** Whether a method ({@code owner#name(descriptor)}, owner dotted) is one this scope relaxes. */
    public boolean covers(String method) {
        if (isPackage()) return packageOf(method).equals(scope);
        if (wholeClasses()) return classOf(method).equals(scope);
        return scope.equals(method);
    }

    /** The relaxed config's line for it: a class's methods, not its fields, which code elsewhere reaches too. */
    public String rule() {
        return "method " + (wholeClasses() ? scope + "#*" : scope);
    }

    /** The share of the run under vbd that relaxing this scope could give back. */
    public double share(long vbdTotal) {
        return vbdTotal == 0 ? 0 : (double) excess() / vbdTotal;
    }

    /** Methods costlier under vbd, the costliest first. */
    public static List<Cost> of(Profile stock, Profile vbd) {
        return significant(stock.samples, vbd.samples, stock.perRun, vbd.perRun, vbd.program::contains);
    }

    /**
     * Classes costlier under vbd, the costliest first: each one's methods' samples summed, so that a
     * cost spread over many methods, each within sampling noise, still shows.
     */
    public static List<Cost> byClass(Profile stock, Profile vbd) {
        Set<String> programClasses = new HashSet<>();
        for (String m : vbd.program) programClasses.add(classOf(m));
        return significant(perClass(stock.samples), perClass(vbd.samples), stock.perRun.stream().map(Cost::perClass).toList(),
                vbd.perRun.stream().map(Cost::perClass).toList(), programClasses::contains);
    }

    /**
     * Packages costlier under vbd, the costliest first, each one's classes' samples summed; with each
     * of the JDK's, which is not watched whole ({@link #observable}), its costlier classes that can be.
     */
    public static List<Cost> byPackage(Profile stock, Profile vbd) {
        Set<String> programPackages = new HashSet<>();
        for (String m : vbd.program) programPackages.add(packageOf(m));
        List<Cost> costs = significant(perPackage(stock.samples), perPackage(vbd.samples), stock.perRun.stream().map(Cost::perPackage).toList(),
                vbd.perRun.stream().map(Cost::perPackage).toList(), programPackages::contains);
        Set<String> jdkPackages = new HashSet<>();
        for (Cost c : costs) if (!c.program()) jdkPackages.add(c.scope());
        for (Cost c : byClass(stock, vbd)) {
            if (!c.program() && c.observable() && jdkPackages.contains(packageOfClass(c.scope()))) costs.add(c);
        }
        costs.sort(COSTLIEST_FIRST);
        return costs;
    }

    /** A method's class, as it is named ({@code owner#name(descriptor)}, owner dotted). */
    public static String classOf(String method) {
        return method.substring(0, method.indexOf('#'));
    }

    /** A method's package as its scope: {@code a.b.*}, or {@code *} for the unnamed package. */
    static String packageOf(String method) {
        return packageOfClass(classOf(method));
    }

    static String packageOfClass(String owner) {
        int dot = owner.lastIndexOf('.');
        return dot < 0 ? "*" : owner.substring(0, dot) + ".*";
    }

    private static Map<String, Long> perClass(Map<String, Long> perMethod) {
        Map<String, Long> perClass = new HashMap<>();
        perMethod.forEach((m, n) -> perClass.merge(classOf(m), n, Long::sum));
        return perClass;
    }

    private static Map<String, Long> perPackage(Map<String, Long> perMethod) {
        Map<String, Long> perPackage = new HashMap<>();
        perMethod.forEach((m, n) -> perPackage.merge(packageOf(m), n, Long::sum));
        return perPackage;
    }

    /** {@code stockRuns}, {@code vbdRuns}: each run's counts, where the profiles kept them. */
    private static List<Cost> significant(Map<String, Long> stock, Map<String, Long> vbd, List<Map<String, Long>> stockRuns,
                                          List<Map<String, Long>> vbdRuns, Predicate<String> program) {
        List<Cost> costs = new ArrayList<>();
        for (String s : vbd.keySet()) {
            long st = stock.getOrDefault(s, 0L), v = vbd.get(s);
            double noise = noise(v, st, count(vbdRuns, s), count(stockRuns, s));
            Cost c = new Cost(s, st, v, program.test(s), noise);
            if (c.significant()) costs.add(c);
        }
        costs.sort(COSTLIEST_FIRST);
        return costs;
    }

    private static long[] count(List<Map<String, Long>> runs, String scope) {
        return runs.stream().mapToLong(r -> r.getOrDefault(scope, 0L)).toArray();
    }

    private static final Comparator<Cost> COSTLIEST_FIRST = Comparator.comparingLong(Cost::excess).reversed()
            .thenComparing(Cost::scope);
}
