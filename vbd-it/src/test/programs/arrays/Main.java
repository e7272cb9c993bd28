import java.util.*;

/** Arrays of all eight primitive kinds and references: loads, stores, multi-dim, clone, bulk copies. */
public class Main {
    public static void main(String[] args) {
        boolean[] z = new boolean[5];
        byte[] b = new byte[5];
        char[] c = new char[5];
        short[] s = new short[5];
        int[] i = new int[5];
        long[] l = new long[5];
        float[] f = new float[5];
        double[] d = new double[5];
        String[] r = new String[5];
        for (int k = 0; k < 5; k++) {
            z[k] = k % 2 == 0;
            b[k] = (byte) (120 + k * 3);
            c[k] = (char) ('A' + k * 7);
            s[k] = (short) (32760 + k * 2);
            i[k] = Integer.MAX_VALUE - k * 1_000_000_000;
            l[k] = Long.MIN_VALUE + k;
            f[k] = k / 3f;
            d[k] = Math.sqrt(k) - 1;
            r[k] = k == 2 ? null : "s" + k;
        }
        b[1] += 100; c[2]++; s[3] -= 1; i[4] *= 3; l[0] >>= 1; f[1] /= 0; d[2] %= 0.5; z[4] ^= true;
        System.out.println("boolean " + Arrays.toString(z));
        System.out.println("byte " + Arrays.toString(b));
        System.out.println("char " + Arrays.toString(c) + " " + new String(c));
        System.out.println("short " + Arrays.toString(s));
        System.out.println("int " + Arrays.toString(i));
        System.out.println("long " + Arrays.toString(l));
        System.out.println("float " + Arrays.toString(f));
        System.out.println("double " + Arrays.toString(d));
        System.out.println("ref " + Arrays.toString(r));
        int[] init = {3, 1, 4, 1, 5, 9, 2, 6};
        Object[] mixed = {1, "two", 3.0, null, new int[]{4}, 'c'};
        System.out.println("initialisers " + Arrays.toString(init) + " " + mixed.length + " " + mixed[1] + " " + ((int[]) mixed[4])[0]);
        long sum = 0;
        for (int k = 0; k < 1000; k++) { int[] a = {k, k + 1, k + 2}; sum += a[0] + a[2]; }
        System.out.println("temporaries " + sum);

        int[][] grid = new int[4][5];
        for (int x = 0; x < 4; x++) for (int y = 0; y < 5; y++) grid[x][y] = x * 10 + y;
        grid[2] = new int[]{7, 7};
        long[][][] cube = new long[2][3][4];
        cube[1][2][3] = 42;
        cube[0][1] = null;
        char[][] jagged = {{'a'}, {}, {'b', 'c'}};
        Object[][] objs = new String[2][2];
        System.out.println("2d " + Arrays.deepToString(grid) + " 3d " + Arrays.deepToString(cube));
        System.out.println("jagged " + Arrays.deepToString(jagged) + " lengths " + jagged[0].length + jagged[1].length + jagged[2].length
                + " objs class " + objs.getClass().getSimpleName() + " row class " + objs[0].getClass().getSimpleName());

        int[] cl = init.clone();
        cl[0] = 100;
        int[][] shallow = grid.clone();
        shallow[0][0] = -1;
        shallow[1] = new int[0];
        System.out.println("clone " + Arrays.toString(cl) + " original " + Arrays.toString(init) + " shallow shares rows " + grid[0][0] + " own row " + grid[1].length);
        double[] dc = d.clone();
        boolean[] zc = z.clone();
        String[] rc = r.clone();
        System.out.println("clone equal " + Arrays.equals(dc, d) + Arrays.equals(zc, z) + Arrays.equals(rc, r) + " same " + (dc == d));

        int[] buf = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        System.arraycopy(buf, 0, buf, 2, 6);
        System.out.println("arraycopy overlap forward " + Arrays.toString(buf));
        System.arraycopy(buf, 3, buf, 0, 5);
        System.out.println("arraycopy overlap backward " + Arrays.toString(buf));
        Object[] dst = new Object[4];
        System.arraycopy(r, 1, dst, 0, 4);
        byte[] bytes = new byte[8];
        System.arraycopy(b, 0, bytes, 3, 5);
        char[] chars = new char[3];
        System.arraycopy(c, 2, chars, 0, 3);
        System.out.println("arraycopy " + Arrays.toString(dst) + " " + Arrays.toString(bytes) + " " + new String(chars));

        long[] filled = new long[6];
        Arrays.fill(filled, -3L);
        Arrays.fill(filled, 1, 3, 8L);
        String[] sf = new String[4];
        Arrays.fill(sf, "x");
        float[] ff = new float[3];
        Arrays.fill(ff, Float.NaN);
        System.out.println("fill " + Arrays.toString(filled) + " " + Arrays.toString(sf) + " " + Arrays.toString(ff));
        System.out.println("copyOf " + Arrays.toString(Arrays.copyOf(init, 10)) + " " + Arrays.toString(Arrays.copyOf(r, 2))
                + " " + Arrays.toString(Arrays.copyOf(z, 7)) + " " + Arrays.toString(Arrays.copyOfRange(s, 1, 4))
                + " " + Arrays.copyOf(new Integer[]{1, 2}, 3, Number[].class).getClass().getSimpleName());
        int[] sorted = Arrays.copyOf(init, init.length);
        Arrays.sort(sorted);
        System.out.println("sort " + Arrays.toString(sorted) + " search " + Arrays.binarySearch(sorted, 5)
                + " equals " + Arrays.equals(sorted, init) + " mismatch " + Arrays.mismatch(sorted, init) + " hash " + Arrays.hashCode(sorted)
                + " compare " + Arrays.compare(new int[]{1, 2}, new int[]{1, 3}));
        Integer[] boxed = {5, 3, 8, 1};
        Arrays.sort(boxed, Collections.reverseOrder());
        List<Integer> view = Arrays.asList(boxed);
        view.set(0, 0);
        System.out.println("asList write-through " + Arrays.toString(boxed) + " setAll " + Arrays.toString(setAll()));
        long total = 0;
        int[] big = new int[1 << 16];
        for (int k = 0; k < big.length; k++) big[k] = k * 31;
        for (int round = 0; round < 10; round++) for (int k = 0; k < big.length; k++) total += big[k] ^ round;
        System.out.println("big loop " + total + " stream sum " + Arrays.stream(big).asLongStream().sum());
    }

    static double[] setAll() {
        double[] a = new double[5];
        Arrays.setAll(a, k -> k * 1.5);
        Arrays.parallelPrefix(a, Double::sum);
        return a;
    }
}
