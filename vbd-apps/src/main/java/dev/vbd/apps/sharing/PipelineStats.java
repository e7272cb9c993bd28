package dev.vbd.apps.sharing;

/**
 * Two fields of one object: the stages of a pipeline each count their progress in one statistics
 * object, a field per stage (up to four), as a server keeps its counters. Fixed by hand: 15 longs of
 * padding between the counters, the padding libraries wrote before {@code @Contended}.
 */
public final class PipelineStats extends SharingWorkload {
    static final class Stats {
        long stage0;
        long stage1;
        long stage2;
        long stage3;
    }

    static final class PaddedStats {
        long stage0;
        long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
        long stage1;
        long p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31, p32, p33, p34, p35;
        long stage2;
        long p41, p42, p43, p44, p45, p46, p47, p48, p49, p50, p51, p52, p53, p54, p55;
        long stage3;
    }

    PipelineStats(boolean fixed) {
        super(fixed);
    }

    public static void main(String[] args) {
        new PipelineStats(false).main("fs-stats", args, 40);
    }

    public static final class Fixed {
        public static void main(String[] args) {
            new PipelineStats(true).main("fs-stats-fixed", args, 40);
        }
    }

    @Override
    protected Object setUp(int threads, boolean fixed) {
        if (threads > 4) throw new IllegalArgumentException("fs-stats has counters for four stages, not " + threads);
        return fixed ? new PaddedStats() : new Stats();
    }

    @Override
    protected long run(Object state, int part, int parts, long total, boolean fixed) {
        long first = first(total, parts, part);
        long end = first + steps(total, parts, part);
        long sum = 0;
        if (fixed) {
            PaddedStats s = (PaddedStats) state;
            for (long i = first; i < end; i++) {
                long d = value(i);
                sum += d;
                switch (part) {
                    case 0 -> s.stage0 += d;
                    case 1 -> s.stage1 += d;
                    case 2 -> s.stage2 += d;
                    default -> s.stage3 += d;
                }
            }
        } else {
            Stats s = (Stats) state;
            for (long i = first; i < end; i++) {
                long d = value(i);
                sum += d;
                switch (part) {
                    case 0 -> s.stage0 += d;
                    case 1 -> s.stage1 += d;
                    case 2 -> s.stage2 += d;
                    default -> s.stage3 += d;
                }
            }
        }
        return sum;
    }

    @Override
    protected long checksum(Object state, int parts, boolean fixed) {
        if (fixed) {
            PaddedStats s = (PaddedStats) state;
            return s.stage0 + s.stage1 + s.stage2 + s.stage3;
        }
        Stats s = (Stats) state;
        return s.stage0 + s.stage1 + s.stage2 + s.stage3;
    }
}
