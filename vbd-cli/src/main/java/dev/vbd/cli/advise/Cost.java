package dev.vbd.cli.advise;

import dev.vbd.agent.observe.JdkClasses;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What SC costs in one method: its samples under vbd beyond those under stock Java, for the same
 * work. Only a difference larger than sampling noise counts: twice the standard deviation of a
 * difference of two Poisson counts.
 */
public record Cost(String method, long stock, long vbd, boolean program) {
    public long excess() {
        return vbd - stock;
    }

    public boolean significant() {
        return excess() > 2 * Math.sqrt(vbd + stock) && excess() >= 3;
    }

    /** Whether the observer can check it: a method of the program's, or of a JDK class it can watch. */
    public boolean observable() {
        return program || JdkClasses.watchable(method.substring(0, method.indexOf('#')));
    }

    /** The share of the run under vbd that relaxing this method could give back. */
    public double share(long vbdTotal) {
        return vbdTotal == 0 ? 0 : (double) excess() / vbdTotal;
    }

    /** Methods costlier under vbd, the costliest first. */
    public static List<Cost> of(Profile stock, Profile vbd) {
        Set<String> methods = new HashSet<>(vbd.samples.keySet());
        List<Cost> costs = new ArrayList<>();
        for (String m : methods) {
            Cost c = new Cost(m, stock.samples(m), vbd.samples(m), vbd.program.contains(m));
            if (c.significant()) costs.add(c);
        }
        costs.sort(Comparator.comparingLong(Cost::excess).reversed().thenComparing(Cost::method));
        return costs;
    }
}
