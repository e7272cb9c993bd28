/**
 * Store buffering on the fields of program classes that look like vbd's own: named in vbd's
 * packages, carrying an annotation of the marker's name and kind, or holding the marker's name as
 * a string. Each is the program's, so under vbd the forbidden outcome must never show.
 */
final class Trust {
    private Trust() {}

    static Main.Shape shape(String name) {
        switch (name) {
            case "named-internal": return new NamedInternal();
            case "named-core": return new NamedCore();
            case "forged-marker": return new Forged();
            case "marker-string": return new Literal();
            default: return null;
        }
    }
}

@dev.vbd.internal.Rewritten
final class ForgedPair { int x, y; }

final class LiteralPair {
    /** The marker's descriptor as a constant: its bytes sit in this class's constant pool. */
    static final String MARKER = "Ldev/vbd/internal/Rewritten;";
    int x, y;
}

final class NamedInternal extends Main.Shape {
    dev.vbd.internal.InternalPair[] states;
    NamedInternal() { super("named-internal"); }
    int allocate(int n) { states = new dev.vbd.internal.InternalPair[n]; for (int i = 0; i < n; i++) states[i] = new dev.vbd.internal.InternalPair(); return n; }
    void actor1(int n) { dev.vbd.internal.InternalPair[] s = states; int[] r = r1; for (int i = 0; i < n; i++) { dev.vbd.internal.InternalPair p = s[i]; p.x = 1; r[i] = p.y; } }
    void actor2(int n) { dev.vbd.internal.InternalPair[] s = states; int[] r = r2; for (int i = 0; i < n; i++) { dev.vbd.internal.InternalPair p = s[i]; p.y = 1; r[i] = p.x; } }
}

final class NamedCore extends Main.Shape {
    dev.vbd.core.CorePair[] states;
    NamedCore() { super("named-core"); }
    int allocate(int n) { states = new dev.vbd.core.CorePair[n]; for (int i = 0; i < n; i++) states[i] = new dev.vbd.core.CorePair(); return n; }
    void actor1(int n) { dev.vbd.core.CorePair[] s = states; int[] r = r1; for (int i = 0; i < n; i++) { dev.vbd.core.CorePair p = s[i]; p.x = 1; r[i] = p.y; } }
    void actor2(int n) { dev.vbd.core.CorePair[] s = states; int[] r = r2; for (int i = 0; i < n; i++) { dev.vbd.core.CorePair p = s[i]; p.y = 1; r[i] = p.x; } }
}

final class Forged extends Main.Shape {
    ForgedPair[] states;
    Forged() { super("forged-marker"); }
    int allocate(int n) { states = new ForgedPair[n]; for (int i = 0; i < n; i++) states[i] = new ForgedPair(); return n; }
    void actor1(int n) { ForgedPair[] s = states; int[] r = r1; for (int i = 0; i < n; i++) { ForgedPair p = s[i]; p.x = 1; r[i] = p.y; } }
    void actor2(int n) { ForgedPair[] s = states; int[] r = r2; for (int i = 0; i < n; i++) { ForgedPair p = s[i]; p.y = 1; r[i] = p.x; } }
}

final class Literal extends Main.Shape {
    LiteralPair[] states;
    Literal() { super("marker-string"); }
    int allocate(int n) { states = new LiteralPair[n]; for (int i = 0; i < n; i++) states[i] = new LiteralPair(); return n; }
    void actor1(int n) { LiteralPair[] s = states; int[] r = r1; for (int i = 0; i < n; i++) { LiteralPair p = s[i]; p.x = 1; r[i] = p.y; } }
    void actor2(int n) { LiteralPair[] s = states; int[] r = r2; for (int i = 0; i < n; i++) { LiteralPair p = s[i]; p.y = 1; r[i] = p.x; } }
}
