/**
 * Initialised by the system class loader, so defined before any agent: its instance fields
 * {@code x} and {@code y} keep their declared (plain) modifiers under vbd. Its own actors store
 * buffer on them; so do {@code Main}'s, from a class loaded later.
 */
public class Helper {
    int x, y;
    static Helper[] states;
    static int inits;

    static void init() { inits++; }

    static void allocate(int n) {
        Helper[] s = new Helper[n];
        for (int i = 0; i < n; i++) s[i] = new Helper();
        states = s;
    }

    static void actor1(int n, int[] r) { Helper[] s = states; for (int i = 0; i < n; i++) { Helper h = s[i]; h.x = 1; r[i] = h.y; } }
    static void actor2(int n, int[] r) { Helper[] s = states; for (int i = 0; i < n; i++) { Helper h = s[i]; h.y = 1; r[i] = h.x; } }
}
