package dev.vbd.litmus.run;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The table, the JSON and the exit status of a litmus run. */
final class Report {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Preset preset;
    /** The mode vbd ran the tests in: sc, or safe-construction. */
    private final String vbdMode;
    private final String jdk;
    private final List<Litmus.Suite.Test> tests;
    private final Map<String, Map<String, Tally>> byConfig;
    private final double minutes;

    Report(Preset preset, String vbdMode, String jdk, List<Litmus.Suite.Test> tests, Map<String, Map<String, Tally>> byConfig,
           double minutes) {
        this.preset = preset;
        this.vbdMode = vbdMode;
        this.jdk = jdk;
        this.tests = tests;
        this.byConfig = byConfig;
        this.minutes = minutes;
    }

    private Tally tally(String config, Litmus.Suite.Test t) {
        Map<String, Tally> m = byConfig.get(config);
        if (m == null) return null;
        return m.getOrDefault(t.name(), new Tally());
    }

    private static String notRun(Litmus.Suite.Test t) {
        return t.runnable() ? null
                : "not run: " + t.actors() + " actors need " + t.actors() + " CPUs, this machine has " + t.cpus()
                  + " (--oversubscribe runs it)";
    }

    private static String oversubscribed(Litmus.Suite.Test t) {
        return t.oversubscribed() ? "oversubscribed: " + t.actors() + " actors on " + t.cpus() + " CPUs" : null;
    }

    /** Why the weak outcomes vbd showed are allowed. */
    private static String weakUnderVbd(Litmus.Suite.Test t) {
        return t.weak() == Litmus.Suite.Weak.HOLE ? "allowed: a known hole" : "allowed: relaxed";
    }

    List<String> vbdFailures() {
        List<String> bad = new ArrayList<>();
        for (Litmus.Suite.Test t : tests) {
            if (!t.runnable()) continue;
            Tally v = tally("vbd", t);
            if (v.forbidden > 0 && t.weak() != Litmus.Suite.Weak.NOT_PROMISED) {
                bad.add(t.shortName() + ": " + v.forbidden + " forbidden " + v.forbiddenOutcomes);
            }
            else if (v.error != null) bad.add(t.shortName() + ": " + v.error);
            else if (!v.ran()) bad.add(t.shortName() + ": no result");
        }
        return bad;
    }

    List<String> shortOfSamples() {
        List<String> shortOf = new ArrayList<>();
        for (String config : byConfig.keySet()) {
            for (Litmus.Suite.Test t : tests) {
                Tally x = tally(config, t);
                if (t.runnable() && x.ran() && x.needsSamples(t.minSamples(preset))) {
                    shortOf.add(t.shortName() + " (" + config + "): " + x.samples + " < " + t.minSamples(preset));
                }
            }
        }
        return shortOf;
    }

    int exitStatus() {
        if (!vbdFailures().isEmpty()) return 1;
        if (!shortOfSamples().isEmpty()) return 3;
        return 0;
    }

    String table() {
        boolean stock = byConfig.containsKey("stock");
        int width = Math.max(4, tests.stream().mapToInt(t -> t.shortName().length()).max().orElse(4));
        StringBuilder sb = new StringBuilder();
        String head = String.format(Locale.ROOT, "%-" + width + "s  %6s  %14s  %11s", "test", "actors", "vbd samples", "vbd forbid.");
        if (stock) head += String.format(Locale.ROOT, "  %14s  %13s", "stock samples", "stock forbid.");
        sb.append(head).append("  note\n");
        int stockTeeth = 0, run = 0;
        for (Litmus.Suite.Test t : tests) {
            Tally v = tally("vbd", t);
            String row = String.format(Locale.ROOT, "%-" + width + "s  %6d  %,14d  %,11d", t.shortName(), t.actors(), v.samples, v.forbidden);
            List<String> notes = new ArrayList<>();
            if (t.runnable()) run++;
            if (stock) {
                Tally s = tally("stock", t);
                row += String.format(Locale.ROOT, "  %,14d  %,13d", s.samples, s.forbidden);
                if (s.forbidden > 0) stockTeeth++;
                if (s.error != null) notes.add("stock: " + s.error);
                if (s.interesting > 0) notes.add("stock: " + String.format(Locale.ROOT, "%,d", s.interesting) + " weak (allowed)");
            }
            if (notRun(t) != null) notes.add(notRun(t));
            if (oversubscribed(t) != null) notes.add(oversubscribed(t));
            if (v.error != null) notes.add("vbd: " + v.error);
            if (v.forbidden > 0 && t.weak() == Litmus.Suite.Weak.NOT_PROMISED) {
                notes.add("vbd: " + String.format(Locale.ROOT, "%,d", v.forbidden) + " not SC (safe construction does not promise SC)");
            } else if (v.forbidden > 0) {
                notes.add("vbd FORBIDDEN " + v.forbiddenOutcomes);
            }
            if (v.interesting > 0) {
                notes.add("vbd: " + String.format(Locale.ROOT, "%,d", v.interesting) + " weak (" + weakUnderVbd(t) + ")");
            }
            sb.append(row).append("  ").append(String.join("; ", notes)).append('\n');
        }
        sb.append(String.format(Locale.ROOT, "%n%d tests (%d run here), %s mode, JDK %s%s%s%n", tests.size(), run,
                preset.id(), jdk, vbdMode.equals("sc") ? "" : ", vbd in " + vbdMode.replace('-', ' '), Double.isNaN(minutes) ? "" : String.format(Locale.ROOT, ", %.1f min", minutes)));
        List<String> bad = vbdFailures();
        sb.append(bad.isEmpty() ? "vbd: no forbidden outcome in any test\n"
                : "vbd: FAILED in " + bad.size() + " tests:\n  " + String.join("\n  ", bad) + "\n");
        if (stock) sb.append("stock: forbidden outcomes seen in ").append(stockTeeth).append(" tests\n");
        List<String> shortOf = shortOfSamples();
        if (!shortOf.isEmpty()) sb.append("short of samples:\n  ").append(String.join("\n  ", shortOf)).append('\n');
        return sb.toString();
    }

    String json() {
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("mode", preset.id());
        run.put("vbdMode", vbdMode);
        run.put("jdk", jdk);
        run.put("cpus", Runtime.getRuntime().availableProcessors());
        run.put("minutes", Double.isNaN(minutes) ? null : Math.round(minutes * 100) / 100.0);
        run.put("vbdForbidden", tests.stream().filter(Litmus.Suite.Test::runnable)
                .filter(t -> t.weak() != Litmus.Suite.Weak.NOT_PROMISED)
                .mapToLong(t -> tally("vbd", t).forbidden).sum());
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Litmus.Suite.Test t : tests) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", t.shortName());
            row.put("actors", t.actors());
            row.put("termination", t.termination());
            if (notRun(t) != null) row.put("notRun", notRun(t));
            if (t.oversubscribed()) row.put("oversubscribed", true);
            if (t.weak() != Litmus.Suite.Weak.NONE) row.put("weak", t.weak().name().toLowerCase(Locale.ROOT).replace('_', '-'));
            row.put("vbd", config(tally("vbd", t)));
            row.put("stock", byConfig.containsKey("stock") ? config(tally("stock", t)) : null);
            rows.add(row);
        }
        run.put("tests", rows);
        try {
            return JSON.writeValueAsString(run) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, Object> config(Tally t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("samples", t.samples);
        m.put("forbidden", t.forbidden);
        m.put("interesting", t.interesting);
        m.put("forks", t.forks);
        if (!t.forbiddenOutcomes.isEmpty()) m.put("forbiddenOutcomes", t.forbiddenOutcomes);
        if (t.error != null) m.put("error", t.error);
        return m;
    }
}
