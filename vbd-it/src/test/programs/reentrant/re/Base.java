package re;

public class Base {
    protected final int weight;

    protected Base(int weight) {
        this.weight = weight;
    }
}
