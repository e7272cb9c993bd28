package dev.vbd.cli.layout;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The layout a run's findings give: the fields to pad, in groups, and the arrays to stride.
 *
 * <p>Fields are grouped as Huron groups data, by who writes them: a class's padded fields share one
 * padded block ({@code @Contended} with one group name) unless the model saw two of them written by
 * different threads in one object (a finding of two fields of one object, however few its misses),
 * which must then lie apart. The sums of a per-thread object stay together on one line of the
 * thread's own, as padding by hand keeps them, rather than each on lines of its own.
 */
public final class Rules {
    /** Each field to pad, by {@code Class#field}, with its group: "" for a block of its own. */
    private final Map<String, String> contended;
    private final Set<String> strides;

    private Rules(Map<String, String> contended, Set<String> strides) {
        this.contended = contended;
        this.strides = strides;
    }

    /** The rules of {@code findings}, grouped apart where any of the model's pairs ({@code modelPairs}) is two fields of one object. */
    public static Rules of(List<Finding> findings, List<Map<?, ?>> modelPairs) {
        Set<String> fields = new LinkedHashSet<>();
        Set<String> strides = new LinkedHashSet<>();
        for (Finding f : findings) {
            fields.addAll(f.contended());
            if (f.stride() != null) strides.add(f.stride());
        }
        Set<String> apart = new HashSet<>();
        for (Map<?, ?> p : modelPairs) {
            if (!"fields".equals(p.get("kind"))) continue;
            String a = name((Map<?, ?>) p.get("a"));
            String b = name((Map<?, ?>) p.get("b"));
            apart.add(a + " " + b);
            apart.add(b + " " + a);
        }
        // first fit, class by class: each field joins the first group of its class that holds no field it must lie apart from
        Map<String, List<List<String>>> groupsByClass = new LinkedHashMap<>();
        for (String f : fields) {
            List<List<String>> groups = groupsByClass.computeIfAbsent(f.substring(0, f.indexOf('#')), k -> new ArrayList<>());
            List<String> home = null;
            for (List<String> g : groups) {
                if (g.stream().noneMatch(other -> apart.contains(f + " " + other))) {
                    home = g;
                    break;
                }
            }
            if (home == null) groups.add(home = new ArrayList<>());
            home.add(f);
        }
        Map<String, String> contended = new LinkedHashMap<>();
        for (String f : fields) contended.put(f, "");
        for (List<List<String>> groups : groupsByClass.values()) {
            int n = 0;
            for (List<String> g : groups) {
                if (g.size() < 2) continue;
                n++;
                for (String f : g) contended.put(f, "g" + n);
            }
        }
        return new Rules(contended, strides);
    }

    private static String name(Map<?, ?> t) {
        return t.get("class") + "#" + t.get("field");
    }

    /** The padded fields, by {@code Class#field}. */
    public List<String> contended() {
        return new ArrayList<>(contended.keySet());
    }

    /** Each padded field that shares its block, with its group's name. */
    public Map<String, String> groups() {
        Map<String, String> out = new LinkedHashMap<>();
        contended.forEach((f, g) -> {
            if (!g.isEmpty()) out.put(f, g);
        });
        return out;
    }

    /** The stride rules, {@code Class#field N}. */
    public List<String> strides() {
        return new ArrayList<>(strides);
    }

    public boolean isEmpty() {
        return contended.isEmpty() && strides.isEmpty();
    }

    /** The rule lines of the layout file. */
    public String lines() {
        StringBuilder sb = new StringBuilder();
        contended.forEach((f, g) -> sb.append("contended ").append(f).append(g.isEmpty() ? "" : " " + g).append('\n'));
        for (String s : strides) sb.append("stride ").append(s).append('\n');
        return sb.toString();
    }
}
