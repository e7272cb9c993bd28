package re;

public class Work extends Base {
    private final int[] cells = new int[8];
    private long sum;

    public Work() {
        super(3);
    }

    public long run() {
        for (int i = 0; i < cells.length; i++) cells[i] = i * weight;
        for (int c : cells) sum += c;
        new Side2();
        return sum + Side0.count;
    }
}
