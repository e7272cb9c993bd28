/** {@code x} becomes final before the program runs. */
public class Other {
    public int x;

    public Other(int v) { x = v; }

    /** Writes the final of {@code o}, an object another thread already reads. */
    public Other(Other o) {
        x = 1;
        o.x = 2;
    }

    public int x() { return x; }
}
