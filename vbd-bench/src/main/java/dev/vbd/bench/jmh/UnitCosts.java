package dev.vbd.bench.jmh;

import dev.vbd.Relaxed;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * The unit costs of sequential consistency, one heap access pattern each. Under vbd every field
 * here is made volatile and every array access fenced; the harness runs JMH's own classes relaxed,
 * so that what differs between stock and vbd is the benchmark body alone. The same config relaxes
 * every method of {@link ArrayDeque}, a JDK class, for {@link #jdkMethodRelaxed}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class UnitCosts {
    private static final int N = 1024;

    int field;
    int token = 42;
    /** {@link #allocation}'s input: relaxed, so that its loads cost nothing under vbd and only the allocation differs. */
    @Relaxed
    int seed = 42;
    final int[] array = new int[N];
    Holder holder = new Holder(7);
    final ArrayDeque<Object> deque = new ArrayDeque<>(16);

    static final class Holder {
        int value;

        Holder(int value) {
            this.value = value;
        }
    }

    static final class Point {
        int x;
        int y;

        Point(int x, int y) {
            this.x = x;
            this.y = y;
        }
    }

    /** One store to a field: a plain mov on stock; ordered against later loads under vbd. */
    @Benchmark
    public void fieldStore() {
        field = token;
    }

    /** The same store in a relaxed method: should cost what stock does. */
    @Benchmark
    @Relaxed("benchmark state, touched by the benchmark thread only")
    public void fieldStoreRelaxed() {
        field = token;
    }

    /** Stores to consecutive array elements; stock vectorises the loop, vbd orders every store. */
    @Benchmark
    @OperationsPerInvocation(N)
    public void arrayStore() {
        int[] a = array;
        for (int i = 0; i < a.length; i++) a[i] = i;
    }

    /** Loads of consecutive array elements, summed; stock vectorises the loop, vbd orders every load. */
    @Benchmark
    @OperationsPerInvocation(N)
    public int arrayLoad() {
        int[] a = array;
        int sum = 0;
        for (int i = 0; i < a.length; i++) sum += a[i];
        return sum;
    }

    /**
     * The same field read in a loop: stock reads it once, hoisted out of the loop; an SC load may not
     * be hoisted, so vbd reads it every trip.
     */
    @Benchmark
    @OperationsPerInvocation(N)
    public int fieldLoadLoop() {
        int sum = 0;
        for (int i = 0; i < N; i++) sum += holder.value;
        return sum;
    }

    /** The same loop in a relaxed method: the load may be hoisted again, as on stock. */
    @Benchmark
    @OperationsPerInvocation(N)
    @Relaxed("benchmark state, touched by the benchmark thread only")
    public int fieldLoadLoopRelaxed() {
        int sum = 0;
        for (int i = 0; i < N; i++) sum += holder.value;
        return sum;
    }

    /**
     * Relaxed JDK methods: {@code ArrayDeque.addLast} and {@code pollFirst} store its {@code head}
     * and {@code tail} fields and an element of its array; relaxed, they should cost what stock does.
     */
    @Benchmark
    public Object jdkMethodRelaxed() {
        deque.addLast(holder);
        return deque.pollFirst();
    }

    /**
     * A scratch array that never leaves the method: filled, then summed. Its element accesses need
     * no fences, since no other thread can see the array.
     */
    @Benchmark
    @OperationsPerInvocation(N)
    public int localArray() {
        int k = token;
        int[] t = new int[N];
        for (int i = 0; i < N; i++) t[i] = i ^ k;
        int sum = 0;
        for (int i = 0; i < N; i++) sum += t[i];
        return sum;
    }

    /** An allocation whose constructor stores two fields, returned so that it escapes. */
    @Benchmark
    public Object allocation() {
        return new Point(seed, seed + 1);
    }
}
