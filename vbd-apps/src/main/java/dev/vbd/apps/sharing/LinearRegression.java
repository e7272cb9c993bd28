package dev.vbd.apps.sharing;

/**
 * Objects allocated next to each other, from real code: the kernel of Phoenix's
 * {@code linear_regression} (Ranger et al., HPCA 2007), whose false sharing TMI and the tools before
 * it were measured on. The main thread allocates one argument object per worker in one loop; each
 * worker sums x, y, x², y² and xy over its run of points straight into its own object's fields, as
 * {@code args->SX += args->points[i].x} does. The objects are 72 bytes each, so neighbours share a
 * line wherever the JVM places them. Fixed by hand: the sums padded apart from the neighbours with 15
 * longs on each side, a layout fix as the tools' manual repairs are (summing into locals and storing
 * once at the end would also save the stores, which no layout can).
 */
public final class LinearRegression extends SharingWorkload {
    /** Points a thread's run cycles through: 2 MiB of (x, y) bytes, read in order as the original reads its file. */
    static final int POINTS = 1 << 20;

    static final class Args {
        final byte[] points;
        final int part;
        Thread thread;
        long sx;
        long sy;
        long sxx;
        long syy;
        long sxy;

        Args(byte[] points, int part) {
            this.points = points;
            this.part = part;
        }
    }

    static final class PaddedArgs {
        final byte[] points;
        final int part;
        Thread thread;
        long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
        long sx;
        long sy;
        long sxx;
        long syy;
        long sxy;
        long q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;

        PaddedArgs(byte[] points, int part) {
            this.points = points;
            this.part = part;
        }
    }

    LinearRegression(boolean fixed) {
        super(fixed);
    }

    public static void main(String[] args) {
        new LinearRegression(false).main("fs-linreg", args, 40);
    }

    public static final class Fixed {
        public static void main(String[] args) {
            new LinearRegression(true).main("fs-linreg-fixed", args, 40);
        }
    }

    @Override
    protected Object setUp(int threads, boolean fixed) {
        byte[] points = new byte[2 * POINTS];
        for (int i = 0; i < points.length; i++) points[i] = (byte) value(i);
        Object[] args = new Object[threads];
        for (int t = 0; t < threads; t++) args[t] = fixed ? new PaddedArgs(points, t) : new Args(points, t);
        return args;
    }

    @Override
    protected long run(Object state, int part, int parts, long total, boolean fixed) {
        long first = first(total, parts, part);
        long end = first + steps(total, parts, part);
        if (fixed) {
            PaddedArgs a = (PaddedArgs) ((Object[]) state)[part];
            a.thread = Thread.currentThread();
            for (long i = first; i < end; i++) {
                int p = (int) (i & (POINTS - 1)) << 1;
                long x = a.points[p];
                long y = a.points[p + 1];
                a.sx += x;
                a.sxx += x * x;
                a.sy += y;
                a.syy += y * y;
                a.sxy += x * y;
            }
            return a.sx + a.sxx + a.sy + a.syy + a.sxy;
        }
        Args a = (Args) ((Object[]) state)[part];
        a.thread = Thread.currentThread();
        for (long i = first; i < end; i++) {
            int p = (int) (i & (POINTS - 1)) << 1;
            long x = a.points[p];
            long y = a.points[p + 1];
            a.sx += x;
            a.sxx += x * x;
            a.sy += y;
            a.syy += y * y;
            a.sxy += x * y;
        }
        return a.sx + a.sxx + a.sy + a.syy + a.sxy;
    }

    /**
     * The five sums over every part, folded into one: the threads' results add up to it whatever the
     * split, as the regression the original computes from them (slope, intercept, r²) does.
     */
    @Override
    protected long checksum(Object state, int parts, boolean fixed) {
        long sum = 0;
        for (Object o : (Object[]) state) {
            if (fixed) {
                PaddedArgs a = (PaddedArgs) o;
                sum += a.sx + a.sxx + a.sy + a.syy + a.sxy;
            } else {
                Args a = (Args) o;
                sum += a.sx + a.sxx + a.sy + a.syy + a.sxy;
            }
        }
        return sum;
    }
}
