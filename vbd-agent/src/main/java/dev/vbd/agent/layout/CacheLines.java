package dev.vbd.agent.layout;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * A model of the cache lines the program's threads share, fed every access the probe sees. Each
 * access lands at an address: the object's place plus the field's offset, or the array's plus the
 * element's, as the JVM lays them out ({@link Offsets}). An object's place is modelled: objects a
 * thread constructs, and arrays it allocates, lie one after the other in that thread's allocation
 * buffer, as HotSpot's thread-local allocation does; an object allocated where nothing was watched
 * lies alone. The JVM aligns objects to 8 bytes only, so where a line starts is unknown: the model
 * keeps two grids of lines, half a line apart, so that two addresses closer than half a line share
 * a line in at least one of them, wherever the JVM put the object; a finding counts the misses of
 * the grid where it has more.
 *
 * <p>A line keeps which threads hold a copy, and what was last written to each of its words. A
 * thread that touches a line whose copy other threads' writes took from it pays a coherence miss:
 * true sharing for a write to the very bytes it touches, false sharing for each write to others,
 * which only a different layout can spare it. Each is tallied by its pair of targets
 * ({@link Finding}). The lines live in a direct-mapped table of {@value #SLOTS} (2 MiB of 64-byte
 * lines); a line that another evicts starts afresh, as in a cache of that size.
 */
final class CacheLines {
    static final int LINE_SHIFT = 6;
    /** Two grids of lines, half a line apart: two addresses closer than half a line share a line in one of them. */
    static final int GRIDS = 2;
    static final long GRID_OFFSET = 32;
    static final int SLOT_BITS = 15;
    static final int SLOTS = 1 << SLOT_BITS;
    private static final int PLACES = 1 << 18;
    private static final int STRIPES = 256;
    /** The arena of an object placed alone: its identity hash beside this bit. */
    private static final long ALONE = 1L << 40;

    enum Kind { TRUE_SHARING, FIELDS, NEIGHBOURS, ELEMENTS, STATICS }

    /** The misses between two targets (a and b, a &lt;= b) of one kind. */
    static final class Finding {
        final Kind kind;
        final int a;
        final int b;
        /** Per grid ({@link #GRIDS}). */
        final long[] misses = new long[GRIDS];
        /** The threads that missed or whose write caused a miss, one bit each. */
        long threads;
        /** The least distance in bytes between the two addresses of a miss. */
        long distance = Long.MAX_VALUE;

        Finding(Kind kind, int a, int b) {
            this.kind = kind;
            this.a = a;
            this.b = b;
        }
    }

    /**
     * One modelled line: which threads hold a copy, and per 8-byte word its last write (by whom, of
     * what, when). A write's time is the line's count of writes; each of the last few threads to
     * touch the line keeps the time it last held a copy, so that a miss is blamed on the writes it
     * did not see.
     */
    private static final class Line {
        static final int WORDS = 1 << (LINE_SHIFT - 3);
        static final int HELD = 4;
        long arena;
        long number;
        long holders;
        long writes;
        final int[] writer = new int[WORDS];
        final int[] writtenTarget = new int[WORDS];
        final long[] written = new long[WORDS];
        final long[] writtenBase = new long[WORDS];
        final long[] writtenAt = new long[WORDS];
        final int[] heldBy = new int[HELD];
        final long[] heldAt = new long[HELD];
        int nextHeld;

        void reset(long arena, long number) {
            this.arena = arena;
            this.number = number;
            holders = 0;
            writes = 0;
            java.util.Arrays.fill(writtenAt, 0);
            java.util.Arrays.fill(heldBy, -1);
        }

        /** When {@code thread} last held a copy; -1 when it is not among the last few to. */
        long heldAt(int thread) {
            for (int i = 0; i < HELD; i++) {
                if (heldBy[i] == thread) return heldAt[i];
            }
            return -1;
        }

        void held(int thread) {
            for (int i = 0; i < HELD; i++) {
                if (heldBy[i] == thread) {
                    heldAt[i] = writes;
                    return;
                }
            }
            heldBy[nextHeld] = thread;
            heldAt[nextHeld] = writes;
            nextHeld = (nextHeld + 1) % HELD;
        }
    }

    /** An object's modelled place. */
    private record Place(int hash, long arena, long base, int site) {}

    private static final class ThreadState {
        final int index;
        final long arena;
        long bump;

        ThreadState(int index) {
            this.index = index;
            this.arena = index + 1;
        }
    }

    private final Targets targets;
    private final Offsets offsets;
    private final Instrumentation inst;
    private final Line[] lines = new Line[SLOTS];
    private final Object[] stripes = new Object[STRIPES];
    private final Place[] places = new Place[PLACES];
    private final Map<Long, Finding> findings = new ConcurrentHashMap<>();
    private final LongAdder accesses = new LongAdder();
    private final AtomicInteger threadCount = new AtomicInteger();
    private final List<String> threadNames = new ArrayList<>();
    private final ThreadLocal<ThreadState> threads = ThreadLocal.withInitial(this::newThread);
    private final ClassValue<long[]> sizes = new ClassValue<>() {
        @Override
        protected long[] computeValue(Class<?> c) {
            return new long[1];
        }
    };
    private final ClassValue<Integer> unseenArrays = new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> c) {
            return CacheLines.this.targets.unseenArrays(c.getTypeName());
        }
    };

    CacheLines(Targets targets, Offsets offsets, Instrumentation inst) {
        this.targets = targets;
        this.offsets = offsets;
        this.inst = inst;
        for (int i = 0; i < STRIPES; i++) stripes[i] = new Object();
    }

    private ThreadState newThread() {
        int index = threadCount.getAndIncrement();
        synchronized (threadNames) {
            threadNames.add(Thread.currentThread().getName());
        }
        return new ThreadState(index);
    }

    void field(Object o, int targetId, boolean write) {
        Targets.Target t = targets.get(targetId);
        long offset = t.offset;
        if (offset == -1) offset = offsets.resolve(t, o.getClass());
        if (offset < 0) return;
        int h = System.identityHashCode(o);
        Place p = places[slot(h)];
        if (p != null && p.hash == h) {
            access(p.arena, p.base, p.base + offset, t, write);
        } else {
            access(ALONE | (h & 0xFFFFFFFFL), 0, offset, t, write);
        }
    }

    void staticField(Class<?> owner, int targetId, boolean write) {
        Targets.Target t = targets.get(targetId);
        long offset = t.offset;
        if (offset == -1) offset = offsets.resolveStatic(t, owner);
        if (offset < 0) return;
        access(ALONE | (System.identityHashCode(t.holder) & 0xFFFFFFFFL), 0, offset, t, write);
    }

    void element(Object a, int i, boolean write) {
        if (i < 0 || i >= java.lang.reflect.Array.getLength(a)) return;
        long[] shape = offsets.array(a.getClass());
        int h = System.identityHashCode(a);
        Place p = places[slot(h)];
        if (p != null && p.hash == h && p.site >= 0) {
            access(p.arena, p.base, p.base + shape[0] + i * shape[1], targets.get(p.site), write);
        } else {
            access(ALONE | (h & 0xFFFFFFFFL), 0, shape[0] + i * shape[1], targets.get(unseenArrays.get(a.getClass())), write);
        }
    }

    void constructed(Object o) {
        int h = System.identityHashCode(o);
        int slot = slot(h);
        Place p = places[slot];
        // the constructors of its superclasses came first
        if (p != null && p.hash == h) return;
        long[] size = sizes.get(o.getClass());
        if (size[0] == 0) size[0] = inst.getObjectSize(o);
        place(slot, h, size[0], -1);
    }

    void allocated(Object a, int site) {
        int h = System.identityHashCode(a);
        long[] shape = offsets.array(a.getClass());
        long size = (shape[0] + java.lang.reflect.Array.getLength(a) * shape[1] + 7) & ~7L;
        place(slot(h), h, size, site);
    }

    private void place(int slot, int h, long size, int site) {
        ThreadState t = threads.get();
        places[slot] = new Place(h, t.arena, t.bump, site);
        t.bump += size;
    }

    private static int slot(int h) {
        return (h * 0x9E3779B9) >>> (32 - 18);
    }

    private void access(long arena, long base, long address, Targets.Target target, boolean write) {
        int thread = threads.get().index & 63;
        accesses.increment();
        target.count(thread, write);
        for (int grid = 0; grid < GRIDS; grid++) access(grid, thread, arena, base, address, target, write);
    }

    private void access(int grid, int thread, long arena, long base, long address, Targets.Target target, boolean write) {
        arena = arena << 1 | grid;
        long number = (address + grid * GRID_OFFSET) >>> LINE_SHIFT;
        long mix = (arena * 0x9E3779B97F4A7C15L) ^ (number * 0xC2B2AE3D27D4EB4FL);
        int slot = (int) (mix >>> (64 - SLOT_BITS));
        long bit = 1L << thread;
        int word = (int) (address >>> 3) & (Line.WORDS - 1);
        synchronized (stripes[slot & (STRIPES - 1)]) {
            Line l = lines[slot];
            if (l == null) {
                l = new Line();
                lines[slot] = l;
                l.reset(arena, number);
            } else if (l.arena != arena || l.number != number) {
                l.reset(arena, number);
            }
            if ((l.holders & bit) == 0 && l.writes > 0) {
                long since = l.heldAt(thread);
                // a thread that never held the line, or not lately, misses for want of it: no one's doing
                if (since >= 0) {
                    for (int w = 0; w < Line.WORDS; w++) {
                        if (l.writtenAt[w] > since && l.writer[w] != thread) miss(grid, l, w, thread, base, address, target);
                    }
                }
            }
            if (write) {
                l.holders = bit;
                l.writes++;
                l.writer[word] = thread;
                l.writtenTarget[word] = target.id;
                l.written[word] = address;
                l.writtenBase[word] = base;
                l.writtenAt[word] = l.writes;
            } else {
                l.holders |= bit;
            }
            l.held(thread);
        }
    }

    /** A miss of {@code thread} at {@code address}, caused by another thread's write to word {@code w} of the line. */
    private void miss(int grid, Line l, int w, int thread, long base, long address, Targets.Target target) {
        Targets.Target other = targets.get(l.writtenTarget[w]);
        Kind kind;
        if (address == l.written[w]) {
            kind = Kind.TRUE_SHARING;
        } else if (target.kind == Targets.Kind.STATIC && other.kind == Targets.Kind.STATIC) {
            kind = Kind.STATICS;
        } else if (base != l.writtenBase[w]) {
            kind = Kind.NEIGHBOURS;
        } else {
            kind = target.kind == Targets.Kind.ARRAY ? Kind.ELEMENTS : Kind.FIELDS;
        }
        int a = Math.min(target.id, other.id);
        int b = Math.max(target.id, other.id);
        long key = ((long) kind.ordinal() << 60) | ((long) a << 30) | b;
        Finding f = findings.computeIfAbsent(key, k -> new Finding(kind, a, b));
        synchronized (f) {
            f.misses[grid]++;
            f.threads |= (1L << thread) | (1L << l.writer[w]);
            f.distance = Math.min(f.distance, Math.abs(address - l.written[w]));
        }
    }

    long accesses() {
        return accesses.sum();
    }

    List<Finding> findings() {
        return new ArrayList<>(findings.values());
    }

    /** The names of the threads by index (their first access's), the first 64. */
    List<String> threadNames() {
        synchronized (threadNames) {
            return new ArrayList<>(threadNames.subList(0, Math.min(64, threadNames.size())));
        }
    }
}
