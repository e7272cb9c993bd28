import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.*;
import java.util.*;
import java.util.stream.*;

/**
 * Reflection over classes whose fields vbd makes volatile. Only modifiers that vbd must keep
 * are printed (static, access, source-level volatile, static final); the volatile bit that vbd
 * adds to plain fields is deliberately not.
 */
public class Main {
    static class Point {
        public int x;
        private long y;
        protected double z = 1.5;
        String label = "p";
        volatile boolean declaredVolatile;
        static int instances;
        static final String KIND = "point";
        public final int id;

        Point(int id) { this.id = id; instances++; }
        public int sum() { return x + (int) y; }
        private String secret(String prefix, int times) { return prefix.repeat(times) + label; }
        static String describe(Point p) { return "Point(" + p.x + "," + p.y + "," + p.z + ")"; }
        public int max(int... values) { return IntStream.of(values).max().orElse(-1); }
        void fail() { throw new IllegalStateException("from fail"); }
    }

    /** Publishes {@code this} before storing its final field: vbd may turn that field into a volatile non-final one. */
    static class Leaky {
        static final List<Leaky> REGISTRY = new ArrayList<>();
        final int value;
        final String name;
        Leaky(int value) {
            REGISTRY.add(this);
            this.value = value;
            this.name = "leaky" + value;
        }
    }

    static String stable(Field f) {
        int m = f.getModifiers();
        StringBuilder b = new StringBuilder();
        if (Modifier.isPublic(m)) b.append("public ");
        if (Modifier.isPrivate(m)) b.append("private ");
        if (Modifier.isProtected(m)) b.append("protected ");
        if (Modifier.isStatic(m)) b.append("static ");
        if (Modifier.isStatic(m) && Modifier.isFinal(m)) b.append("final ");
        if (f.getName().equals("declaredVolatile") && Modifier.isVolatile(m)) b.append("volatile ");
        return b + f.getType().getSimpleName() + " " + f.getName();
    }

    public static void main(String[] args) throws Throwable {
        Point p = new Point(7);
        List<Field> fields = new ArrayList<>(List.of(Point.class.getDeclaredFields()));
        fields.removeIf(Field::isSynthetic);
        fields.sort(Comparator.comparing(Field::getName));
        for (Field f : fields) {
            f.setAccessible(true);
            System.out.println("field " + stable(f) + " = " + (Modifier.isStatic(f.getModifiers()) ? f.get(null) : f.get(p)));
        }

        Field x = Point.class.getField("x");
        x.setInt(p, 11);
        Field y = Point.class.getDeclaredField("y");
        y.setAccessible(true);
        y.set(p, 22L);
        Field z = Point.class.getDeclaredField("z");
        z.setDouble(p, -0.25);
        Field label = Point.class.getDeclaredField("label");
        label.set(p, "relabelled");
        Field count = Point.class.getDeclaredField("instances");
        count.set(null, 100);
        System.out.println("after set: x=" + p.x + " y=" + y.getLong(p) + " z=" + p.z + " label=" + p.label
                + " instances=" + Point.instances + " sum=" + p.sum());
        try {
            x.set(p, "not an int");
        } catch (IllegalArgumentException e) {
            System.out.println("set wrong type -> " + e.getClass().getName());
        }
        try {
            Point.class.getDeclaredField("KIND").set(null, "other");
        } catch (IllegalAccessException e) {
            System.out.println("set static final -> " + e.getClass().getName());
        }
        Field id = Point.class.getField("id");
        id.setAccessible(true);
        id.setInt(p, 8);
        System.out.println("final id set through reflection: " + id.getInt(p));

        Leaky leaky = new Leaky(5);
        Field value = Leaky.class.getDeclaredField("value");
        value.setAccessible(true);
        System.out.println("leaky value=" + value.get(leaky) + " registry=" + Leaky.REGISTRY.size());
        value.setInt(leaky, 6);
        System.out.println("leaky value after set=" + leaky.value + " name=" + Leaky.class.getDeclaredField("name").get(leaky));

        List<Method> methods = Stream.of(Point.class.getDeclaredMethods()).filter(m -> !m.isSynthetic())
                .sorted(Comparator.comparing(Method::getName)).collect(Collectors.toList());
        for (Method m : methods) {
            System.out.println("method " + m.getName() + Arrays.toString(m.getParameterTypes()) + " -> " + m.getReturnType().getName()
                    + (Modifier.isStatic(m.getModifiers()) ? " static" : "") + (m.isVarArgs() ? " varargs" : ""));
        }
        System.out.println("invoke sum " + Point.class.getMethod("sum").invoke(p));
        Method secret = Point.class.getDeclaredMethod("secret", String.class, int.class);
        secret.setAccessible(true);
        System.out.println("invoke secret " + secret.invoke(p, "ab", 3));
        System.out.println("invoke static " + Point.class.getDeclaredMethod("describe", Point.class).invoke(null, p));
        System.out.println("invoke varargs " + Point.class.getMethod("max", int[].class).invoke(p, (Object) new int[]{3, 9, 2}));
        try {
            Point.class.getDeclaredMethod("fail").invoke(p);
        } catch (InvocationTargetException e) {
            System.out.println("invoke fail -> " + e.getCause());
        }
        Constructor<Point> ctor = Point.class.getDeclaredConstructor(int.class);
        Point q = ctor.newInstance(99);
        System.out.println("constructed id=" + q.id + " instances=" + Point.instances + " ctors=" + Point.class.getDeclaredConstructors().length);

        MethodHandles.Lookup lookup = MethodHandles.lookup();
        MethodHandle getX = lookup.findGetter(Point.class, "x", int.class);
        MethodHandle setX = lookup.findSetter(Point.class, "x", int.class);
        setX.invoke(q, 31);
        System.out.println("MethodHandle x=" + (int) getX.invoke(q));
        MethodHandle getInstances = lookup.findStaticGetter(Point.class, "instances", int.class);
        System.out.println("MethodHandle static=" + (int) getInstances.invoke());
        VarHandle vh = lookup.findVarHandle(Point.class, "x", int.class);
        vh.set(q, 40);
        boolean swapped = vh.compareAndSet(q, 40, 41);
        System.out.println("VarHandle x=" + (int) vh.get(q) + " cas=" + swapped + " getAndAdd=" + (int) vh.getAndAdd(q, 5) + " now=" + q.x);
        VarHandle arr = MethodHandles.arrayElementVarHandle(long[].class);
        long[] longs = new long[3];
        arr.setRelease(longs, 1, 77L);
        System.out.println("array VarHandle " + Arrays.toString(longs) + " " + (long) arr.getAcquire(longs, 1));

        System.out.println("class " + Point.class.getName() + " super=" + Point.class.getSuperclass().getSimpleName()
                + " nest host=" + Point.class.getNestHost().getSimpleName() + " record=" + Point.class.isRecord()
                + " annotations=" + Point.class.getAnnotations().length);
        Object proxy = Proxy.newProxyInstance(Main.class.getClassLoader(), new Class<?>[]{Runnable.class, Comparable.class},
                (pr, m, a) -> m.getName().equals("compareTo") ? 3 : null);
        System.out.println("proxy compareTo=" + ((Comparable<Object>) proxy).compareTo("x"));
    }
}
