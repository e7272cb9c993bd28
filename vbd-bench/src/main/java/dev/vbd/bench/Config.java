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
    /**
     * The negative control: vbd's launcher, agent and patched JDK with every class of the program
     * and of the JDK relaxed. What remains is vbd's machinery without its fences, which must not
     * change the steady-state time.
     */
    VBD_ALL_RELAXED("vbd+all-relaxed", true, Relaxation.ALL, List.of(), "stock",
            "negative control: under vbd with every class relaxed");

    /** Which relaxed config the vbd options are made with. */
    public enum Relaxation { NONE, LISTED, ALL }

    public final String id;
    public final boolean vbd;
    public final Relaxation relaxation;
    /** How the program's fields are made SC: {@code bin/vbd run --fields volatile|fenced|speculative}. */
    public final String fields;
    /** JVM options of this configuration beyond the shared ones. */
    public final List<String> flags;
    /** The configuration this one's ratio is taken against; null for the baseline itself. */
    public final String baseline;
    public final String description;

    Config(String id, boolean vbd, Relaxation relaxation, List<String> flags, String baseline, String description) {
        this(id, vbd, relaxation, "volatile", flags, baseline, description);
    }

    Config(String id, boolean vbd, Relaxation relaxation, String fields, List<String> flags, String baseline,
           String description) {
        this.id = id;
        this.fields = fields;
        this.vbd = vbd;
        this.relaxation = relaxation;
        this.flags = flags;
        this.baseline = baseline;
        this.description = description;
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
