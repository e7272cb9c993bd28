package dev.vbd.cli.advise;

import dev.vbd.host.Stats.Estimate;
import dev.vbd.host.Stats;

import java.util.List;
import java.util.Locale;

/**
 * What the advice gives back, measured on runs the rules were not chosen on: runs under vbd and
 * under vbd with the advice, alternating, each profiled as the advisor's own runs are. The rules are
 * the scopes whose samples came out highest in the advisor's profiles, so noise that raised a scope
 * there raised its expected gain with it; runs that took no part in the choice carry no such bias.
 */
public final class Measured {
    private final Profile vbd;
    private final Profile advised;
    private final Estimate ratio;
    private final int runs;

    private Measured(Profile vbd, Profile advised, Estimate ratio, int runs) {
        this.vbd = vbd;
        this.advised = advised;
        this.ratio = ratio;
        this.runs = runs;
    }

    /**
     * {@code vbdRuns} and {@code advisedRuns}: a profile of each run, all at one pace, so that a
     * run's samples stand for its time in Java code.
     */
    public static Measured of(List<Profile> vbdRuns, List<Profile> advisedRuns) {
        double[] v = vbdRuns.stream().mapToDouble(Profile::total).toArray();
        double[] a = advisedRuns.stream().mapToDouble(Profile::total).toArray();
        Estimate ratio = v.length == 0 || a.length == 0 ? new Estimate(Double.NaN, Double.NaN, Double.NaN) : Stats.ratioCi(a, v);
        return new Measured(Profile.summed(vbdRuns), Profile.summed(advisedRuns), ratio, Math.min(v.length, a.length));
    }

    /** The run's time under the advice over its time under vbd, with its 95% interval (unbounded from one run of each). */
    public Estimate ratio() {
        return ratio;
    }

    /** What relaxing {@code scope} gave back in its own code, as a share of the run under vbd. */
    public double gain(Cost scope) {
        return vbd.total() == 0 ? 0 : (double) (vbd.samples(scope) - advised.samples(scope)) / vbd.total();
    }

    /** The noise of {@link #gain}: twice its standard deviation ({@link Cost#noise(long, long, long[], long[])}), as a share. */
    public double noise(Cost scope) {
        return vbd.total() == 0 ? 0 : 2 * sd(scope) / vbd.total();
    }

    private double sd(Cost scope) {
        return Cost.noise(vbd.samples(scope), advised.samples(scope), vbd.samplesPerRun(scope), advised.samplesPerRun(scope));
    }

    /** {@link #gain} of the rules together. */
    double gain(List<Advice.Rule> rules) {
        double g = 0;
        for (Advice.Rule r : rules) g += gain(r.cost());
        return g;
    }

    /** The rules' noises added as independent ones. */
    double noise(List<Advice.Rule> rules) {
        double variance = 0;
        for (Advice.Rule r : rules) variance += sd(r.cost()) * sd(r.cost());
        return vbd.total() == 0 ? 0 : 2 * Math.sqrt(variance) / vbd.total();
    }

    /** The measurement in a sentence, for the config's header and {@code advise}'s last lines. */
    String inWords(List<Advice.Rule> rules) {
        String interval = ratio.bounded() ? String.format(Locale.ROOT, ", 95%% interval [%.2f, %.2f]", ratio.lo(), ratio.hi())
                : runs == 1 ? ", no interval from one run of each (--profiles 2 or more gives one)"
                : ", no interval: the runs varied too much for so few (more --profiles narrow it)";
        return String.format(Locale.ROOT, "Measured apart, on %d %s under vbd and under the advice, alternating, not those the"
                        + " rules were chosen on: the run under the advice took %.2f of its time under vbd (its samples at one"
                        + " pace)%s; the rules' own code gave back %s ± %s of the run under vbd.",
                runs, runs == 1 ? "run" : "runs each", ratio.value(), interval, Advice.percent(gain(rules)), Advice.percent(noise(rules)));
    }

    /** One rule's measurement, for its comment. */
    String inWords(Cost scope) {
        return String.format(Locale.ROOT, "measured apart: %s ± %s of the run under vbd (%d samples under vbd, %d under the advice)",
                Advice.percent(gain(scope)), Advice.percent(noise(scope)), vbd.samples(scope), advised.samples(scope));
    }
}
