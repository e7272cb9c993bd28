/**
 * Store buffering on two plain fields of this class's objects: {@code x = 1; r1 = y} against
 * {@code y = 1; r2 = x}. Program {@code jni} defines this class a second time through JNI's
 * {@code DefineClass}, in a loader of its own, from this class file's bytes.
 */
public class SbFields {
    int x, y;
    static SbFields[] states;

    public static void allocate(int n) {
        SbFields[] s = new SbFields[n];
        for (int i = 0; i < n; i++) s[i] = new SbFields();
        states = s;
    }

    public static void actor1(int n, int[] r) {
        SbFields[] s = states;
        for (int i = 0; i < n; i++) {
            SbFields h = s[i];
            h.x = 1;
            r[i] = h.y;
        }
    }

    public static void actor2(int n, int[] r) {
        SbFields[] s = states;
        for (int i = 0; i < n; i++) {
            SbFields h = s[i];
            h.y = 1;
            r[i] = h.x;
        }
    }
}
