/** {@code x} and {@code S} become final, and the class file version 52, before the program runs. */
public class Pre53 {
    public int x;
    public static int S;

    public Pre53(int v) { x = v; }

    public void set(int v) { x = v; }

    public static void setS(int v) { S = v; }

    public int x() { return x; }

    public static int s() { return S; }
}
