import java.util.*;

/** Class initialisation: order of static initialisers, lazy holders, cycles, failures. */
public class Main {
    static final List<String> log = new ArrayList<>();

    static class Parent {
        static int parentValue = note("Parent.parentValue", 1);
        static { note("Parent static block", 0); }
        int instanceValue = note("Parent instance field", 2);
        Parent() { note("Parent constructor sees describe()=" + describe(), 0); }
        String describe() { return "parent"; }
    }

    static class Child extends Parent {
        static int childValue = note("Child.childValue", 3);
        static final int CONSTANT = 99;
        static final Integer BOXED = note("Child.BOXED", 4);
        final String tag;
        int late = note("Child instance field", 5);
        Child() { super(); tag = "child"; note("Child constructor", 0); }
        @Override String describe() { return "child(tag=" + tag + ", late=" + late + ")"; }
    }

    static class Lazy {
        static { note("Lazy initialised", 0); }
        private static class Holder {
            static final Lazy INSTANCE = new Lazy();
            static { note("Lazy.Holder initialised", 0); }
        }
        static Lazy get() { return Holder.INSTANCE; }
        static void touch() { note("Lazy.touch", 0); }
    }

    static class CycleA {
        static int a = note("CycleA.a reads CycleB.b=" + CycleB.b, 10);
        static int a2 = 11;
    }

    static class CycleB {
        static int b = note("CycleB.b reads CycleA.a=" + CycleA.a + " a2=" + CycleA.a2, 20);
    }

    static class Failing {
        static int value = boom();
        static int boom() { note("Failing.boom", 0); if (log.size() > 0) throw new IllegalStateException("init failed"); return 1; }
    }

    interface WithDefault {
        int FIELD = note("WithDefault.FIELD", 30);
        default void m() {}
    }

    interface NoDefault {
        int FIELD = note("NoDefault.FIELD", 31);
    }

    static class Impl implements WithDefault, NoDefault {
        static { note("Impl initialised", 0); }
    }

    static class Counter {
        static int count;
        static final Counter FIRST = new Counter();
        static int afterFirst = 5;
        final int seen;
        Counter() { seen = ++count; note("Counter ctor count=" + count + " afterFirst=" + afterFirst, 0); }
    }

    enum Color {
        RED, GREEN;
        static final Map<String, Color> BY_NAME = new HashMap<>();
        static { for (Color c : values()) BY_NAME.put(c.name().toLowerCase(Locale.ROOT), c); note("Color static block " + BY_NAME.size(), 0); }
        // a constructor may not name BY_NAME; through a method it sees the field before its initialiser ran
        Color() { note("Color ctor " + name() + " map=" + byName(), 0); }
        static Map<String, Color> byName() { return BY_NAME; }
    }

    static int note(String what, int value) {
        log.add(what);
        System.out.println("init: " + what);
        return value;
    }

    public static void main(String[] args) {
        System.out.println("constant " + Child.CONSTANT + " (no init)");
        System.out.println("parent field via child " + Child.parentValue);
        Child c = new Child();
        System.out.println("child " + c.describe() + " childValue=" + Child.childValue + " boxed=" + Child.BOXED);
        Lazy.touch();
        System.out.println("holder " + (Lazy.get() == Lazy.get()));
        System.out.println("cycle " + CycleA.a + " " + CycleB.b);
        for (int i = 0; i < 2; i++) {
            try {
                System.out.println("failing " + Failing.value);
            } catch (Throwable t) {
                System.out.println("failing -> " + t.getClass().getName() + " cause=" + t.getCause() + " msg=" + (t instanceof NoClassDefFoundError ? t.getMessage() : ""));
            }
        }
        new Impl().m();
        System.out.println("interface field " + NoDefault.FIELD);
        System.out.println("counter count=" + Counter.count + " first.seen=" + Counter.FIRST.seen + " afterFirst=" + Counter.afterFirst);
        System.out.println("enum " + Color.BY_NAME.get("green"));
        Runnable r = () -> note("lambda body", 0);
        r.run();
        System.out.println("log size " + log.size());
    }
}
