import java.util.function.IntSupplier;

/** Stores its final after {@code super()}, which may have published {@code this}. */
public class B extends A implements IntSupplier {
    private final int x;

    public B() {
        super();
        try {
            Thread.sleep(1000); // long enough for a loop on x to be OSR-compiled by C2 first
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        x = 1;
    }

    @Override
    public int getAsInt() { return x; }
}
