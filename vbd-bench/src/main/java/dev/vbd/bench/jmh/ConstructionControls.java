package dev.vbd.bench.jmh;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * Shipilev's controls for safe construction ("All Fields Are Final"): allocate and construct an
 * object of N int fields, N from 0 to 64, all final ({@code F*}) or all plain ({@code P*}); the
 * object is returned, so JMH escapes it and the allocation is not optimised away. Under
 * {@code --mode safe-construction} the negative control, the all-final classes, must cost what it
 * costs on stock Java (a final field's constructor is already fenced); the positive control, the
 * all-plain classes, must come to cost what the all-final ones do. The classes are written out
 * one by one, as in the original benchmark, so that each constructor is the JIT's plain case.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ConstructionControls {
    int v = 42;

    static final class F0 {
        F0(int v) { }
    }

    static final class F1 {
        final int f0;

        F1(int v) { f0 = v; }
    }

    static final class F2 {
        final int f0, f1;

        F2(int v) { f0 = v; f1 = v; }
    }

    static final class F4 {
        final int f0, f1, f2, f3;

        F4(int v) { f0 = v; f1 = v; f2 = v; f3 = v; }
    }

    static final class F8 {
        final int f0, f1, f2, f3, f4, f5, f6, f7;

        F8(int v) { f0 = v; f1 = v; f2 = v; f3 = v; f4 = v; f5 = v; f6 = v; f7 = v; }
    }

    static final class F16 {
        final int f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15;

        F16(int v) {
            f0 = v; f1 = v; f2 = v; f3 = v; f4 = v; f5 = v; f6 = v; f7 = v; f8 = v; f9 = v; f10 = v; f11 = v;
            f12 = v; f13 = v; f14 = v; f15 = v;
        }
    }

    static final class F32 {
        final int f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                f22, f23, f24, f25, f26, f27, f28, f29, f30, f31;

        F32(int v) {
            f0 = v; f1 = v; f2 = v; f3 = v; f4 = v; f5 = v; f6 = v; f7 = v; f8 = v; f9 = v; f10 = v; f11 = v;
            f12 = v; f13 = v; f14 = v; f15 = v; f16 = v; f17 = v; f18 = v; f19 = v; f20 = v; f21 = v; f22 = v;
            f23 = v; f24 = v; f25 = v; f26 = v; f27 = v; f28 = v; f29 = v; f30 = v; f31 = v;
        }
    }

    static final class F64 {
        final int f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58, f59, f60, f61,
                f62, f63;

        F64(int v) {
            f0 = v; f1 = v; f2 = v; f3 = v; f4 = v; f5 = v; f6 = v; f7 = v; f8 = v; f9 = v; f10 = v; f11 = v;
            f12 = v; f13 = v; f14 = v; f15 = v; f16 = v; f17 = v; f18 = v; f19 = v; f20 = v; f21 = v; f22 = v;
            f23 = v; f24 = v; f25 = v; f26 = v; f27 = v; f28 = v; f29 = v; f30 = v; f31 = v; f32 = v; f33 = v;
            f34 = v; f35 = v; f36 = v; f37 = v; f38 = v; f39 = v; f40 = v; f41 = v; f42 = v; f43 = v; f44 = v;
            f45 = v; f46 = v; f47 = v; f48 = v; f49 = v; f50 = v; f51 = v; f52 = v; f53 = v; f54 = v; f55 = v;
            f56 = v; f57 = v; f58 = v; f59 = v; f60 = v; f61 = v; f62 = v; f63 = v;
        }
    }

    static final class P0 {
        P0(int v) { }
    }

    static final class P1 {
        int f0;

        P1(int v) { f0 = v; }
    }

    static final class P2 {
        int f0, f1;

        P2(int v) { f0 = v; f1 = v; }
    }

    static final class P4 {
        int f0, f1, f2, f3;

        P4(int v) { f0 = v; f1 = v; f2 = v; f3 = v; }
    }

    static final class P8 {
        int f0, f1, f2, f3, f4, f5, f6, f7;

        P8(int v) { f0 = v; f1 = v; f2 = v; f3 = v; f4 = v; f5 = v; f6 = v; f7 = v; }
    }

    static final class P16 {
        int f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15;

        P16(int v) {
            f0 = v; f1 = v; f2 = v; f3 = v; f4 = v; f5 = v; f6 = v; f7 = v; f8 = v; f9 = v; f10 = v; f11 = v;
            f12 = v; f13 = v; f14 = v; f15 = v;
        }
    }

    static final class P32 {
        int f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                f22, f23, f24, f25, f26, f27, f28, f29, f30, f31;

        P32(int v) {
            f0 = v; f1 = v; f2 = v; f3 = v; f4 = v; f5 = v; f6 = v; f7 = v; f8 = v; f9 = v; f10 = v; f11 = v;
            f12 = v; f13 = v; f14 = v; f15 = v; f16 = v; f17 = v; f18 = v; f19 = v; f20 = v; f21 = v; f22 = v;
            f23 = v; f24 = v; f25 = v; f26 = v; f27 = v; f28 = v; f29 = v; f30 = v; f31 = v;
        }
    }

    static final class P64 {
        int f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58, f59, f60, f61,
                f62, f63;

        P64(int v) {
            f0 = v; f1 = v; f2 = v; f3 = v; f4 = v; f5 = v; f6 = v; f7 = v; f8 = v; f9 = v; f10 = v; f11 = v;
            f12 = v; f13 = v; f14 = v; f15 = v; f16 = v; f17 = v; f18 = v; f19 = v; f20 = v; f21 = v; f22 = v;
            f23 = v; f24 = v; f25 = v; f26 = v; f27 = v; f28 = v; f29 = v; f30 = v; f31 = v; f32 = v; f33 = v;
            f34 = v; f35 = v; f36 = v; f37 = v; f38 = v; f39 = v; f40 = v; f41 = v; f42 = v; f43 = v; f44 = v;
            f45 = v; f46 = v; f47 = v; f48 = v; f49 = v; f50 = v; f51 = v; f52 = v; f53 = v; f54 = v; f55 = v;
            f56 = v; f57 = v; f58 = v; f59 = v; f60 = v; f61 = v; f62 = v; f63 = v;
        }
    }

    @Benchmark
    public Object final_00() {
        return new F0(v);
    }

    @Benchmark
    public Object final_01() {
        return new F1(v);
    }

    @Benchmark
    public Object final_02() {
        return new F2(v);
    }

    @Benchmark
    public Object final_04() {
        return new F4(v);
    }

    @Benchmark
    public Object final_08() {
        return new F8(v);
    }

    @Benchmark
    public Object final_16() {
        return new F16(v);
    }

    @Benchmark
    public Object final_32() {
        return new F32(v);
    }

    @Benchmark
    public Object final_64() {
        return new F64(v);
    }

    @Benchmark
    public Object plain_00() {
        return new P0(v);
    }

    @Benchmark
    public Object plain_01() {
        return new P1(v);
    }

    @Benchmark
    public Object plain_02() {
        return new P2(v);
    }

    @Benchmark
    public Object plain_04() {
        return new P4(v);
    }

    @Benchmark
    public Object plain_08() {
        return new P8(v);
    }

    @Benchmark
    public Object plain_16() {
        return new P16(v);
    }

    @Benchmark
    public Object plain_32() {
        return new P32(v);
    }

    @Benchmark
    public Object plain_64() {
        return new P64(v);
    }

}
