package dev.vbd.agent.observe;

import dev.vbd.core.verify.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The observer's verdicts on small programs, instrumented as the agent does and run on threads one
 * after the other. The test's own code is not observed: to the observer, what one step does is
 * ordered before the next step's accesses only through the program's locks, SC accesses, and the
 * starts and joins of threads it makes.
 */
class ObserverTest {
    @TempDir
    Path dir;
    /** The last observed run's whole report. */
    private Map<?, ?> report;

    public static final class Counter {
        long n;

        public void add() {
            n++;
        }
    }

    public static final class Guarded {
        long n;

        public synchronized void add() {
            n++;
        }

        public void addLocked(ReentrantLock lock) {
            lock.lock();
            try {
                n++;
            } finally {
                lock.unlock();
            }
        }

        public void addInBlock() {
            synchronized (this) {
                n++;
            }
        }
    }

    public static final class Confined {
        public long fill() {
            int[] a = new int[8];
            for (int i = 0; i < a.length; i++) a[i] = i;
            Counter own = new Counter();
            own.add();
            return a[7] + own.n;
        }
    }

    public static final class Thrower {
        long n;

        public synchronized void addThenThrow() {
            n++;
            throw new IllegalStateException("planned");
        }

        public synchronized void add() {
            n++;
        }
    }

    public static final class Published {
        public static int[] table;

        public static void publish() {
            table = new int[] {1, 2, 3};
        }

        /** Reads the table through the SC load of {@link #table}. */
        public int read() {
            return sum(table);
        }

        public int sum(int[] t) {
            return t[0] + t[1] + t[2];
        }
    }

    public static final class Forker {
        final int[] data = new int[4];

        public void fill() {
            for (int i = 0; i < data.length; i++) data[i] = i;
        }

        public int forkAndJoin() throws InterruptedException {
            Thread worker = new Thread() {
                @Override
                public void run() {
                    fill();
                }
            };
            worker.start();
            worker.join();
            return data[3];
        }
    }

    public static final class Copier {
        public static final int[] SHARED = new int[4];

        public static void copyIn(int[] from) {
            System.arraycopy(from, 0, SHARED, 0, from.length);
        }

        public static final int[] EMPTY = new int[0];

        /** A store past the end of the array: it throws, and writes nothing. */
        public static void storePastTheEnd() {
            try {
                SHARED[SHARED.length] = 1;
            } catch (ArrayIndexOutOfBoundsException expected) {
                // nothing was written
            }
        }

        public static void copyNone(int[] from, int[] to) {
            System.arraycopy(from, 0, to, 0, 0);
        }

        public static void fillIn(int value) {
            java.util.Arrays.fill(SHARED, value);
        }

        public int read() {
            return SHARED[0];
        }
    }

    public static final class Flagged {
        long n;

        public long add(boolean racy) {
            long[] mine = new long[1];
            mine[0]++;
            if (racy) n++;
            return mine[0];
        }
    }

    public static final class Box {
        public int value;

        public int read() {
            return value;
        }
    }

    public static final class Shared {
        public static final Box BOX = new Box();
    }

    public static final class Initialiser {
        static {
            Shared.BOX.value = 42;
        }
    }

    /** As a Scala object: the initialiser's constructor call sets the static field that publishes it. */
    public static final class Singleton {
        public static Singleton MODULE;
        public int value;

        static {
            new Singleton();
        }

        public Singleton() {
            value = 7;
            MODULE = this;
        }

        public static int get() {
            return MODULE.value;
        }

        public static void set(int v) {
            MODULE.value = v;
        }
    }

    /** Relaxed code handing an array over through a field its class declares volatile. */
    public static final class VolatileSlot {
        volatile int[] slot;

        public void publish() {
            slot = new int[] {9};
        }

        public int peek() {
            return slot[0];
        }
    }

    public static final class Settings {
        public static int[] values;

        public static void configure() {
            values = new int[] {4};
        }
    }

    /** As Jython's finalize trigger: its finalizer reads what its maker's thread wrote before. */
    public static final class Trigger {
        public int seen;

        @Override
        @SuppressWarnings("deprecation")
        public void finalize() {
            seen = Settings.values[0];
        }
    }

    /** Atomics, reached through SC accesses; the candidates are {@link Cells}'s. */
    public static final class Signals {
        final java.util.concurrent.atomic.AtomicReference<int[]> slot = new java.util.concurrent.atomic.AtomicReference<>();
        final java.util.concurrent.atomic.AtomicInteger flag = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.atomic.AtomicLong count = new java.util.concurrent.atomic.AtomicLong();
        final java.util.concurrent.atomic.AtomicReferenceArray<int[]> slots = new java.util.concurrent.atomic.AtomicReferenceArray<>(4);
        final int[] data = new int[1];

        public void post() {
            slot.set(new int[] {1, 2, 3});
        }

        public void postAt(int i) {
            slots.set(i, data);
        }

        public int[] receivedAt(int i) {
            return slots.get(i);
        }

        public int[] received() {
            return slot.get();
        }

        public int[] data() {
            return data;
        }

        public boolean signal(int expected) {
            return flag.compareAndSet(expected, expected + 1);
        }

        public int await() {
            return flag.get();
        }

        public void count() {
            count.incrementAndGet();
        }

        public long counted() {
            return count.get();
        }
    }

    public static final class Cells {
        public static void put(int[] a, int v) {
            a[0] = v;
        }

        public static int first(int[] a) {
            return a[0];
        }
    }

    /** As a Scala object whose initialiser another thread is still running when a reader needs it. */
    public static final class SlowSingleton {
        public static SlowSingleton MODULE;
        public int value;

        static {
            new SlowSingleton();
            try {
                InitGate.reached();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }

        public SlowSingleton() {
            value = 7;
            MODULE = this;
        }
    }

    public static final class SlowReader {
        public static int get() {
            return SlowSingleton.MODULE.value;
        }
    }

    public static final class Mailbox {
        int[] box;
        int flag;

        public void post() {
            box = new int[] {1, 2, 3};
        }

        public boolean peek() {
            return box != null;
        }

        public int take() {
            return sum(box);
        }

        public int sum(int[] t) {
            return t[0] + t[1] + t[2];
        }

        public int poll() {
            return flag + flag + flag;
        }

        public void raise() {
            flag = 1;
        }
    }

    private static final String PREFIX = ObserverTest.class.getName() + "$";

    /** Loads this test's nested classes instrumented, everything else from the test's own loader. */
    private static final class Instrumenting extends ClassLoader {
        private final Recorder recorder;

        Instrumenting(Recorder recorder) {
            super(ObserverTest.class.getClassLoader());
            this.recorder = recorder;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith(PREFIX)) return super.loadClass(name, resolve);
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c != null) return c;
                try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                    ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_MAXS);
                    ClassReader reader = new ClassReader(in);
                    reader.accept(new ObservingClassVisitor(w, recorder, ObservingClassVisitor.declaresFinalizer(reader)),
                            ClassReader.EXPAND_FRAMES);
                    byte[] b = w.toByteArray();
                    return defineClass(name, b, 0, b.length);
                } catch (IOException e) {
                    throw new ClassNotFoundException(name, e);
                }
            }
        }
    }

    private interface Step {
        void run(Instrumenting loader) throws Exception;
    }

    /** Runs each step on a thread of its own, one after the other; the observer's findings by candidate. */
    private Map<String, Map<?, ?>> observe(List<String> candidates, Step... steps) throws Exception {
        Recorder recorder = new Recorder(candidates);
        Observer.start(recorder);
        Instrumenting loader = new Instrumenting(recorder);
        try {
            int i = 0;
            for (Step step : steps) {
                Throwable[] failed = new Throwable[1];
                Thread t = new Thread(() -> {
                    try {
                        step.run(loader);
                    } catch (Throwable e) {
                        failed[0] = e;
                    }
                }, "step-" + (++i));
                t.start();
                t.join();
                if (failed[0] != null) throw new AssertionError("step " + i + " failed", failed[0]);
            }
        } finally {
            Observer.start(null);
        }
        Path out = dir.resolve("observed.json");
        recorder.write(out);
        report = (Map<?, ?>) Json.parse(Files.readString(out));
        Map<String, Map<?, ?>> byMethod = new HashMap<>();
        for (Object e : (List<?>) report.get("candidates")) {
            byMethod.put((String) ((Map<?, ?>) e).get("method"), (Map<?, ?>) e);
        }
        return byMethod;
    }

    private static Object make(Instrumenting loader, String simpleName) throws Exception {
        return loader.loadClass(PREFIX + simpleName).getConstructor().newInstance();
    }

    private static Object call(Object target, String method, Object... args) throws Exception {
        for (var m : target.getClass().getMethods()) {
            if (m.getName().equals(method) && m.getParameterCount() == args.length) {
                try {
                    return m.invoke(target, args);
                } catch (java.lang.reflect.InvocationTargetException e) {
                    if (e.getCause() instanceof Exception x) throw x;
                    throw e;
                }
            }
        }
        throw new NoSuchMethodException(method);
    }

    /** Asserts that the candidate's locations raced with nothing, and that some were shared. */
    private static void assertOrdered(Map<String, Map<?, ?>> seen, String candidate) {
        assertNull(seen.get(candidate).get("race"), seen.toString());
        assertTrue(number(seen.get(candidate), "ordered") > 0, seen.toString());
    }

    /** The race the candidate's locations had, asserted to be one. */
    private static String race(Map<String, Map<?, ?>> seen, String candidate) {
        String race = (String) seen.get(candidate).get("race");
        assertNotNull(race, seen.toString());
        return race;
    }

    private static long number(Map<?, ?> m, String key) {
        return ((Number) m.get(key)).longValue();
    }

    @Test
    void aCounterTwoThreadsWriteWithoutALockIsARaceThatNamesFieldSitesAndThreads() throws Exception {
        String add = PREFIX + "Counter#add()V";
        Object[] shared = new Object[1];
        var seen = observe(List.of(add),
                l -> call(shared[0] = make(l, "Counter"), "add"),
                l -> call(shared[0], "add"));
        String race = (String) seen.get(add).get("race");
        assertNotNull(race, seen.toString());
        assertTrue(race.startsWith(PREFIX + "Counter.n: "), race);
        assertTrue(race.contains("in thread \"step-1\"") && race.contains("in thread \"step-2\""), race);
        assertTrue(race.contains("Counter.add(ObserverTest.java:"), race);
        assertTrue(race.endsWith("not ordered by a lock, an SC access, a thread's start or join, or an executor's or future's hand-off"), race);
    }

    @Test
    void theFieldsAndArrayMethodsASecondThreadTouchedAreNamedAndNoOthers() throws Exception {
        Object[] counter = new Object[1];
        int[] cells = new int[1];
        Class<?>[] cellsClass = new Class<?>[1];
        observe(List.of(),
                l -> {
                    call(counter[0] = make(l, "Counter"), "add");
                    call(make(l, "Confined"), "fill");
                    (cellsClass[0] = l.loadClass(PREFIX + "Cells")).getMethod("put", int[].class, int.class).invoke(null, cells, 1);
                },
                l -> {
                    call(counter[0], "add");
                    call(make(l, "Confined"), "fill");
                    cellsClass[0].getMethod("first", int[].class).invoke(null, cells);
                });
        Map<?, ?> shared = (Map<?, ?>) report.get("shared");
        List<?> fields = (List<?>) shared.get("fields");
        assertEquals(1, fields.size(), shared.toString());
        Map<?, ?> n = (Map<?, ?>) fields.get(0);
        assertEquals(PREFIX + "Counter", n.get("class"));
        assertEquals("n", n.get("field"));
        assertEquals("long", n.get("type"));
        assertEquals("ObserverTest.java", n.get("sourceFile"));
        assertTrue(((List<?>) n.get("sites")).size() >= 2, n.toString());
        List<String> arrays = ((List<?>) shared.get("arrays")).stream()
                .map(a -> ((Map<?, ?>) a).get("class") + "#" + ((Map<?, ?>) a).get("method")).sorted().toList();
        // Confined's array and Counter never leave their thread
        assertEquals(List.of(PREFIX + "Cells#first", PREFIX + "Cells#put"), arrays);
        // allocated by the test, which the observer does not watch
        assertEquals(List.of(), ((Map<?, ?>) ((List<?>) shared.get("arrays")).get(0)).get("allocated"));
        // but they count among what the run touched: a bisection relaxes those throughout
        Map<?, ?> touched = (Map<?, ?>) shared.get("touched");
        assertEquals(List.of(PREFIX + "Counter#n"), touched.get("fields"));
        assertEquals(List.of(PREFIX + "Cells#first", PREFIX + "Cells#put", PREFIX + "Confined#fill"), touched.get("arrays"));
    }

    @Test
    void accessesOrderedByLocksAreNoRace() throws Exception {
        ReentrantLock lock = new ReentrantLock();
        List<String> methods = List.of(PREFIX + "Guarded#add()V", PREFIX + "Guarded#addLocked(Ljava/util/concurrent/locks/ReentrantLock;)V",
                PREFIX + "Guarded#addInBlock()V");
        Object[] monitorGuarded = new Object[1];
        Object[] lockGuarded = new Object[1];
        var seen = observe(methods,
                l -> {
                    call(monitorGuarded[0] = make(l, "Guarded"), "add");
                    call(lockGuarded[0] = make(l, "Guarded"), "addLocked", lock);
                },
                l -> {
                    call(monitorGuarded[0], "addInBlock");
                    call(lockGuarded[0], "addLocked", lock);
                });
        for (String m : methods) {
            assertNull(seen.get(m).get("race"), m + ": " + seen.get(m));
            assertEquals(1, number(seen.get(m), "ordered"), m + ": " + seen.get(m));
        }
    }

    @Test
    void objectsEachThreadMakesForItselfAreConfined() throws Exception {
        String fill = PREFIX + "Confined#fill()J";
        var seen = observe(List.of(fill), l -> call(make(l, "Confined"), "fill"), l -> call(make(l, "Confined"), "fill"));
        assertNull(seen.get(fill).get("race"), seen.toString());
        assertEquals(0, number(seen.get(fill), "ordered"), seen.toString());
        // per thread: its array and its Counter's field
        assertEquals(4, number(seen.get(fill), "confined"), seen.toString());
        // per call: eight element stores, one element load, one field load
        assertEquals(2 * 10, number(seen.get(fill), "accesses"), seen.toString());
    }

    @Test
    void aSynchronizedMethodLeftByAnExceptionReleasesItsMonitor() throws Exception {
        String addThenThrow = PREFIX + "Thrower#addThenThrow()V";
        Object[] shared = new Object[1];
        var seen = observe(List.of(addThenThrow),
                l -> {
                    shared[0] = make(l, "Thrower");
                    try {
                        call(shared[0], "addThenThrow");
                    } catch (IllegalStateException expected) {
                        // the monitor is released on the way out: the next taker is ordered after
                    }
                },
                l -> call(shared[0], "add"));
        assertNull(seen.get(addThenThrow).get("race"), seen.toString());
        assertEquals(1, number(seen.get(addThenThrow), "ordered"), seen.toString());
    }

    @Test
    void whatAnSCStorePublishesIsOrderedBeforeItsSCReaders() throws Exception {
        String sum = PREFIX + "Published#sum([I)I";
        var seen = observe(List.of(sum),
                l -> l.loadClass(PREFIX + "Published").getMethod("publish").invoke(null),
                l -> call(make(l, "Published"), "read"));
        assertNull(seen.get(sum).get("race"), seen.toString());
        assertEquals(1, number(seen.get(sum), "ordered"), seen.toString());
    }

    @Test
    void readsRepeatedInOneMomentStillRaceWithAnotherThreadsWrite() throws Exception {
        String poll = PREFIX + "Mailbox#poll()I";
        Object[] shared = new Object[1];
        var seen = observe(List.of(poll),
                l -> call(shared[0] = make(l, "Mailbox"), "poll"),
                l -> call(shared[0], "raise"));
        assertEquals(3, number(seen.get(poll), "accesses"), seen.toString());
        String race = (String) seen.get(poll).get("race");
        assertNotNull(race, seen.toString());
        assertTrue(race.startsWith(PREFIX + "Mailbox.flag: "), race);
    }

    /**
     * A thread's second SC read of a field, with nothing of its own between, is not the first one
     * again once another thread has written the field: it acquires what that write published.
     */
    @Test
    void anSCReadAcquiresAWriteMadeSinceTheThreadsLastReadOfTheField() throws Exception {
        String sum = PREFIX + "Mailbox#sum([I)I";
        var seen = observe(List.of(sum), l -> {
            Object mailbox = make(l, "Mailbox");
            call(mailbox, "peek");
            // started and joined by the test's own code, which the observer does not see: only the
            // SC write of box and its SC read order the poster's stores before the reads of sum
            Thread poster = new Thread(() -> {
                try {
                    call(mailbox, "post");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "poster");
            poster.start();
            poster.join();
            assertEquals(6, call(mailbox, "take"));
        });
        assertNull(seen.get(sum).get("race"), seen.toString());
        assertEquals(1, number(seen.get(sum), "ordered"), seen.toString());
    }

    @Test
    void aRelaxedReadOfAnSCStoreWithNothingBetweenIsARace() throws Exception {
        String sum = PREFIX + "Published#sum([I)I";
        Object[] table = new Object[1];
        var seen = observe(List.of(sum),
                l -> {
                    l.loadClass(PREFIX + "Published").getMethod("publish").invoke(null);
                    table[0] = l.loadClass(PREFIX + "Published").getField("table").get(null);
                },
                // the reference reached this thread outside the program: nothing orders the reads
                l -> call(make(l, "Published"), "sum", table[0]));
        String race = (String) seen.get(sum).get("race");
        assertNotNull(race, seen.toString());
        assertTrue(race.startsWith("int[]: write of int[] at " + PREFIX + "Published.publish("), race);
    }

    @Test
    void aThreadsStartAndJoinOrderItsAccesses() throws Exception {
        List<String> methods = List.of(PREFIX + "Forker#fill()V", PREFIX + "Forker#forkAndJoin()I");
        var seen = observe(methods, l -> call(make(l, "Forker"), "forkAndJoin"));
        for (String m : methods) assertNull(seen.get(m).get("race"), m + ": " + seen);
        // the array, and the field that holds it
        assertEquals(2, number(seen.get(PREFIX + "Forker#fill()V"), "ordered"), seen.toString());
    }

    /**
     * The observer sees the program's own accesses only: a thread that writes the program's array
     * through JDK code ({@code Arrays.fill}) races with a candidate's read unseen.
     */
    @Test
    void aRaceThroughJdkCodeIsNotSeen() throws Exception {
        String read = PREFIX + "Copier#read()I";
        var seen = observe(List.of(read),
                l -> call(make(l, "Copier"), "read"),
                l -> l.loadClass(PREFIX + "Copier").getMethod("fillIn", int.class).invoke(null, 7),
                l -> call(make(l, "Copier"), "read"));
        assertNull(seen.get(read).get("race"), "the JDK's write is unseen: " + seen);
    }

    /** {@code System.arraycopy}, native, is the program's own access: its write races with the read. */
    @Test
    void aRaceThroughArraycopyIsSeen() throws Exception {
        String read = PREFIX + "Copier#read()I";
        var seen = observe(List.of(read),
                l -> call(make(l, "Copier"), "read"),
                l -> l.loadClass(PREFIX + "Copier").getMethod("copyIn", int[].class).invoke(null, (Object) new int[] {1, 2}),
                l -> call(make(l, "Copier"), "read"));
        String race = (String) seen.get(read).get("race");
        assertNotNull(race, seen.toString());
        assertTrue(race.contains("System.arraycopy's destination") && race.contains("copyIn"), race);
    }

    /** A write is recorded once it is done: a store that threw wrote nothing, and races with nothing. */
    @Test
    void aStoreThatThrewWroteNothing() throws Exception {
        String read = PREFIX + "Copier#read()I";
        String store = PREFIX + "Copier#storePastTheEnd()V";
        var seen = observe(List.of(read, store),
                l -> call(make(l, "Copier"), "read"),
                l -> l.loadClass(PREFIX + "Copier").getMethod("storePastTheEnd").invoke(null),
                l -> call(make(l, "Copier"), "read"));
        assertNull(seen.get(read).get("race"), seen.toString());
        assertNull(seen.get(store).get("race"), seen.toString());
    }

    /** A copy of no elements touches none: copies to and from one shared empty array do not race. */
    @Test
    void copiesOfNoElementsThroughASharedEmptyArrayDoNotRace() throws Exception {
        String copyNone = PREFIX + "Copier#copyNone([I[I)V";
        Step intoEmpty = l -> {
            Class<?> c = l.loadClass(PREFIX + "Copier");
            c.getMethod("copyNone", int[].class, int[].class).invoke(null, new int[] {1}, c.getField("EMPTY").get(null));
        };
        Step outOfEmpty = l -> {
            Class<?> c = l.loadClass(PREFIX + "Copier");
            c.getMethod("copyNone", int[].class, int[].class).invoke(null, c.getField("EMPTY").get(null), new int[1]);
        };
        var seen = observe(List.of(copyNone), intoEmpty, outOfEmpty, intoEmpty);
        assertNull(seen.get(copyNone).get("race"), seen.toString());
    }

    /**
     * A class initialiser's accesses are not observed: one that writes an object another thread
     * reads relaxed, with nothing between, races unseen.
     */
    @Test
    void aRaceWithAClassInitialiserIsNotSeen() throws Exception {
        String read = PREFIX + "Box#read()I";
        Object[] box = new Object[1];
        var seen = observe(List.of(read),
                l -> call(box[0] = Class.forName(PREFIX + "Shared", true, l).getField("BOX").get(null), "read"),
                l -> Class.forName(PREFIX + "Initialiser", true, l),
                l -> call(box[0], "read"));
        assertNull(seen.get(read).get("race"), "the initialiser's write is unseen: " + seen);
    }

    @Test
    void whatAnInitialisersConstructorCallPublishesThroughAStaticIsOrderedBeforeOtherThreadsUse() throws Exception {
        String init = PREFIX + "Singleton#<init>()V";
        String get = PREFIX + "Singleton#get()I";
        String set = PREFIX + "Singleton#set(I)V";
        var seen = observe(List.of(init, get, set),
                l -> Class.forName(PREFIX + "Singleton", true, l),
                l -> l.loadClass(PREFIX + "Singleton").getMethod("get").invoke(null));
        assertNull(seen.get(init).get("race"), seen.toString());
        assertNull(seen.get(get).get("race"), seen.toString());
        assertEquals(2, number(seen.get(get), "ordered"), "MODULE and value, shared and ordered: " + seen);
        // the end of the initialiser orders only what came before it
        var racy = observe(List.of(get, set),
                l -> Class.forName(PREFIX + "Singleton", true, l),
                l -> l.loadClass(PREFIX + "Singleton").getMethod("set", int.class).invoke(null, 8),
                l -> l.loadClass(PREFIX + "Singleton").getMethod("get").invoke(null));
        String race = (String) racy.get(get).get("race");
        assertNotNull(race, racy.toString());
        assertTrue(race.startsWith(PREFIX + "Singleton.value: "), race);
    }

    /** A field declared volatile stays volatile in relaxed code: a candidate's write of it releases, another's read acquires. */
    @Test
    void aVolatileFieldOrdersWhatRelaxedCodeHandsOverThroughIt() throws Exception {
        String publish = PREFIX + "VolatileSlot#publish()V";
        String peek = PREFIX + "VolatileSlot#peek()I";
        Object[] published = new Object[1];
        var seen = observe(List.of(publish, peek),
                l -> call(published[0] = make(l, "VolatileSlot"), "publish"),
                l -> assertEquals(9, call(published[0], "peek")));
        assertNull(seen.get(publish).get("race"), seen.toString());
        assertOrdered(seen, peek);
    }

    /**
     * The end of an object's constructor happens before the start of its finalizer, on whatever
     * thread runs it: what the maker did before is ordered before it, what it did after is not.
     * (The finalizer is called here by a thread of the test's, as the JVM's finalizer thread would.)
     */
    @Test
    void whatCameBeforeAnObjectsConstructorEndedIsOrderedBeforeItsFinalizer() throws Exception {
        String configure = PREFIX + "Settings#configure()V";
        String finalizer = PREFIX + "Trigger#finalize()V";
        Object[] trigger = new Object[1];
        var ordered = observe(List.of(configure, finalizer),
                l -> {
                    l.loadClass(PREFIX + "Settings").getMethod("configure").invoke(null);
                    trigger[0] = make(l, "Trigger");
                },
                l -> call(trigger[0], "finalize"));
        assertOrdered(ordered, finalizer);
        var racy = observe(List.of(configure, finalizer),
                l -> {
                    trigger[0] = make(l, "Trigger");
                    l.loadClass(PREFIX + "Settings").getMethod("configure").invoke(null);
                },
                l -> call(trigger[0], "finalize"));
        String race = race(racy, finalizer);
        assertTrue(race.startsWith(PREFIX + "Settings.values: write of " + PREFIX + "Settings.values at " + PREFIX
                + "Settings.configure"), race);
    }

    /** An object set in an {@code AtomicReference} is ordered before what the thread that gets it does with it. */
    @Test
    void whatAnAtomicReferenceHandsOverIsOrdered() throws Exception {
        String first = PREFIX + "Cells#first([I)I";
        Object[] signals = new Object[1];
        var seen = observe(List.of(first),
                l -> call(signals[0] = make(l, "Signals"), "post"),
                l -> assertEquals(1, cells(l, "first", call(signals[0], "received"))));
        assertOrdered(seen, first);
    }

    /** An atomic array's element is a location of its own: a get of it is ordered after the set of it, not of another. */
    @Test
    void whatAnAtomicArraysElementHandsOverIsOrderedAndAnotherElementOrdersNothing() throws Exception {
        String put = PREFIX + "Cells#put([II)V";
        String first = PREFIX + "Cells#first([I)I";
        Object[] signals = new Object[1];
        Step fill = l -> {
            cells(l, "put", call(signals[0] = make(l, "Signals"), "data"), 5);
            call(signals[0], "postAt", 1);
        };
        var ordered = observe(List.of(put, first), fill,
                l -> assertEquals(5, cells(l, "first", call(signals[0], "receivedAt", 1))));
        assertNull(ordered.get(first).get("race"), ordered.toString());
        var racy = observe(List.of(put, first), fill,
                l -> {
                    assertNull(call(signals[0], "receivedAt", 2));
                    assertEquals(5, cells(l, "first", call(signals[0], "data")));
                });
        String race = race(racy, first);
        assertTrue(race.startsWith("int[]: write of int[] at " + PREFIX + "Cells.put"), race);
    }

    /**
     * A successful compare-and-set writes the atomic, and a read of it after is ordered after what
     * came before; a failed one only reads it, and orders nothing; an increment writes it.
     */
    @Test
    void aSuccessfulCompareAndSetOrdersAndAFailedOneDoesNot() throws Exception {
        String put = PREFIX + "Cells#put([II)V";
        String first = PREFIX + "Cells#first([I)I";
        Object[] signals = new Object[1];
        var ordered = observe(List.of(put, first),
                l -> {
                    cells(l, "put", call(signals[0] = make(l, "Signals"), "data"), 5);
                    assertEquals(true, call(signals[0], "signal", 0));
                },
                l -> {
                    assertEquals(1, call(signals[0], "await"));
                    assertEquals(5, cells(l, "first", call(signals[0], "data")));
                });
        assertNull(ordered.get(first).get("race"), ordered.toString());
        var failed = observe(List.of(put, first),
                l -> {
                    cells(l, "put", call(signals[0] = make(l, "Signals"), "data"), 5);
                    assertEquals(false, call(signals[0], "signal", 1));
                },
                l -> {
                    assertEquals(0, call(signals[0], "await"));
                    assertEquals(5, cells(l, "first", call(signals[0], "data")));
                });
        String race = race(failed, first);
        assertTrue(race.startsWith("int[]: write of int[] at " + PREFIX + "Cells.put"), race);
        var counted = observe(List.of(put, first),
                l -> {
                    cells(l, "put", call(signals[0] = make(l, "Signals"), "data"), 5);
                    call(signals[0], "count");
                },
                l -> {
                    assertEquals(1L, call(signals[0], "counted"));
                    assertEquals(5, cells(l, "first", call(signals[0], "data")));
                });
        assertNull(counted.get(first).get("race"), counted.toString());
    }

    private static Object cells(Instrumenting loader, String method, Object... args) throws Exception {
        for (var m : loader.loadClass(PREFIX + "Cells").getMethods()) {
            if (m.getName().equals(method)) return m.invoke(null, args);
        }
        throw new NoSuchMethodException(method);
    }

    /**
     * A reader whose first use of a class waits in its {@code getstatic} for the initialiser another
     * thread is running is ordered after that initialiser's end, which it can only acquire once the
     * wait is over.
     */
    @Test
    void aReadOfAStaticThatWaitedForAnotherThreadsInitialiserIsOrderedAfterIt() throws Exception {
        String get = PREFIX + "SlowReader#get()I";
        InitGate.arm();
        Thread[] initialiser = new Thread[1];
        var seen = observe(List.of(get),
                l -> {
                    initialiser[0] = new Thread(() -> {
                        try {
                            Class.forName(PREFIX + "SlowSingleton", true, l);
                        } catch (ClassNotFoundException e) {
                            throw new IllegalStateException(e);
                        }
                    }, "initialiser");
                    initialiser[0].start();
                    InitGate.awaitEntered();
                },
                l -> {
                    Thread reader = Thread.currentThread();
                    Thread opener = new Thread(() -> {
                        // open once the reader is inside get(), at the getstatic that waits
                        while (java.util.Arrays.stream(reader.getStackTrace()).noneMatch(f -> f.getMethodName().equals("get")
                                && f.getClassName().endsWith("SlowReader"))) {
                            Thread.onSpinWait();
                        }
                        try {
                            Thread.sleep(100);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        InitGate.open();
                    }, "opener");
                    opener.start();
                    assertEquals(7, l.loadClass(PREFIX + "SlowReader").getMethod("get").invoke(null));
                    opener.join();
                    initialiser[0].join();
                });
        assertNull(seen.get(get).get("race"), seen.toString());
        assertEquals(2, number(seen.get(get), "ordered"), "MODULE and value, shared and ordered: " + seen);
    }

    /** One run shows what it did: a race on a path the observed run did not take is not seen. */
    /**
     * What the JDK's thread pools and futures do in their own code ({@link JdkHandOffs}), done here by
     * the steps themselves: a take-over is ordered after the hand-off before it; where one object was
     * handed over twice before it was taken, the taker cannot tell which hand-off it took, and is
     * ordered after only what both came after; once every hand-off was taken, the next is exact again.
     */
    @Test
    void aTakeOverIsOrderedAfterOnlyWhatEveryHandOffNotYetTakenCameAfter() throws Exception {
        String add = PREFIX + "Counter#add()V";
        Object task = new Object();
        Object[] counters = new Object[4];
        var seen = observe(List.of(add),
                l -> {
                    call(counters[0] = make(l, "Counter"), "add");
                    Observer.handingOver(task);
                },
                l -> {
                    Observer.takingOver(task);
                    call(counters[0], "add");
                },
                l -> {
                    call(counters[1] = make(l, "Counter"), "add");
                    Observer.handingOver(task);
                },
                l -> {
                    call(counters[2] = make(l, "Counter"), "add");
                    Observer.handingOver(task);
                },
                l -> {
                    Observer.takingOver(task); // step 3's hand-off, or step 4's
                    call(counters[2], "add");
                },
                l -> Observer.takingOver(task),
                l -> {
                    call(counters[3] = make(l, "Counter"), "add");
                    Observer.handingOver(task);
                },
                l -> {
                    Observer.takingOver(task);
                    call(counters[3], "add");
                });
        String race = (String) seen.get(add).get("race");
        assertNotNull(race, seen.toString());
        assertTrue(race.contains("in thread \"step-4\"") && race.contains("in thread \"step-5\""), race);
        assertEquals(2, number(seen.get(add), "ordered"), seen.toString());
    }

    @Test
    void aRaceOnAPathTheRunDidNotTakeIsNotSeen() throws Exception {
        String add = PREFIX + "Flagged#add(Z)J";
        Object[] shared = new Object[1];
        var seen = observe(List.of(add),
                l -> call(shared[0] = make(l, "Flagged"), "add", false),
                l -> call(shared[0], "add", false));
        assertNull(seen.get(add).get("race"), "the racy path never ran: " + seen);
        // what did run looks safe to relax: its own array, confined
        assertEquals(2, number(seen.get(add), "confined"), seen.toString());
    }
}
