/** {@code x} becomes final before the program runs. */
public class ThisCall {
    public int x;
    public static volatile Object last;

    public ThisCall() { last = this; }

    public ThisCall(int v) {
        this();
        Main.pause();
        x = v;
    }

    public int x() { return x; }
}
