/** Loaded afresh for every round of the transitions test: a hierarchy no thread has touched. */
public class Cell implements Main.Access {
    int x;

    public void store() { x = 1; }

    public int load() { return x; }
}
