import java.util.*;
import java.util.function.*;
import java.util.stream.*;

/** Lambdas (capturing, non-capturing, nested), method references of every kind, functional composition. */
public class Main {
    interface TriFunction<A, B, C, R> { R apply(A a, B b, C c); }

    static int counter;
    int base = 10;

    static int twice(int x) { return 2 * x; }
    int addBase(int x) { return x + base; }

    Supplier<Integer> baseSupplier() { return () -> base++; }

    public static void main(String[] args) {
        IntUnaryOperator staticRef = Main::twice;
        Main m = new Main();
        IntUnaryOperator boundRef = m::addBase;
        ToIntBiFunction<Main, Integer> unboundRef = Main::addBase;
        Supplier<Main> ctorRef = Main::new;
        IntFunction<int[]> arrayCtor = int[]::new;
        Function<String, Integer> parse = Integer::parseInt;
        System.out.println("refs " + staticRef.applyAsInt(21) + " " + boundRef.applyAsInt(5) + " " + unboundRef.applyAsInt(m, 1)
                + " " + ctorRef.get().base + " " + arrayCtor.apply(4).length + " " + parse.andThen(i -> i * 3).apply("14"));

        int local = 5;
        String text = "captured";
        Function<Integer, String> capturing = i -> text + ":" + (i + local);
        System.out.println("capture " + capturing.apply(1));
        Runnable inc = () -> counter++;
        for (int i = 0; i < 10; i++) inc.run();
        System.out.println("static counter " + counter);
        Supplier<Integer> s = m.baseSupplier();
        System.out.println("instance capture " + s.get() + " " + s.get() + " base=" + m.base);

        Function<Integer, Function<Integer, Integer>> curried = a -> b -> a * 10 + b;
        System.out.println("curried " + curried.apply(4).apply(2));
        TriFunction<Integer, Integer, Integer, Integer> tri = (a, b, c) -> a * b + c;
        System.out.println("custom interface " + tri.apply(3, 4, 5));
        Predicate<String> empty = String::isEmpty;
        Predicate<String> longer = str -> str.length() > 3;
        System.out.println("predicates " + Stream.of("", "ab", "abcd", "abcdef").filter(empty.negate().and(longer.or(str -> str.startsWith("a")))).toList());
        BinaryOperator<Integer> maxBy = BinaryOperator.maxBy(Comparator.naturalOrder());
        UnaryOperator<String> up = String::toUpperCase;
        System.out.println("operators " + maxBy.apply(3, 9) + " " + up.andThen(str -> str + "!").apply("hi") + " "
                + Function.<Integer>identity().compose((Integer i) -> i + 1).apply(1));

        List<Supplier<Integer>> suppliers = new ArrayList<>();
        for (int i = 0; i < 5; i++) { final int j = i; suppliers.add(() -> j * j); }
        System.out.println("loop captures " + suppliers.stream().map(Supplier::get).toList());

        Comparator<String> cmp = Comparator.comparing(String::length).thenComparing(Function.identity());
        List<String> words = new ArrayList<>(List.of("kiwi", "fig", "banana", "apple", "date", "fig"));
        words.sort(cmp);
        System.out.println("comparator " + words);
        Map<String, Integer> lengths = words.stream().distinct().collect(Collectors.toMap(Function.identity(), String::length, (a, b) -> a, TreeMap::new));
        System.out.println("toMap " + lengths);
        Optional<String> first = words.stream().filter(w -> w.contains("an")).findFirst();
        System.out.println("optional " + first.map(String::length).orElse(-1) + " " + Optional.empty().or(() -> Optional.of("alt")).get());

        Runnable recursive = new Runnable() {
            int depth;
            public void run() { if (++depth < 5) run(); }
            @Override public String toString() { return "depth=" + depth; }
        };
        recursive.run();
        System.out.println("anonymous " + recursive);
        Object o = (Runnable & java.io.Serializable) () -> {};
        System.out.println("intersection serializable " + (o instanceof java.io.Serializable));
        BiFunction<Double, Double, Double> pow = Math::pow;
        System.out.println("static library ref " + pow.apply(2.0, 10.0));
        IntBinaryOperator gcd = new IntBinaryOperator() {
            public int applyAsInt(int a, int b) { return b == 0 ? a : applyAsInt(b, a % b); }
        };
        System.out.println("gcd " + gcd.applyAsInt(1071, 462));
        Supplier<Supplier<String>> nested = () -> () -> "nested " + local + text.length();
        System.out.println(nested.get().get());
    }
}
