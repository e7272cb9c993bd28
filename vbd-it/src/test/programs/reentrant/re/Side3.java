package re;

public class Side3 {
    static final int[] SEEN = new int[2];
    static int count;
    final Object owner;

    static {
        SEEN[0] = 3;
        count++;
    }

    public Side3() {
        owner = this;
        register(this);
    }

    static void register(Object o) {
        count += o == null ? 0 : 1;
    }
}
