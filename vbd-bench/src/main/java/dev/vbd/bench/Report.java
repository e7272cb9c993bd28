package dev.vbd.bench;

import dev.vbd.host.Stats.Estimate;
import dev.vbd.host.Stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * results.json and results.md of a run. The JSON leads with the headline (headline configuration
 * over stock at the headline thread count): {@code geomean}, {@code max} and {@code workloads}, each
 * with {@code name}, {@code ratio} and {@code ci95}; every other configuration's figures sit beside
 * them, and the raw iteration times of every invocation at the end.
 */
final class Report {
    private Report() {}

    static Map<String, Object> json(RunRecord r) {
        Map<String, Object> j = new LinkedHashMap<>();
        int t = r.options.headlineThreads();
        List<Double> headlineRatios = new ArrayList<>();
        String maxName = null;
        double max = Double.NaN;
        List<Object> workloads = new ArrayList<>();
        for (WorkloadSpec w : r.completed()) {
            Estimate ratio = r.headline == null ? null : r.analysis.ratio(w.id(), r.headline, t);
            if (ratio == null) continue;
            headlineRatios.add(ratio.value());
            if (Double.isNaN(max) || ratio.value() > max) {
                max = ratio.value();
                maxName = w.id();
            }
            workloads.add(workloadJson(r, w, ratio, t));
        }
        j.put("geomean", headlineRatios.isEmpty() ? null : Stats.geomean(headlineRatios));
        j.put("max", headlineRatios.isEmpty() ? null : max);
        j.put("max_workload", maxName);
        j.put("headline", r.headline == null ? null : r.headline.id);
        j.put("baseline", r.headline == null ? null : r.headline.baseline);
        j.put("threads", t);
        j.put("workloads", workloads);
        j.put("by_config", byConfig(r, t));
        j.put("valid", r.valid());
        j.put("validity", r.validity());
        Map<String, Object> controls = new LinkedHashMap<>();
        controls.put("negative", r.negative == null ? null : r.negative.toJson());
        controls.put("positive", r.positive == null ? null : r.positive.toJson());
        j.put("controls", controls);
        j.put("threads_sweep", threadsSweep(r));
        List<Object> failures = new ArrayList<>();
        r.failures.forEach((w, msg) -> failures.add(map("workload", w, "message", msg)));
        j.put("failures", failures);
        j.put("warnings", r.warnings);
        if (r.precision != null) j.put("precision", precisionJson(r));
        if (!r.advice.isEmpty()) j.put("advice", adviceJson(r));
        List<Object> repair = repairJson(r, t);
        if (!repair.isEmpty()) j.put("repair", repair);
        j.put("quiet_check", map("busy_before", r.busyBefore, "busy_between", r.busyBetween));
        if (r.jmh != null) j.put("jmh", Micro.json(r.jmh, r.jmhSettings));
        j.put("run", run(r));
        j.put("machine", r.machine);
        j.put("jdk", r.jdk);
        j.put("vbd", r.vbd);
        j.put("configs", configs(r));
        j.put("raw", raw(r));
        return j;
    }

    private static List<Object> adviceJson(RunRecord r) {
        List<Object> out = new ArrayList<>();
        for (Advising.Advice a : r.advice) {
            out.add(map("workload", a.workload(), "fields", a.fields(), "scope", a.scope(), "training_size", a.trainingSize(), "rules", a.rules(),
                    "advisor_s", a.seconds(), "exit_status", a.exitStatus(), "config", "advised/" + a.config().getFileName()));
        }
        return out;
    }

    private static void adviceSection(StringBuilder md, RunRecord r) {
        md.append("## Advice\n\n`bin/vbd advise` on each workload at its training size; each advised configuration ran")
                .append(" its config's first rules (`advised/WORKLOAD-N.relaxed`; advised with fenced fields:")
                .append(" `advised/WORKLOAD-fenced-N.relaxed`; a rule per class or package: `advised/WORKLOAD-fenced-classes-N.relaxed`, `-packages-N`).\n\n")
                .append("| workload | fields | a rule per | training size | rules | advisor's time | config |\n|---|---|---|---|---|---|---|\n");
        for (Advising.Advice a : r.advice) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %d | %d | %.0f s%s | [advised/%s](advised/%s) |%n", a.workload(),
                    a.fields(), a.scope(), a.trainingSize(), a.rules(), a.seconds(), a.exitStatus() == 0 ? "" : " (exit " + a.exitStatus() + ")",
                    a.config().getFileName(), a.config().getFileName()));
        }
        md.append('\n');
        if (r.advice.size() > 0 && r.options.configs.stream().filter(c -> c.relaxation == Config.Relaxation.ADVISED).count() > 1) {
            md.append("![overhead against the number of relaxed scopes](scopes.png)\n\n");
        }
    }

    private static Map<String, Object> workloadJson(RunRecord r, WorkloadSpec w, Estimate headline, int t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", w.id());
        m.put("ratio", headline.value());
        m.put("ci95", interval(headline));
        m.put("size", w.size());
        m.put("threads", t);
        Map<String, Object> scores = new LinkedHashMap<>();
        Map<String, Object> ratios = new LinkedHashMap<>();
        Map<String, Object> firsts = new LinkedHashMap<>();
        for (Config c : configsOf(r, w, t)) {
            Estimate s = r.analysis.score(w.id(), c, t);
            scores.put(c.id, map("mean_s", s.value() / 1000, "ci95_s", scaled(s, 1e-3), "invocations",
                    r.analysis.scores(w.id(), c, t).length));
            Estimate f = r.analysis.first(w.id(), c, t);
            firsts.put(c.id, map("mean_s", f.value() / 1000, "ci95_s", scaled(f, 1e-3)));
            Estimate ratio = r.analysis.ratio(w.id(), c, t);
            if (ratio != null) ratios.put(c.id, map("baseline", c.baseline, "ratio", ratio.value(), "ci95", interval(ratio)));
        }
        m.put("seconds_per_iteration", scores);
        m.put("ratios", ratios);
        m.put("first_iteration", firsts);
        return m;
    }

    /** Configurations measured for this workload at this thread count, in the run's order. */
    static List<Config> configsOf(RunRecord r, WorkloadSpec w, int t) {
        List<Config> out = new ArrayList<>();
        for (Config c : Config.values()) {
            if (r.analysis.has(w.id(), c, t)) out.add(c);
        }
        out.sort((a, b) -> Integer.compare(order(r, a), order(r, b)));
        return out;
    }

    private static int order(RunRecord r, Config c) {
        int i = r.options.configs.indexOf(c);
        return i < 0 ? 100 + c.ordinal() : i;
    }

    private static Map<String, Object> byConfig(RunRecord r, int t) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (Config c : r.compared()) {
            List<Double> ratios = new ArrayList<>();
            String maxName = null;
            double max = Double.NaN;
            for (WorkloadSpec w : r.completed()) {
                Estimate e = r.analysis.ratio(w.id(), c, t);
                if (e == null) continue;
                ratios.add(e.value());
                if (Double.isNaN(max) || e.value() > max) {
                    max = e.value();
                    maxName = w.id();
                }
            }
            Estimate g = r.analysis.geomean(c, ids(r.completed()), t);
            m.put(c.id, map("baseline", c.baseline, "geomean", ratios.isEmpty() ? null : Stats.geomean(ratios),
                    "geomean_ci95", g == null ? null : interval(g),
                    "max", ratios.isEmpty() ? null : max, "max_workload", maxName, "workloads", ratios.size()));
        }
        return m;
    }

    /** The headline configuration over its baseline at every thread count measured. */
    private static List<Object> threadsSweep(RunRecord r) {
        List<Object> out = new ArrayList<>();
        if (r.options.threads.size() < 2 || r.headline == null) return out;
        for (WorkloadSpec w : r.completed()) {
            if (!w.threaded()) continue;
            for (int t : r.options.threads) {
                Estimate e = r.analysis.ratio(w.id(), r.headline, t);
                Estimate base = r.analysis.score(w.id(), r.headline.baselineConfig(), t);
                Estimate s = r.analysis.score(w.id(), r.headline, t);
                if (e == null) continue;
                out.add(map("name", w.id(), "threads", t, "ratio", e.value(), "ci95", interval(e),
                        r.headline.baseline + "_s", base.value() / 1000, r.headline.id + "_s", s.value() / 1000));
            }
        }
        return out;
    }

    private static Map<String, Object> run(RunRecord r) {
        BenchOptions o = r.options;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mode", o.mode.name().toLowerCase(Locale.ROOT));
        m.put("date", r.date);
        m.put("wall_s", r.wallS);
        m.put("invocations", o.invocations);
        m.put("iterations", o.iterations);
        m.put("warmup", o.warmup);
        m.put("thread_counts", o.threads);
        m.put("heap", o.heap);
        m.put("gc", "G1");
        m.put("shared_flags", r.sharedFlags);
        m.put("load_average_at_end", r.loadAverageAtEnd);
        m.put("relaxed_file", r.relaxedFile == null ? null : r.relaxedName);
        m.put("relaxed_rules", r.relaxedFile == null ? null : r.relaxedRules);
        m.put("negative_control_file", r.allRelaxedFile == null ? null : r.allRelaxedFile.toString());
        m.put("score", "mean of the iterations after the warm-up ones, per invocation");
        m.put("interval", "Student-t 95% over invocation scores; ratios by Fieller's theorem");
        return m;
    }

    private static Map<String, Object> precisionJson(RunRecord r) {
        List<Object> ws = new ArrayList<>();
        for (Precision.Status s : r.precision) {
            ws.add(map("workload", s.workload(), "invocations", s.invocations(),
                    "half_width", Double.isFinite(s.halfWidth()) ? s.halfWidth() : null, "reached", s.reached(),
                    "invocations_needed", s.needed(r.options.precision)));
        }
        return map("target", r.options.precision, "max_invocations", r.options.maxInvocations, "workloads", ws);
    }

    /** A fraction as a percentage, to the precision these figures carry: 0.0512 is "5.1%". */
    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
    }

    private static Map<String, Object> configs(RunRecord r) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (Map.Entry<Config, List<String>> e : r.configFlags.entrySet()) {
            Config c = e.getKey();
            m.put(c.id, map("description", c.description, "baseline", c.baseline, "java", r.configJava.get(c), "flags", e.getValue()));
        }
        return m;
    }

    private static List<Object> raw(RunRecord r) {
        List<Object> out = new ArrayList<>();
        for (Measurement x : r.analysis.measurements()) {
            out.add(map("workload", x.workload(), "config", x.config(), "threads", x.threads(), "invocation", x.invocation(),
                    "size", x.size(), "warmup", x.warmup(), "iterations_ms", Arrays.stream(x.iterationsMs()).boxed().toList(),
                    "score_ms", x.scoreMs(), "wall_s", x.wallS(),
                    "cpu_iterations_ms", x.cpuMs() == null ? null : Arrays.stream(x.cpuMs()).boxed().toList()));
        }
        return out;
    }

    // ---------------------------------------------------------------- Markdown

    static String markdown(RunRecord r) {
        StringBuilder md = new StringBuilder();
        BenchOptions o = r.options;
        int t = o.headlineThreads();
        md.append("# vbd benchmark, ").append(r.date).append("\n\n");
        md.append(header(r)).append('\n');
        if (!o.jmhOnly) md.append("**").append(r.validity()).append("**\n\n");
        if (!r.workloads.isEmpty()) {
            md.append("## Steady state, ").append(t).append(t == 1 ? " thread" : " threads").append("\n\n");
            md.append("Seconds per iteration: mean of the invocation scores ± half the 95% interval; ratios with their "
                    + "95% interval [low, high].\n\n");
            List<Config> shown = new ArrayList<>(o.configs);
            List<Config> compared = r.compared();
            StringBuilder head = new StringBuilder("| workload | size |");
            StringBuilder rule = new StringBuilder("|---|---:|");
            for (Config c : shown) {
                head.append(' ').append(c.id).append(" |");
                rule.append("---:|");
            }
            for (Config c : compared) {
                head.append(' ').append(c.id).append(" / ").append(c.baseline).append(" |");
                rule.append("---:|");
            }
            md.append(head).append('\n').append(rule).append('\n');
            for (WorkloadSpec w : r.workloads) {
                md.append("| ").append(w.id()).append(" | ").append(w.size() == null ? "default" : String.format(Locale.ROOT, "%,d", w.size())).append(" |");
                if (r.failures.containsKey(w.id())) {
                    md.append(" FAILED: ").append(firstLine(r.failures.get(w.id()))).append(" |");
                    md.append(" |".repeat(shown.size() + compared.size() - 1)).append('\n');
                    continue;
                }
                for (Config c : shown) md.append(' ').append(seconds(r.analysis.score(w.id(), c, t))).append(" |");
                for (Config c : compared) md.append(' ').append(ratio(r.analysis.ratio(w.id(), c, t))).append(" |");
                md.append('\n');
            }
            for (String which : List.of("geometric mean", "max")) {
                md.append("| **").append(which).append("** | |").append(" |".repeat(shown.size()));
                for (Config c : compared) {
                    List<Double> xs = new ArrayList<>();
                    String arg = null;
                    double best = Double.NaN;
                    for (WorkloadSpec w : r.completed()) {
                        Estimate e = r.analysis.ratio(w.id(), c, t);
                        if (e == null) continue;
                        xs.add(e.value());
                        if (Double.isNaN(best) || e.value() > best) {
                            best = e.value();
                            arg = w.id();
                        }
                    }
                    if (xs.isEmpty()) md.append(" |");
                    else if (which.equals("max")) md.append(String.format(Locale.ROOT, " **%.2f** (%s) |", best, arg));
                    else md.append(" **").append(ratio(r.analysis.geomean(c, ids(r.completed()), t))).append("** |");
                }
                md.append('\n');
            }
            md.append('\n');
            md.append("![relative time per workload](relative-time.png)\n\n");
            repairTable(md, r, t);
            threadsTable(md, r);
            startupTable(md, r, t);
            cpuTable(md, r, t);
        }
        if (!r.advice.isEmpty()) adviceSection(md, r);
        if (!r.options.jmhOnly) controlsSection(md, r);
        if (r.jmh != null) Micro.markdown(md, r.jmh, r.jmhSettings);
        if (!r.configFlags.isEmpty()) configsSection(md, r);
        if (!r.warnings.isEmpty()) {
            md.append("## Warnings\n\n");
            for (String w : r.warnings) md.append("- ").append(w).append('\n');
            md.append('\n');
        }
        if (!r.failures.isEmpty()) {
            md.append("## Failures\n\n");
            r.failures.forEach((w, msg) -> md.append("### ").append(w).append("\n\n```\n").append(msg).append("\n```\n\n"));
        }
        return md.toString();
    }

    /** The quiet-machine check, in words: other work's share of the CPUs before the run and between invocations. */
    static String quiet(RunRecord r) {
        if (r.busyBefore == null && r.busyBetween.isEmpty()) return "";
        String s = "; other work's share of the CPUs: " + (r.busyBefore == null ? "?" : percent(r.busyBefore)) + " before the run";
        if (!r.busyBetween.isEmpty()) {
            s += ", between invocations mean " + percent(r.busyBetween.stream().mapToDouble(Double::doubleValue).average().orElse(0))
                    + ", max " + percent(r.busyBetween.stream().mapToDouble(Double::doubleValue).max().orElse(0));
        }
        return s;
    }

    private static String header(RunRecord r) {
        BenchOptions o = r.options;
        StringBuilder h = new StringBuilder();
        h.append(String.format(Locale.ROOT, "- Machine: %s, %s cores, %s GiB, %s; load average at start %s, at end %s%s%n",
                r.machine.get("cpu"), r.machine.get("cores"), r.machine.get("memory_gib"), r.machine.get("os"),
                r.machine.get("load_average_at_start"), r.loadAverageAtEnd, quiet(r)));
        h.append(String.format(Locale.ROOT, "- JDK: %s %s (%s, %s)%n", r.jdk.get("java.vendor"),
                r.jdk.get("java.runtime.version"), r.jdk.get("java.vm.name"), r.jdk.get("java.home")));
        Object commit = r.vbd.get("commit");
        h.append(String.format(Locale.ROOT, "- vbd: commit %s%s%n", commit == null ? "unknown" : commit.toString().substring(0, 12),
                Boolean.TRUE.equals(r.vbd.get("modified")) ? " with uncommitted changes" : ""));
        if (o.jmhOnly) return h.toString();
        h.append(String.format(Locale.ROOT, "- Mode %s: %s interleaved invocations per configuration x %d iterations, the first %d "
                        + "dropped; threads %s (the highest is the headline); every JVM: `%s`; wall time %s%n",
                o.mode.name().toLowerCase(Locale.ROOT), o.invocations + (o.precision != null ? " or more" : ""), o.iterations, o.warmup, o.threads,
                String.join(" ", r.sharedFlags), Progress.duration(r.wallS)));
        if (r.relaxedFile != null) {
            h.append(String.format(Locale.ROOT, "- vbd+relaxed: %d rules from `%s`%n", r.relaxedRules, r.relaxedName));
        }
        if (r.precision != null) {
            long reached = r.precision.stream().filter(Precision.Status::reached).count();
            StringBuilder per = new StringBuilder();
            for (Precision.Status s : r.precision) {
                if (per.length() > 0) per.append(", ");
                int needed = s.needed(o.precision);
                per.append(String.format(Locale.ROOT, "%s %d (%s%s)", s.workload(), s.invocations(),
                        Double.isFinite(s.halfWidth()) ? "+-" + percent(s.halfWidth()) : "unbounded",
                        needed > 0 ? "; about " + needed + " needed at this spread" : ""));
            }
            h.append(String.format(Locale.ROOT, "- Precision: invocations added round by round until each headline "
                            + "interval is within +-%s of its ratio, at most %d per configuration; reached by %d of %d "
                            + "workloads. Invocations per configuration and widest interval: %s%n",
                    percent(o.precision), o.maxInvocations, reached, r.precision.size(), per));
        }
        return h.toString();
    }

    /** The fixed variant of a workload of the false-sharing suite ({@code NAME-fixed}), where the run measured both. */
    private static List<String[]> fixedPairs(RunRecord r) {
        List<String[]> out = new ArrayList<>();
        List<String> ids = ids(r.completed());
        for (String w : ids) {
            if (ids.contains(w + FIXED)) out.add(new String[] {w, w + FIXED});
        }
        return out;
    }

    static final String FIXED = "-fixed";

    /**
     * Each workload with false sharing planted beside its fix by hand, under vbd: what the fix gains, what
     * the layout vbd layout found gains, and the layout's share of the fix's gain; only where the run had
     * both the fixed variants and the layout's configuration.
     */
    private static void repairTable(StringBuilder md, RunRecord r, int t) {
        List<String[]> pairs = fixedPairs(r);
        Config base = Config.VBD_LAYOUT.baselineConfig();
        if (pairs.isEmpty() || !r.options.configs.contains(Config.VBD_LAYOUT)) return;
        md.append("## The layout's repair against the fix by hand, ").append(t).append(t == 1 ? " thread" : " threads").append("\n\n")
                .append("Under ").append(base.id).append(": each workload, its variant fixed by hand, and the workload with the layout")
                .append(" `vbd layout` wrote for it. The repair's share of the fix's gain is (").append(base.id).append(" - ")
                .append(Config.VBD_LAYOUT.id).append(") / (").append(base.id).append(" - ").append(base.id)
                .append(", fixed), with its 95% interval by Fieller's theorem; it means something only where the fix gains beyond")
                .append(" its interval.\n\n");
        md.append("| workload | ").append(base.id).append(" | ").append(base.id).append(", fixed | ").append(Config.VBD_LAYOUT.id)
                .append(" | fixed / ").append(base.id).append(" | ").append(Config.VBD_LAYOUT.id).append(" / ").append(base.id)
                .append(" | the fix gains beyond its interval | repair's share of the fix's gain |\n|---|---:|---:|---:|---:|---:|---|---:|\n");
        for (String[] p : pairs) {
            Estimate fixed = r.analysis.across(p[1], base, p[0], base, t);
            Estimate share = r.analysis.share(p[0], p[1], Config.VBD_LAYOUT, base, t);
            md.append("| ").append(p[0]).append(" | ").append(seconds(r.analysis.score(p[0], base, t))).append(" | ")
                    .append(seconds(r.analysis.score(p[1], base, t))).append(" | ").append(seconds(r.analysis.score(p[0], Config.VBD_LAYOUT, t)))
                    .append(" | ").append(ratio(fixed)).append(" | ").append(ratio(r.analysis.ratio(p[0], Config.VBD_LAYOUT, t)))
                    .append(" | ").append(fixed == null ? "" : gains(fixed) ? "yes" : "no").append(" | ").append(percentInterval(share)).append(" |\n");
        }
        md.append('\n');
    }

    private static List<Object> repairJson(RunRecord r, int t) {
        List<Object> out = new ArrayList<>();
        Config base = Config.VBD_LAYOUT.baselineConfig();
        if (!r.options.configs.contains(Config.VBD_LAYOUT)) return out;
        for (String[] p : fixedPairs(r)) {
            Estimate fixed = r.analysis.across(p[1], base, p[0], base, t);
            Estimate share = r.analysis.share(p[0], p[1], Config.VBD_LAYOUT, base, t);
            if (fixed == null || share == null) continue;
            out.add(map("workload", p[0], "fixed", p[1], "under", base.id, "fixed_ratio", fixed.value(), "fixed_ci95", interval(fixed),
                    "fix_gains", gains(fixed), "share", share.value(), "share_ci95", interval(share)));
        }
        return out;
    }

    /** Whether a ratio's interval lies wholly below 1. */
    private static boolean gains(Estimate e) {
        return e.bounded() && e.hi() < 1;
    }

    static String percentInterval(Estimate e) {
        if (e == null) return "";
        if (!e.bounded()) return percent(e.value()) + " [no finite interval]";
        return percent(e.value()) + " [" + percent(e.lo()) + ", " + percent(e.hi()) + "]";
    }

    private static List<String> ids(List<WorkloadSpec> ws) {
        return ws.stream().map(WorkloadSpec::id).toList();
    }

    private static void threadsTable(StringBuilder md, RunRecord r) {
        if (r.options.threads.size() < 2 || r.headline == null) return;
        Config h = r.headline;
        Config b = h.baselineConfig();
        md.append("## Threads\n\n").append(h.id).append(" / ").append(b.id)
                .append(" at each thread count (workloads with threads of their own).\n\n");
        md.append("| workload | threads | ").append(b.id).append(" | ").append(h.id).append(" | ratio |\n|---|---:|---:|---:|---:|\n");
        boolean any = false;
        for (WorkloadSpec w : r.completed()) {
            if (!w.threaded()) continue;
            for (int t : r.options.threads) {
                Estimate e = r.analysis.ratio(w.id(), h, t);
                if (e == null) continue;
                any = true;
                md.append("| ").append(w.id()).append(" | ").append(t).append(" | ").append(seconds(r.analysis.score(w.id(), b, t)))
                        .append(" | ").append(seconds(r.analysis.score(w.id(), h, t))).append(" | ").append(ratio(e)).append(" |\n");
            }
        }
        md.append('\n');
        if (any) md.append("![relative time against threads](threads.png)\n\n");
    }

    /** CPU time beside wall time: a cost vbd moved to other threads (compiler, collector) shows here. */
    private static void cpuTable(StringBuilder md, RunRecord r, int t) {
        List<Config> compared = r.compared();
        boolean any = false;
        for (WorkloadSpec w : r.completed()) any |= r.analysis.cpu(w.id(), Config.STOCK, t) != null;
        if (!any) return;
        md.append("## CPU time, ").append(t).append(t == 1 ? " thread" : " threads").append("\n\n")
                .append("CPU seconds per iteration after warm-up, all the JVM's threads (mean ± half the 95% interval), and")
                .append(" each configuration's CPU time over its baseline's [95% interval].\n\n| workload |");
        for (Config c : r.options.configs) md.append(' ').append(c.id).append(" |");
        for (Config c : compared) md.append(' ').append(c.id).append(" / ").append(c.baseline).append(" |");
        md.append("\n|---|").append("---:|".repeat(r.options.configs.size() + compared.size())).append('\n');
        for (WorkloadSpec w : r.completed()) {
            md.append("| ").append(w.id()).append(" |");
            for (Config c : r.options.configs) md.append(' ').append(seconds(r.analysis.cpu(w.id(), c, t))).append(" |");
            for (Config c : compared) {
                Estimate e = r.analysis.cpuRatio(w.id(), c, t);
                md.append(' ').append(e == null ? "" : ratio(e)).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    private static void startupTable(StringBuilder md, RunRecord r, int t) {
        md.append("## Start-up: the first iteration of a fresh JVM\n\nSeconds, mean ± half the 95% interval.\n\n");
        List<Config> shown = r.options.configs;
        md.append("| workload |");
        for (Config c : shown) md.append(' ').append(c.id).append(" |");
        md.append("\n|---|").append("---:|".repeat(shown.size())).append('\n');
        for (WorkloadSpec w : r.completed()) {
            md.append("| ").append(w.id()).append(" |");
            for (Config c : shown) md.append(' ').append(seconds(r.analysis.first(w.id(), c, t))).append(" |");
            md.append('\n');
        }
        md.append('\n');
    }

    private static void controlsSection(StringBuilder md, RunRecord r) {
        md.append("## Controls\n\n");
        md.append("| control | workload | configuration | ratio [95% interval] | expected | verdict |\n|---|---|---|---:|---|---|\n");
        for (Controls.Result c : new Controls.Result[] {r.negative, r.positive}) {
            if (c == null) continue;
            md.append("| ").append(c.name()).append(" | ").append(c.workload() == null ? "" : c.workload())
                    .append(c.threads() > 1 || "negative".equals(c.name()) ? " t=" + c.threads() : "").append(" | ")
                    .append(c.config().id).append(" / ").append(c.config().baseline).append(" | ").append(ratio(c.ratio()))
                    .append(" | ").append(c.expectation()).append(" | **").append(c.verdict().name().replace('_', ' '))
                    .append("**").append(c.note() == null ? "" : " (" + c.note() + ")").append(" |\n");
        }
        if (r.negative == null && r.positive == null) md.append("| (not run: --no-controls) | | | | | |\n");
        md.append('\n');
    }

    private static void configsSection(StringBuilder md, RunRecord r) {
        md.append("## Configurations\n\n| configuration | what | JVM options besides the shared ones |\n|---|---|---|\n");
        for (Map.Entry<Config, List<String>> e : r.configFlags.entrySet()) {
            Config c = e.getKey();
            String flags = String.join(" ", c.flags);
            if (c.vbd) {
                String relaxed = switch (c.relaxation) {
                    case NONE -> "";
                    case LISTED -> " --relaxed " + (r.relaxedFile == null ? "?" : r.relaxedFile.getFileName());
                    case ALL -> " --relaxed " + (r.allRelaxedFile == null ? "?" : r.allRelaxedFile.getFileName());
                    case ADVISED -> " --relaxed advised/" + Advising.name("WORKLOAD", c) + "-" + c.advisedRules + ".relaxed";
                };
                int own = e.getValue().size() - c.flags.size();
                flags = "`bin/vbd run" + relaxed + c.vbdOptions(false).stream().map(w -> " " + w).collect(java.util.stream.Collectors.joining()) + "`: the prepared image's java" + (own == 0 ? "" : " and " + own + " option" + (own == 1 ? "" : "s"))
                        + (flags.isEmpty() ? "" : " `" + flags + "`");
            } else if (!flags.isEmpty()) {
                flags = "`" + flags + "`";
            }
            md.append("| ").append(c.id).append(" | ").append(c.description).append(" | ").append(flags).append(" |\n");
        }
        md.append('\n');
    }

    private static String firstLine(String s) {
        String line = s.lines().findFirst().orElse("");
        return line.replace("|", "\\|");
    }

    static String seconds(Estimate e) {
        if (e == null) return "";
        double half = (e.hi() - e.lo()) / 2 / 1000;
        return Double.isFinite(half)
                ? String.format(Locale.ROOT, "%.3f ± %.3f", e.value() / 1000, half)
                : String.format(Locale.ROOT, "%.3f", e.value() / 1000);
    }

    static String ratio(Estimate e) {
        if (e == null) return "";
        if (!e.bounded()) return String.format(Locale.ROOT, "%.2f [no finite interval]", e.value());
        return String.format(Locale.ROOT, "%.2f [%.2f, %.2f]", e.value(), e.lo(), e.hi());
    }

    static List<Double> interval(Estimate e) {
        return Arrays.asList(e.lo(), e.hi());
    }

    private static List<Double> scaled(Estimate e, double f) {
        return Arrays.asList(e.lo() * f, e.hi() * f);
    }

    /** A map of alternating keys and values, in order; null values kept (they are JSON nulls). */
    static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }
}
