import java.io.*;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.*;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * What a program can learn of its fields' modifiers: reflection, updaters, setters on final
 * fields and the default serialVersionUID must all report the fields as declared.
 * {@code Main write FILE} serializes a {@link Plain} into FILE; {@code Main FILE} prints what it
 * sees and reads FILE back.
 */
public class Main {
    static class Fields {
        public int plain;
        private long plainLong;
        protected String plainRef = "r";
        final int fin = 1;
        volatile int vol;
        volatile long volLong;
        volatile String volRef;
        static int staticPlain;
        static volatile int staticVol;
        static final int STATIC_FINAL = 3;
        transient int trans;
    }

    /** Publishes {@code this} before storing its final fields. */
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

    /** A relaxed constructor that leaks {@code this}: its plain stores to its own final fields must still work. */
    static class RelaxedLeaky {
        static final List<RelaxedLeaky> ALL = new ArrayList<>();
        final int value;
        final String name;
        @dev.vbd.Relaxed
        RelaxedLeaky(int value) {
            ALL.add(this);
            this.value = value;
            this.name = "relaxed" + value;
        }
    }

    /** Serializable without a declared serialVersionUID: its default one depends on field modifiers. */
    static class Plain implements Serializable {
        public int count;
        protected String text;
        long total;
        final int fixed;
        Plain(int fixed) { this.fixed = fixed; }
    }

    /** A leaking constructor in a serializable class without serialVersionUID. */
    static class LeakySerial implements Serializable {
        static final List<LeakySerial> ALL = new ArrayList<>();
        final int id;
        int hits;
        LeakySerial(int id) {
            ALL.add(this);
            this.id = id;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("write")) {
            Plain p = new Plain(9);
            p.count = 4;
            p.text = "hello";
            p.total = 1L << 40;
            try (ObjectOutputStream out = new ObjectOutputStream(new FileOutputStream(args[1]))) {
                out.writeObject(p);
                out.writeObject(new LeakySerial(12));
            }
            System.out.println("written");
            return;
        }
        modifiers(Fields.class);
        modifiers(Leaky.class);
        modifiers(Plain.class);
        modifiers(LeakySerial.class);
        modifiers(RelaxedLeaky.class);
        RelaxedLeaky relaxed = new RelaxedLeaky(13);
        System.out.println("relaxed constructor stored value=" + relaxed.value + " name=" + relaxed.name);
        for (String jdkField : List.of("java.util.ArrayList.size", "java.util.AbstractList.modCount",
                "java.util.HashMap.threshold", "java.util.concurrent.FutureTask.state", "java.util.Vector.elementCount",
                "com.sun.tools.javac.util.Log.nerrors")) {
            int dot = jdkField.lastIndexOf('.');
            Field f = Class.forName(jdkField.substring(0, dot)).getDeclaredField(jdkField.substring(dot + 1));
            System.out.println(f + " " + f.getModifiers());
        }
        updaters();
        setters();
        serialization(args[0]);
    }

    static void modifiers(Class<?> c) {
        Field[] fields = c.getDeclaredFields();
        Arrays.sort(fields, Comparator.comparing(Field::getName));
        for (Field f : fields) {
            int m = f.getModifiers();
            System.out.println(c.getSimpleName() + "." + f.getName() + ": " + m + " [" + Modifier.toString(m) + "]"
                    + " volatile=" + Modifier.isVolatile(m) + " final=" + Modifier.isFinal(m)
                    + accessFlags(f));
            System.out.println("  " + f + " | " + f.toGenericString());
        }
    }

    /** Field.accessFlags() exists from Java 20 on. */
    static String accessFlags(Field f) {
        try {
            return " flags=" + new TreeSet<>(((Set<?>) Field.class.getMethod("accessFlags").invoke(f)).stream()
                    .map(String::valueOf).toList());
        } catch (NoSuchMethodException e) {
            return "";
        } catch (ReflectiveOperationException e) {
            return " flags: " + e.getCause();
        }
    }

    static void updaters() {
        attempt("int updater on plain field", () -> AtomicIntegerFieldUpdater.newUpdater(Fields.class, "plain"));
        attempt("long updater on plain field", () -> AtomicLongFieldUpdater.newUpdater(Fields.class, "plainLong"));
        attempt("reference updater on plain field",
                () -> AtomicReferenceFieldUpdater.newUpdater(Fields.class, String.class, "plainRef"));
        attempt("int updater on leaking final field", () -> AtomicIntegerFieldUpdater.newUpdater(Leaky.class, "value"));
        attempt("reference updater on leaking final field",
                () -> AtomicReferenceFieldUpdater.newUpdater(Leaky.class, String.class, "name"));
        Fields f = new Fields();
        attempt("int updater on volatile field", () -> {
            var u = AtomicIntegerFieldUpdater.newUpdater(Fields.class, "vol");
            return "incrementAndGet=" + u.incrementAndGet(f) + " cas=" + u.compareAndSet(f, 1, 5) + " vol=" + f.vol;
        });
        attempt("long updater on volatile field", () -> {
            var u = AtomicLongFieldUpdater.newUpdater(Fields.class, "volLong");
            return "addAndGet=" + u.addAndGet(f, 1L << 33) + " vol=" + f.volLong;
        });
        attempt("reference updater on volatile field", () -> {
            var u = AtomicReferenceFieldUpdater.newUpdater(Fields.class, String.class, "volRef");
            return "cas=" + u.compareAndSet(f, null, "set") + " vol=" + f.volRef;
        });
    }

    static void setters() throws Exception {
        Leaky leaky = new Leaky(5);
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        attempt("findSetter on leaking final", () -> lookup.findSetter(Leaky.class, "value", int.class));
        attempt("unreflectSetter on leaking final", () -> lookup.unreflectSetter(Leaky.class.getDeclaredField("value")));
        attempt("findVarHandle on leaking final", () -> {
            VarHandle vh = lookup.findVarHandle(Leaky.class, "value", int.class);
            return "get=" + (int) vh.get(leaky);
        });
        attempt("VarHandle.set on leaking final", () -> {
            VarHandle vh = lookup.findVarHandle(Leaky.class, "value", int.class);
            vh.set(leaky, 7);
            return "value=" + leaky.value;
        });
        attempt("VarHandle.compareAndSet on leaking final", () -> {
            VarHandle vh = lookup.findVarHandle(Leaky.class, "name", String.class);
            return "cas=" + vh.compareAndSet(leaky, leaky.name, "other");
        });
        attempt("unreflectVarHandle on leaking final", () -> {
            VarHandle vh = lookup.unreflectVarHandle(Leaky.class.getDeclaredField("value"));
            vh.set(leaky, 8);
            return "value=" + leaky.value;
        });
        attempt("Field.setInt on leaking final", () -> {
            Leaky.class.getDeclaredField("value").setInt(leaky, 9);
            return "value=" + leaky.value;
        });
        attempt("Field.set on leaking final", () -> {
            Leaky.class.getDeclaredField("name").set(leaky, "renamed");
            return "name=" + leaky.name;
        });
        attempt("findGetter on leaking final", () -> "get=" + (int) lookup.findGetter(Leaky.class, "value", int.class).invoke(leaky));
        attempt("revealDirect modifiers of a getter", () -> {
            var info = lookup.revealDirect(lookup.findGetter(Leaky.class, "value", int.class));
            var plain = lookup.revealDirect(lookup.findGetter(Fields.class, "plain", int.class));
            return Modifier.toString(info.getModifiers()) + " / " + Modifier.toString(plain.getModifiers());
        });
        attempt("setAccessible + setInt on leaking final", () -> {
            Field v = Leaky.class.getDeclaredField("value");
            v.setAccessible(true);
            v.setInt(leaky, 10);
            return "value=" + leaky.value + " read back=" + v.getInt(leaky);
        });
        attempt("setAccessible + set on leaking final reference", () -> {
            Field n = Leaky.class.getDeclaredField("name");
            n.setAccessible(true);
            n.set(leaky, "again");
            return "name=" + leaky.name;
        });
        attempt("setAccessible + unreflectSetter on leaking final", () -> {
            Field v = Leaky.class.getDeclaredField("value");
            v.setAccessible(true);
            lookup.unreflectSetter(v).invoke(leaky, 11);
            return "value=" + leaky.value;
        });
    }

    static void serialization(String file) throws Exception {
        System.out.println("default serialVersionUID Plain=" + ObjectStreamClass.lookup(Plain.class).getSerialVersionUID()
                + " LeakySerial=" + ObjectStreamClass.lookup(LeakySerial.class).getSerialVersionUID()
                + " Fields=" + ObjectStreamClass.lookup(Fields.class));
        try (ObjectInputStream in = new ObjectInputStream(new FileInputStream(file))) {
            Plain p = (Plain) in.readObject();
            LeakySerial l = (LeakySerial) in.readObject();
            System.out.println("read back Plain count=" + p.count + " text=" + p.text + " total=" + p.total + " fixed=" + p.fixed
                    + " LeakySerial id=" + l.id);
        } catch (InvalidClassException e) {
            System.out.println("read back failed: " + e);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new LeakySerial(3));
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            System.out.println("round trip LeakySerial id=" + ((LeakySerial) in.readObject()).id);
        }
    }

    interface Action {
        Object run() throws Throwable;
    }

    static void attempt(String what, Action action) {
        try {
            Object result = action.run();
            System.out.println(what + ": ok" + (result instanceof String ? " " + result : ""));
        } catch (Throwable t) {
            // a module's identity hash differs from run to run
            System.out.println(what + ": " + String.valueOf(t).replaceAll("module @[0-9a-f]+", "module"));
        }
    }
}
