package dev.vbd.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A way to run a workload's JVM. Every configuration is compared with its baseline on the same JDK,
 * machine and run; the JVM options they all share (heap, GC) come from {@link Bench}.
 */
public enum Config {
    STOCK("stock", false, Relaxation.NONE, List.of(), null,
            "stock JVM, tiered compilation on (the default)"),
    STOCK_NOTIERED("stock-notiered", false, Relaxation.NONE, List.of("-XX:-TieredCompilation"), "stock",
            "stock JVM, C2 only, as the paper ran it"),
    VBD("vbd", true, Relaxation.NONE, List.of(), "stock",
            "under vbd, nothing relaxed"),
    VBD_RELAXED("vbd+relaxed", true, Relaxation.LISTED, List.of(), "stock",
            "under vbd with the relaxed config (--relaxed, or the bundled list of hot methods)"),
    VBD_NOTIERED("vbd-notiered", true, Relaxation.NONE, List.of("-XX:-TieredCompilation"), "stock-notiered",
            "under vbd, C2 only; compared with stock-notiered"),
    VBD_FENCED("vbd-fenced", true, Relaxation.NONE, "fenced", List.of(), "stock",
            "under vbd with fenced fields (--fields fenced), nothing relaxed"),
    VBD_FENCED_RELAXED("vbd-fenced+relaxed", true, Relaxation.LISTED, "fenced", List.of(), "stock",
            "under vbd with fenced fields and the relaxed config"),
    VBD_SPECULATIVE("vbd-speculative", true, Relaxation.NONE, "speculative", List.of(), "stock",
            "under vbd with speculative fields (--fields speculative), nothing relaxed"),
    /** Not SC: only that every constructor, the JDK's too, orders its stores before its object can be seen. */
    VBD_SAFE_CONSTRUCTION("vbd-safe-construction", true, Relaxation.NONE, "safe-construction", List.of(), "stock",
            "under vbd in safe construction (--mode safe-construction): constructors fenced, every other access as on stock"),
    // What each proof that no other thread can see an access buys: the same modes with fewer of them.
    VBD_UNOPTIMISED("vbd-unoptimised", true, "volatile", "none",
            "under vbd with every access fenced, local arrays too (--optimise none)"),
    VBD_FENCED_UNOPTIMISED("vbd-fenced-unoptimised", true, "fenced", "none",
            "under vbd with fenced fields and every access fenced (--optimise none)"),
    VBD_FENCED_CONSTRUCTORS("vbd-fenced-constructors", true, "fenced", "constructors",
            "under vbd with fenced fields, only constructors' stores to their own object plain (--optimise constructors)"),
    VBD_FENCED_LOCAL_ARRAYS("vbd-fenced-local-arrays", true, "fenced", "local-arrays",
            "under vbd with fenced fields, only local arrays plain (--optimise local-arrays)"),
    /**
     * Under vbd with the relaxed config {@code bin/vbd advise} writes for the workload at its training
     * size (the quick run's), the costliest rules first: all it advises (at most 20), or the first 5,
     * 10 or 50 of a budget of 50, for the figure of overhead against the number of relaxed scopes.
     */
    VBD_ADVISED("vbd+advised", 20, "under vbd with the scopes 'vbd advise' chose on the workload's training size (at most 20)"),
    VBD_ADVISED_5("vbd+advised-5", 5, "under vbd with the 5 costliest scopes 'vbd advise' chose"),
    VBD_ADVISED_10("vbd+advised-10", 10, "under vbd with the 10 costliest scopes 'vbd advise' chose"),
    VBD_ADVISED_50("vbd+advised-50", 50, "under vbd with the 50 costliest scopes 'vbd advise' chose"),
    /**
     * Advised and measured with fenced fields, where a relaxed method accesses fields with the plain
     * instruction: with volatile fields it reaches them through a plain-mode {@code VarHandle}, which
     * costs more than stock in the interpreter and C1, and keeps reference loads in loops under G1.
     */
    VBD_FENCED_ADVISED("vbd-fenced+advised", 20, "fenced", "method",
            "under vbd with fenced fields and the scopes 'vbd advise --fields fenced' chose (at most 20)"),
    /** As {@link #VBD_FENCED_ADVISED}, each rule a class: a cost spread thin over a class's methods shows summed. */
    VBD_FENCED_ADVISED_CLASSES("vbd-fenced+advised-classes", 20, "fenced", "class",
            "under vbd with fenced fields and the classes 'vbd advise --fields fenced --scope class' chose (at most 20)"),
    /** As {@link #VBD_FENCED_ADVISED}, each rule a package's classes. */
    VBD_FENCED_ADVISED_PACKAGES("vbd-fenced+advised-packages", 20, "fenced", "package",
            "under vbd with fenced fields and the packages 'vbd advise --fields fenced --scope package' chose (at most 20)"),
    /**
     * The negative control: vbd's launcher, agent and patched JDK with every class of the program
     * and of the JDK relaxed. What remains is vbd's machinery without its fences, which must not
     * change the steady-state time.
     */
    VBD_ALL_RELAXED("vbd+all-relaxed", true, Relaxation.ALL, List.of(), "stock",
            "negative control: under vbd with every class relaxed"),
    /** Under vbd with the layout {@code bin/vbd layout} wrote from a run of the workload at its training size. */
    VBD_LAYOUT("vbd+layout", "under vbd with the layout 'vbd layout' wrote from the workload's training size (docs/layout.md)");

    /** {@link #fields} of {@link #VBD_SAFE_CONSTRUCTION}, which {@link #vbdOptions} turns into {@code --mode safe-construction}. */
    static final String SAFE_CONSTRUCTION = "safe-construction";

    /** Which relaxed config the vbd options are made with. */
    public enum Relaxation { NONE, LISTED, ALL, ADVISED }

    public final String id;
    public final boolean vbd;
    public final Relaxation relaxation;
    /**
     * How the program's fields are made SC: {@code bin/vbd run --fields volatile|fenced|speculative};
     * {@link #SAFE_CONSTRUCTION} for {@code --mode safe-construction}, which makes none SC.
     */
    public final String fields;
    /** Which accesses vbd leaves plain because no other thread can see them: {@code bin/vbd run --optimise}. */
    public final String optimise;
    /** JVM options of this configuration beyond the shared ones. */
    public final List<String> flags;
    /** The configuration this one's ratio is taken against; null for the baseline itself. */
    public final String baseline;
    public final String description;
    /** With {@link Relaxation#ADVISED}: how many of the advisor's rules, the costliest first. */
    public final int advisedRules;
    /** With {@link Relaxation#ADVISED}: what one rule relaxes, {@code bin/vbd advise --scope method|class|package}. */
    public final String adviceScope;
    /** Whether the workload runs with the layout {@code bin/vbd layout} found for it ({@code bin/vbd run --layout}). */
    public final boolean layout;

    Config(String id, boolean vbd, Relaxation relaxation, List<String> flags, String baseline, String description) {
        this(id, vbd, relaxation, "volatile", flags, baseline, description);
    }

    Config(String id, boolean vbd, Relaxation relaxation, String fields, List<String> flags, String baseline,
           String description) {
        this(id, vbd, relaxation, fields, "all", flags, baseline, description);
    }

    Config(String id, boolean vbd, String fields, String optimise, String description) {
        this(id, vbd, Relaxation.NONE, fields, optimise, List.of(), "stock", description);
    }

    Config(String id, int advisedRules, String description) {
        this(id, advisedRules, "volatile", "method", description);
    }

    Config(String id, int advisedRules, String fields, String adviceScope, String description) {
        this(id, true, Relaxation.ADVISED, fields, "all", List.of(), "stock", description, advisedRules, adviceScope);
    }

    Config(String id, boolean vbd, Relaxation relaxation, String fields, String optimise, List<String> flags,
           String baseline, String description) {
        this(id, vbd, relaxation, fields, optimise, flags, baseline, description, 0, "method", false);
    }

    /** A layout's configuration: against vbd, whose rewrite it is with the layout's fields moved. */
    Config(String id, String description) {
        this(id, true, Relaxation.NONE, "volatile", "all", List.of(), "vbd", description, 0, "method", true);
    }

    Config(String id, boolean vbd, Relaxation relaxation, String fields, String optimise, List<String> flags,
           String baseline, String description, int advisedRules, String adviceScope) {
        this(id, vbd, relaxation, fields, optimise, flags, baseline, description, advisedRules, adviceScope, false);
    }

    Config(String id, boolean vbd, Relaxation relaxation, String fields, String optimise, List<String> flags,
           String baseline, String description, int advisedRules, String adviceScope, boolean layout) {
        this.id = id;
        this.layout = layout;
        this.advisedRules = advisedRules;
        this.adviceScope = adviceScope;
        this.fields = fields;
        this.optimise = optimise;
        this.vbd = vbd;
        this.relaxation = relaxation;
        this.flags = flags;
        this.baseline = baseline;
        this.description = description;
    }

    /**
     * The options of {@code bin/vbd run} besides {@code --relaxed} that make this configuration; with
     * {@code defaults}, also those that only repeat a default (which {@code $VBD_FIELDS} may change).
     */
    public List<String> vbdOptions(boolean defaults) {
        List<String> o = new java.util.ArrayList<>();
        if (fields.equals(SAFE_CONSTRUCTION)) return List.of("--mode", SAFE_CONSTRUCTION);
        if (defaults || !fields.equals("volatile")) o.addAll(List.of("--fields", fields));
        if (!optimise.equals("all")) o.addAll(List.of("--optimise", optimise));
        return o;
    }

    public Config baselineConfig() {
        return baseline == null ? null : byId(baseline);
    }

    public static Config byId(String id) {
        String want = id.trim().toLowerCase(Locale.ROOT);
        for (Config c : values()) {
            if (c.id.equals(want)) return c;
        }
        throw new IllegalArgumentException("unknown configuration '" + id + "'; known: "
                + Arrays.stream(values()).map(c -> c.id).toList());
    }

    @Override
    public String toString() {
        return id;
    }
}
