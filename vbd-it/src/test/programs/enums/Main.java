import java.util.*;
import java.util.stream.*;

/** Enums: values, valueOf, switch (statement and expression), EnumMap, EnumSet, constant bodies. */
public class Main {
    enum Planet {
        MERCURY(3.303e+23, 2.4397e6), EARTH(5.976e+24, 6.37814e6), JUPITER(1.9e+27, 7.1492e7);
        final double mass, radius;
        static int created;
        Planet(double mass, double radius) { this.mass = mass; this.radius = radius; }
        double gravity() { return 6.67300E-11 * mass / (radius * radius); }
    }

    enum Op {
        PLUS("+") { int apply(int a, int b) { return a + b; } },
        TIMES("*") { int apply(int a, int b) { return a * b; } },
        MINUS("-") { int apply(int a, int b) { return a - b; } };
        private final String symbol;
        Op(String symbol) { this.symbol = symbol; }
        abstract int apply(int a, int b);
        @Override public String toString() { return symbol; }
    }

    enum Day { MON, TUE, WED, THU, FRI, SAT, SUN }

    static String kind(Day d) {
        switch (d) {
            case SAT:
            case SUN:
                return "weekend";
            case WED:
                return "midweek";
            default:
                return "weekday";
        }
    }

    public static void main(String[] args) {
        for (Planet p : Planet.values()) {
            System.out.printf(Locale.ROOT, "%s ordinal=%d gravity=%.4f%n", p, p.ordinal(), p.gravity());
        }
        System.out.println("valueOf " + Planet.valueOf("EARTH").name() + " compare " + Planet.EARTH.compareTo(Planet.JUPITER));
        try {
            Planet.valueOf("PLUTO");
        } catch (IllegalArgumentException e) {
            System.out.println("valueOf bad -> " + e.getMessage());
        }
        for (Op op : Op.values()) System.out.println("op " + op.name() + " " + op + " " + op.apply(6, 7) + " class " + (op.getClass() != Op.class) + " declaring " + op.getDeclaringClass().getSimpleName());
        System.out.println("switch " + Arrays.stream(Day.values()).map(Main::kind).collect(Collectors.joining(",")));
        System.out.println("switch expr " + Arrays.stream(Day.values()).map(d -> switch (d) {
            case MON, TUE -> d.name().toLowerCase(Locale.ROOT);
            case FRI -> { String s = "fri"; yield s.toUpperCase(Locale.ROOT); }
            default -> String.valueOf(d.ordinal());
        }).collect(Collectors.joining(",")));
        EnumMap<Day, Integer> hours = new EnumMap<>(Day.class);
        for (Day d : Day.values()) if (d.ordinal() % 2 == 0) hours.put(d, d.ordinal() * 3);
        hours.merge(Day.MON, 100, Integer::sum);
        hours.remove(Day.WED);
        System.out.println("EnumMap " + hours + " containsKey(TUE)=" + hours.containsKey(Day.TUE) + " firstKey via keySet " + hours.keySet().iterator().next());
        EnumSet<Day> weekend = EnumSet.of(Day.SAT, Day.SUN);
        System.out.println("EnumSet " + weekend + " complement " + EnumSet.complementOf(weekend) + " range " + EnumSet.range(Day.TUE, Day.THU));
        Map<String, Day> byName = Arrays.stream(Day.values()).collect(Collectors.toMap(Enum::name, d -> d, (a, b) -> a, TreeMap::new));
        System.out.println("byName " + byName);
        System.out.println("switch on string " + Stream.of("a", "bb", "ccc", "x").map(s -> switch (s) {
            case "a" -> 1; case "bb" -> 2; case "ccc" -> 3; default -> -1; }).toList());
        System.out.println("hash stable " + (Day.MON.hashCode() == Day.MON.hashCode()) + " same " + (Day.valueOf("MON") == Day.MON));
    }
}
