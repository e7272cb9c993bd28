import java.util.*;

/** Records: accessors, equals/hashCode/toString, compact and canonical constructors, nesting. */
public class Main {
    record Point(int x, int y) {
        Point {
            if (x < 0) throw new IllegalArgumentException("negative x: " + x);
        }
        Point(int both) { this(both, both); }
        static Point origin() { return new Point(0, 0); }
        double length() { return Math.sqrt(x * x + y * y); }
    }

    record Named(String name, List<String> tags, double weight, long id, char grade, boolean active, Point at) {
        Named {
            name = name.strip();
            tags = List.copyOf(tags);
        }
    }

    record Range(int lo, int hi) implements Comparable<Range> {
        Range {
            if (lo > hi) throw new IllegalArgumentException(String.format("(%d,%d)", lo, hi));
        }
        public int compareTo(Range o) { return Integer.compare(hi - lo, o.hi - o.lo); }
    }

    record Box<T>(T value) {}

    record Empty() {}

    public static void main(String[] args) {
        Point a = new Point(3, 4), b = new Point(3, 4), c = new Point(5);
        System.out.println(a + " " + c + " " + Point.origin() + " length=" + a.length());
        System.out.println("equals " + a.equals(b) + " " + a.equals(c) + " " + a.equals(null) + " hash " + a.hashCode() + " " + (a.hashCode() == b.hashCode()) + " " + c.hashCode());
        try {
            new Point(-1, 2);
        } catch (IllegalArgumentException e) {
            System.out.println("compact ctor -> " + e.getMessage());
        }
        Named n = new Named("  alice ", new ArrayList<>(List.of("x", "y")), 61.5, 1L << 40, 'A', true, a);
        System.out.println(n);
        System.out.println("hash " + n.hashCode() + " equals copy " + n.equals(new Named("alice", List.of("x", "y"), 61.5, 1L << 40, 'A', true, new Point(3, 4))));
        try {
            n.tags().add("z");
        } catch (UnsupportedOperationException e) {
            System.out.println("copied tags immutable");
        }
        List<Range> ranges = new ArrayList<>(List.of(new Range(0, 10), new Range(5, 6), new Range(-3, 3)));
        Collections.sort(ranges);
        System.out.println("sorted " + ranges);
        try {
            new Range(2, 1);
        } catch (IllegalArgumentException e) {
            System.out.println("range -> " + e.getMessage());
        }
        Set<Object> set = new HashSet<>(List.of(new Box<>("s"), new Box<>(1), new Empty()));
        System.out.println("set contains " + set.contains(new Box<>("s")) + " " + set.contains(new Empty()) + " " + set.contains(new Box<>(2)));
        System.out.println(new Box<>(List.of(new Empty())) + " " + new Empty().hashCode() + " " + new Box<>(null).hashCode() + " " + new Box<>(null));
        Map<Point, String> map = new HashMap<>();
        for (int i = 0; i < 5; i++) map.put(new Point(i, i * i), "p" + i);
        System.out.println("record keys " + map.get(new Point(3, 9)) + " " + new TreeMap<>(Map.of(a.toString(), 1)));
        System.out.println("components " + Arrays.stream(Named.class.getRecordComponents()).map(rc -> rc.getName() + ":" + rc.getType().getSimpleName()).toList());
        Object o = new Point(1, 2);
        if (o instanceof Point p && p.x() < p.y()) System.out.println("pattern " + p.x() + "<" + p.y());
        double d = -0.0;
        System.out.println("double components " + new Named("n", List.of(), d, 0, 'b', false, null).equals(new Named("n", List.of(), 0.0, 0, 'b', false, null)));
    }
}
