package dev.vbd.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything a report of one run shows: what ran, on what, how, and what came out. */
final class RunRecord {
    BenchOptions options;
    String date;
    double wallS;
    Map<String, Object> machine = new LinkedHashMap<>();
    Map<String, Object> jdk = new LinkedHashMap<>();
    Map<String, Object> vbd = new LinkedHashMap<>();
    List<Double> loadAverageAtEnd = List.of();
    /** The share of the CPUs other work used in the moments before the first invocation and before each one since. */
    Double busyBefore;
    List<Double> busyBetween = new ArrayList<>();
    /** JVM options every workload JVM gets: heap and GC. */
    List<String> sharedFlags = List.of();
    /** Per configuration, its JVM options before the shared ones (vbd's, then the configuration's own). */
    /** The java each configuration runs: the JDK's own, or for vbd the prepared image's. */
    Map<Config, String> configJava = new LinkedHashMap<>();
    Map<Config, List<String>> configFlags = new LinkedHashMap<>();
    Path relaxedFile;
    /** How the reports name {@link #relaxedFile}: from the checkout when inside it, else by its file name alone. */
    String relaxedName;
    int relaxedRules;
    Path allRelaxedFile;
    /** What {@code bin/vbd advise} did for each workload, when an advised configuration ran. */
    List<Advising.Advice> advice = new ArrayList<>();
    /** Per advised configuration and workload ({@code config|workload}): the java and vbd's options with its config. */
    Map<String, List<String>> advisedLaunch = new LinkedHashMap<>();
    List<WorkloadSpec> workloads = new ArrayList<>();
    Config headline;
    Analysis analysis = new Analysis(List.of());
    /** Workload id to the failure that stopped it. */
    Map<String, String> failures = new LinkedHashMap<>();
    Controls.Result negative;
    Controls.Result positive;
    List<Micro.Row> jmh;
    Map<String, Object> jmhSettings;
    List<String> warnings = new ArrayList<>();
    /** With {@code --precision}: where each workload ended up; null otherwise. */
    List<Precision.Status> precision;

    /** The workloads whose headline figures exist: every invocation completed. */
    List<WorkloadSpec> completed() {
        return workloads.stream().filter(w -> !failures.containsKey(w.id())).toList();
    }

    /** Configurations of the headline thread count other than stock, in the order given. */
    List<Config> compared() {
        return options.configs.stream().filter(c -> c.baseline != null).toList();
    }

    /** Both controls ran and passed: the run's figures count. */
    boolean valid() {
        return negative != null && negative.verdict() == Controls.Verdict.PASS
                && positive != null && positive.verdict() == Controls.Verdict.PASS;
    }

    /** Why the figures count or do not, in a line. */
    String validity() {
        if (valid()) return "valid: both controls passed";
        List<String> why = new ArrayList<>();
        for (Controls.Result r : new Controls.Result[] {negative, positive}) {
            if (r == null) continue;
            if (r.verdict() == Controls.Verdict.FAIL) why.add("the " + r.name() + " control failed");
            else if (r.verdict() == Controls.Verdict.INCONCLUSIVE) why.add("the " + r.name() + " control was inconclusive");
            else if (r.verdict() == Controls.Verdict.NOT_RUN) why.add("the " + r.name() + " control did not run");
        }
        if (negative == null && positive == null) why.add("the controls did not run");
        boolean failed = (negative != null && negative.verdict() == Controls.Verdict.FAIL)
                || (positive != null && positive.verdict() == Controls.Verdict.FAIL);
        return (failed ? "NOT COUNTING: " : "unvalidated: ") + String.join(", ", why);
    }
}
