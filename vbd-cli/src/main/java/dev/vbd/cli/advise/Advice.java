package dev.vbd.cli.advise;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The advisor's choice: the costliest scopes (methods, or classes) whose accesses the observed run
 * showed cannot race, at most {@code budget} of them, and why every other costly scope was left out.
 */
public final class Advice {
    /** A scope relaxed, its cost and the evidence. */
    public record Rule(Cost cost, long accesses, long confined, long ordered) {}

    /** A costly scope left out, and why: in words, and of which kind. */
    public record LeftOut(Cost cost, Reason reason, String why) {}

    /** Why a costly scope was left out. */
    public enum Reason {
        /** The observed run showed an access of it that may race. */
        RACE("in scopes that may race"),
        /** JDK code the observer does not watch, so nothing shows it cannot race. */
        UNWATCHED("in JDK code not watched"),
        /** Not among the observer's candidates, or none of its own accesses ran there. */
        UNOBSERVED("in scopes not observed"),
        BUDGET("past the budget");

        final String where;

        Reason(String where) {
            this.where = where;
        }
    }

    private static final String ELSEWHERE = "elsewhere, each scope within sampling noise (or noise itself)";

    public final List<Rule> rules = new ArrayList<>();
    public final List<LeftOut> leftOut = new ArrayList<>();
    private final long vbdTotal;
    private final long stockTotal;

    private Advice(long vbdTotal, long stockTotal) {
        this.vbdTotal = vbdTotal;
        this.stockTotal = stockTotal;
    }

    /**
     * {@code evidence}: the observer's entry per candidate scope ({@code accesses}, {@code confined},
     * {@code ordered}, {@code race}), and per part of one; a costly scope without one was not observed.
     * {@code parts}: the costly classes and methods within the candidates, each judged on its own
     * where the scope it is in may race ({@link Cost#within}).
     */
    public static Advice choose(List<Cost> costs, List<Cost> parts, Map<String, ? extends Map<?, ?>> evidence, int budget,
                                long vbdTotal, long stockTotal) {
        Advice a = new Advice(vbdTotal, stockTotal);
        List<Rule> safe = new ArrayList<>();
        a.judge(costs, parts, evidence, safe);
        safe.sort(Comparator.comparingLong((Rule r) -> r.cost().excess()).reversed().thenComparing(r -> r.cost().scope()));
        for (Rule r : safe) {
            if (a.rules.size() < budget) a.rules.add(r);
            else a.leftOut.add(new LeftOut(r.cost(), Reason.BUDGET, "past the budget of " + budget + " rules"));
        }
        return a;
    }

    /**
     * Rules out each scope that cannot be shown safe, and adds the others to {@code safe}. A scope
     * that may race has its parts judged in its place, each on its own evidence: the observed run
     * watched all of them, each as a relaxed candidate, so relaxing fewer only turns accesses SC,
     * which orders more and races nowhere the run did not show.
     */
    private void judge(List<Cost> scopes, List<Cost> parts, Map<String, ? extends Map<?, ?>> evidence, List<Rule> safe) {
        for (Cost c : scopes) {
            Map<?, ?> e = evidence.get(c.scope());
            String why;
            Reason reason;
            if (!c.observable() && c.isPackage()) {
                reason = Reason.UNWATCHED;
                why = "a package of the JDK's: not watched whole, as the JVM and the observer run on most of them (its costlier classes are candidates of their own)";
            } else if (!c.observable()) {
                reason = Reason.UNWATCHED;
                why = "JDK code the JVM or the observer runs on itself: not watched, so nothing shows it cannot race";
            } else if (e == null) {
                reason = Reason.UNOBSERVED;
                why = "not observed: past the candidates the observer was given" + (c.wholeClasses() ? ", or its class files were not found" : "");
            } else if (e.get("race") != null) {
                List<Cost> inside = parts.stream().filter(p -> p.within(c)).toList();
                leftOut.add(new LeftOut(c, Reason.RACE, "may race: " + e.get("race")
                        + (inside.isEmpty() ? "" : " (its " + (c.isPackage() ? "classes" : "methods") + " that cost beyond noise on their own are judged on their own)")));
                judge(inside, parts, evidence, safe);
                continue;
            } else if (number(e, "accesses") == 0) {
                reason = Reason.UNOBSERVED;
                why = "not observed: no heap access of its own ran in the observed run (its cost is in what it calls or makes, or it did not run there)";
            } else {
                safe.add(new Rule(c, number(e, "accesses"), number(e, "confined"), number(e, "ordered")));
                continue;
            }
            leftOut.add(new LeftOut(c, reason, why));
        }
    }

    /**
     * A scope's evidence from its methods' entries: their accesses and locations summed (a location
     * two methods touched counts for each), and the first race of any, named by its method (and its
     * class, where the methods are of several); null
     * when none of them was observed.
     */
    public static Map<String, Object> combined(List<String> methods, Map<String, ? extends Map<?, ?>> perMethod) {
        Map<String, Object> sum = null;
        boolean oneClass = methods.stream().map(Cost::classOf).distinct().count() <= 1;
        for (String m : methods) {
            Map<?, ?> e = perMethod.get(m);
            if (e == null) continue;
            if (sum == null) {
                sum = new LinkedHashMap<>();
                sum.put("accesses", 0L);
                sum.put("confined", 0L);
                sum.put("ordered", 0L);
            }
            for (String key : List.of("accesses", "confined", "ordered")) sum.put(key, (Long) sum.get(key) + number(e, key));
            if (e.get("race") != null && sum.get("race") == null) {
                sum.put("race", methods.size() == 1 ? e.get("race") : (oneClass ? m.substring(m.indexOf('#') + 1) : m) + ": " + e.get("race"));
            }
        }
        return sum;
    }

    private static long number(Map<?, ?> m, String key) {
        Object v = m.get(key);
        return v instanceof Number n ? n.longValue() : 0;
    }

    /** The share of the run under vbd that the rules' methods spent beyond stock Java. */
    public double expectedGain() {
        long sum = 0;
        for (Rule r : rules) sum += r.cost().excess();
        return vbdTotal == 0 ? 0 : (double) sum / vbdTotal;
    }

    /**
     * Where vbd's samples beyond stock Java's went, as shares of the run under vbd: all of them
     * first, then the rules', then each reason's for the scopes left out, and last what no costly
     * scope holds: spread over scopes each within sampling noise, or noise itself (the costly scopes
     * are those whose noise made them look costlier, so this can be below 0). A scope's share leaves out that
     * of the scopes within it listed on their own: a JDK package's classes that are candidates of their
     * own, the parts of a scope that may race.
     */
    public Map<String, Double> whereTheCostWent() {
        Map<String, Long> excess = new LinkedHashMap<>();
        excess.put("in all", vbdTotal - stockTotal);
        excess.put("in the rules", 0L);
        for (Reason r : Reason.values()) excess.put(r.where, 0L);
        List<Cost> listed = new ArrayList<>();
        for (Rule r : rules) listed.add(r.cost());
        for (LeftOut l : leftOut) listed.add(l.cost());
        // a scope's own share leaves out that of the scopes within it that are listed on their own
        Map<String, Long> inner = new HashMap<>();
        for (Cost c : listed) {
            for (Cost outer : listed) {
                if (c.within(outer)) inner.merge(outer.scope(), c.excess(), Long::sum);
            }
        }
        for (Rule r : rules) excess.merge("in the rules", own(r.cost(), inner), Long::sum);
        for (LeftOut l : leftOut) excess.merge(l.reason().where, own(l.cost(), inner), Long::sum);
        long placed = excess.values().stream().mapToLong(Long::longValue).sum() - excess.get("in all");
        excess.put(ELSEWHERE, vbdTotal - stockTotal - placed);
        Map<String, Double> shares = new LinkedHashMap<>();
        excess.forEach((k, v) -> shares.put(k, vbdTotal == 0 ? 0 : (double) v / vbdTotal));
        return shares;
    }

    private static long own(Cost c, Map<String, Long> inner) {
        return c.excess() - inner.getOrDefault(c.scope(), 0L);
    }

    /** {@link #whereTheCostWent} in a sentence, leaving out the reasons no scope had. */
    String whereTheCostWentInWords() {
        StringBuilder sb = new StringBuilder();
        Map<String, Double> shares = whereTheCostWent();
        shares.forEach((where, share) -> {
            if (where.equals("in all")) {
                sb.append("vbd's cost beyond stock is ").append(percent(share)).append(" of the run under vbd:");
            } else if (share != 0 || where.equals("in the rules") || where.equals(ELSEWHERE)) {
                sb.append(' ').append(percent(share)).append(' ').append(where).append(',');
            }
        });
        sb.setCharAt(sb.length() - 1, '.');
        return sb.toString();
    }

    /**
     * The relaxed config, its comments the figures and evidence behind each rule; {@code sampling}
     * says how the profiles were sampled, {@code measured} what the advice gave back on runs of its
     * own (null before they ran).
     */
    public String config(List<String> javaArgs, List<?> unobservedClasses, String sampling, Measured measured) {
        StringBuilder sb = new StringBuilder();
        sb.append("# Relaxed scopes advised by 'vbd advise' for: ").append(program(javaArgs)).append('\n');
        sb.append(String.format(Locale.ROOT, "# Profiled: %d samples under stock Java, %d under vbd (%+.1f%%). %s below%n",
                stockTotal, vbdTotal, stockTotal == 0 ? 0 : 100.0 * (vbdTotal - stockTotal) / stockTotal, rules(rules.size(), "The")));
        sb.append(String.format(Locale.ROOT, "# spent %s of the run under vbd beyond stock: what relaxing %s can give back.%n",
                percent(expectedGain()), rules.size() == 1 ? "it" : "them"));
        sb.append(wrapped(whereTheCostWentInWords()));
        sb.append(wrapped(Character.toUpperCase(sampling.charAt(0)) + sampling.substring(1) + "."));
        if (measured != null) sb.append(wrapped(measured.inWords(rules)));
        sb.append("# Safe: in an observed run of the program, every field and array element each rule's methods touched\n");
        sb.append("# stayed with one thread, or each access to it by another thread was ordered after the last write,\n");
        sb.append("# and each write after every access, by a lock, an SC access, a thread's start or join, or an\n");
        sb.append("# executor's or future's hand-off. One run shows what that run did: a path it did not take, and\n");
        sb.append("# the accesses of JDK classes other than the rules' own, are not checked.\n");
        if (rules.stream().anyMatch(r -> !r.cost().program())) {
            sb.append("# Rules in JDK classes give this config a prepared JDK of its own (the first run prepares it).\n");
        }
        if (!unobservedClasses.isEmpty()) {
            sb.append("# Classes the observer could not instrument (their accesses unseen): ").append(unobservedClasses.size()).append('\n');
        }
        for (Rule r : rules) {
            sb.append('\n');
            sb.append(String.format(Locale.ROOT, "# gain: %s of the run under vbd (%d samples under vbd, %d under stock)%n",
                    percent(r.cost().share(vbdTotal)), r.cost().vbd(), r.cost().stock()));
            sb.append(String.format(Locale.ROOT, "# safe: %d accesses to %d locations%s: %d confined to one thread, %d shared and ordered%n",
                    r.accesses(), r.confined() + r.ordered(), r.cost().wholeClasses() ? " (per method)" : "", r.confined(), r.ordered()));
            if (measured != null) sb.append("# ").append(measured.inWords(r.cost())).append('\n');
            sb.append(r.cost().rule()).append('\n');
        }
        if (!leftOut.isEmpty()) {
            sb.append("\n# Costly under vbd but not relaxed:\n");
            for (LeftOut l : leftOut) {
                sb.append(String.format(Locale.ROOT, "#   %s (%s of the run): %s%n", l.cost().scope(),
                        percent(l.cost().share(vbdTotal)), l.why()));
            }
        }
        return sb.toString();
    }

    /** What {@code vbd advise} prints when done; {@code measured} as for {@link #config}. */
    public String summary(Object out, Measured measured) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "vbd: advise: %s in %s, %s of the run under vbd to give back%n",
                rules(rules.size(), null), out, percent(expectedGain())));
        sb.append("vbd: advise: ").append(whereTheCostWentInWords()).append('\n');
        if (measured != null) sb.append("vbd: advise: ").append(measured.inWords(rules)).append('\n');
        for (LeftOut l : leftOut) {
            if (l.reason() == Reason.RACE) {
                sb.append("vbd: advise: not relaxed: ").append(l.cost().scope()).append(": ").append(l.why()).append('\n');
            }
        }
        return sb.toString();
    }

    /** The program's words of a java command line: its main class or jar, and its arguments. */
    static String program(List<String> javaArgs) {
        for (int i = 0; i < javaArgs.size(); i++) {
            String a = javaArgs.get(i);
            if (a.equals("-cp") || a.equals("-classpath") || a.equals("--class-path") || a.equals("-p")
                    || a.equals("--module-path") || a.equals("--add-opens") || a.equals("--add-exports")) {
                i++;
            } else if (a.equals("-jar")) {
                return i + 1 < javaArgs.size() ? String.join(" ", javaArgs.subList(i, javaArgs.size())).replaceFirst("^-jar \\S*/", "-jar ") : a;
            } else if (!a.startsWith("-")) {
                return String.join(" ", javaArgs.subList(i, javaArgs.size()));
            }
        }
        return "(no main class)";
    }

    /** "3 rules", "1 rule"; with {@code the}, "The 3 rules", "The rule". */
    private static String rules(int n, String the) {
        if (the == null) return n + (n == 1 ? " rule" : " rules");
        return n == 1 ? the + " rule" : the + " " + n + " rules";
    }

    /** Comment lines of at most 100 characters. */
    private static String wrapped(String text) {
        StringBuilder sb = new StringBuilder();
        StringBuilder line = new StringBuilder("#");
        for (String word : text.split(" ")) {
            if (line.length() + 1 + word.length() > 100) {
                sb.append(line).append('\n');
                line = new StringBuilder("#");
            }
            line.append(' ').append(word);
        }
        return sb.append(line).append('\n').toString();
    }

    static String percent(double f) {
        return String.format(Locale.ROOT, "%.1f%%", f * 100);
    }
}
