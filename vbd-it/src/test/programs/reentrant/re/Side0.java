package re;

public class Side0 {
    static final int[] SEEN = new int[2];
    static int count;
    final Object owner;

    static {
        SEEN[0] = 0;
        count++;
    }

    public Side0() {
        owner = this;
        register(this);
    }

    static void register(Object o) {
        count += o == null ? 0 : 1;
    }
}
