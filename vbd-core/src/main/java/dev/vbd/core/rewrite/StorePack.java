package dev.vbd.core.rewrite;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.zip.CRC32;

/**
 * One file of a {@link RewriteStore}: the rewrites one JVM kept, appended as they come, and once
 * that JVM is done an index of them at the end, sorted, so that a reader reads the index and not
 * the entries. A pack without its index (its JVM still running, or killed) is read header by
 * header up to the first entry that is torn; every entry's checksum is checked when it is read.
 *
 * <p>Layout, big-endian: {@code MAGIC FORMAT}, then entries {@code ENTRY length crc key kind body},
 * where {@code crc} covers key, kind and body; then the index, {@code (key kind offset)} sorted by
 * key and kind, and the trailer {@code count indexStart END}. One file for many classes: creating
 * a file costs far more than writing one on some file systems.
 */
final class StorePack {
    static final String SUFFIX = ".pack";
    private static final int MAGIC = 0x56424450; // "VBDP"
    private static final int FORMAT = 1;
    private static final int ENTRY = 0x56424445; // "VBDE"
    private static final int END = 0x5642445a; // "VBDZ"
    private static final int HEADER = 8;
    private static final int ENTRY_HEADER = 4 + 4 + 8 + 8 + 4;
    private static final int INDEX_RECORD = 8 + 4 + 4;
    private static final int TRAILER = 4 + 8 + 4;
    /** Packs above this size are not read: the store keeps far less ({@link RewriteStore}). */
    private static final long MAX_SIZE = 1L << 30;

    final File file;
    /** The index records, sorted: searched where they lie, not decoded, so that opening a pack costs one read. */
    private final byte[] index;
    private final int count;
    private RandomAccessFile in;

    private StorePack(File file, byte[] index, int count) {
        this.file = file;
        this.index = index;
        this.count = count;
    }

    int count() {
        return count;
    }

    /** The pack's index, from its end if it has one, else from its entries; null if it is no pack. */
    static StorePack open(File f) {
        try (RandomAccessFile r = new RandomAccessFile(f, "r")) {
            long size = r.length();
            if (size < HEADER || size > MAX_SIZE) return null;
            if (r.readInt() != MAGIC || r.readInt() != FORMAT) return null;
            if (size >= HEADER + TRAILER) {
                r.seek(size - TRAILER);
                int n = r.readInt();
                long start = r.readLong();
                if (r.readInt() == END && n >= 0 && start >= HEADER && start + (long) n * INDEX_RECORD + TRAILER == size) {
                    byte[] index = new byte[n * INDEX_RECORD];
                    r.seek(start);
                    r.readFully(index);
                    return new StorePack(f, index, n);
                }
            }
        } catch (IOException e) {
            return null;
        }
        return scan(f);
    }

    /**
     * Reads a pack without an index: the header of every entry, up to the first that is not one or
     * runs past the end of the file. Bodies are not read here (a pack may be large, and the JVM's
     * heap small); each is checked when it is read.
     */
    private static StorePack scan(File f) {
        Index index = new Index();
        try (RandomAccessFile r = new RandomAccessFile(f, "r")) {
            long size = r.length();
            byte[] head = new byte[ENTRY_HEADER];
            long p = HEADER;
            while (p + ENTRY_HEADER <= size) {
                r.seek(p);
                r.readFully(head);
                int length = getInt(head, 4);
                if (getInt(head, 0) != ENTRY || length < 0 || p + ENTRY_HEADER + (long) length > size) break;
                index.add(getLong(head, 16), getInt(head, 24), (int) p);
                p += ENTRY_HEADER + length;
            }
        } catch (IOException e) {
            return null;
        }
        return new StorePack(f, index.sortedRecords(), index.count);
    }

    /** Calls {@code found} with the body of each entry under this key and kind that checks out, until it answers true. */
    boolean find(long key, int kind, Found found) {
        int lo = 0, hi = count - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long k = getLong(index, mid * INDEX_RECORD);
            if (k < key || (k == key && getInt(index, mid * INDEX_RECORD + 8) < kind)) lo = mid + 1;
            else hi = mid - 1;
        }
        for (int i = lo; i < count; i++) {
            int p = i * INDEX_RECORD;
            if (getLong(index, p) != key || getInt(index, p + 8) != kind) break;
            byte[] body = body(getInt(index, p + 12), key, kind);
            if (body != null && found.found(body)) return true;
        }
        return false;
    }

    interface Found {
        boolean found(byte[] body);
    }

    /** Every entry that checks out, for merging packs. */
    void each(Entries out) {
        for (int i = 0; i < count; i++) {
            int p = i * INDEX_RECORD;
            long key = getLong(index, p);
            int kind = getInt(index, p + 8);
            byte[] body = body(getInt(index, p + 12), key, kind);
            if (body != null) out.entry(key, kind, body);
        }
    }

    interface Entries {
        void entry(long key, int kind, byte[] body);
    }

    private synchronized byte[] body(int offset, long key, int kind) {
        try {
            if (in == null) in = new RandomAccessFile(file, "r");
            byte[] head = new byte[ENTRY_HEADER];
            in.seek(offset);
            in.readFully(head);
            int length = getInt(head, 4);
            if (getInt(head, 0) != ENTRY || getLong(head, 16) != key || getInt(head, 24) != kind
                    || length < 0 || offset + ENTRY_HEADER + (long) length > in.length()) {
                return null;
            }
            byte[] body = new byte[length];
            in.readFully(body);
            CRC32 crc = new CRC32();
            crc.update(head, 16, 12);
            crc.update(body, 0, length);
            return crc.getValue() == getLong(head, 8) ? body : null;
        } catch (IOException e) {
            return null;
        }
    }

    synchronized void close() {
        try {
            if (in != null) in.close();
        } catch (IOException e) {
            // read-only: nothing is lost
        }
        in = null;
    }

    /** Writes one pack: entries as they come, then the index. Not thread-safe; the store serialises it. */
    static final class Writer {
        final File file;
        private final FileOutputStream out;
        private final Index index = new Index();
        private long position;

        /** A new pack in {@code dir}, under a name no other JVM has; fails if the directory cannot be written. */
        static Writer create(File dir) throws IOException {
            if (!dir.isDirectory() && !dir.mkdirs() && !dir.isDirectory()) throw new IOException("cannot create " + dir);
            for (int attempt = 0; ; attempt++) {
                File f = new File(dir, Long.toHexString(System.nanoTime()) + "-" + Thread.currentThread().getId() + SUFFIX);
                if (f.createNewFile()) return new Writer(f);
                if (attempt == 8) throw new IOException("cannot create a pack in " + dir);
            }
        }

        private Writer(File file) throws IOException {
            this.file = file;
            this.out = new FileOutputStream(file);
            byte[] header = new byte[HEADER];
            putInt(header, 0, MAGIC);
            putInt(header, 4, FORMAT);
            out.write(header);
            position = HEADER;
        }

        void append(long key, int kind, byte[] body) throws IOException {
            if (position + ENTRY_HEADER + body.length > MAX_SIZE) throw new IOException("pack full");
            byte[] head = new byte[ENTRY_HEADER];
            putInt(head, 0, ENTRY);
            putInt(head, 4, body.length);
            putLong(head, 16, key);
            putInt(head, 24, kind);
            CRC32 crc = new CRC32();
            crc.update(head, 16, 12);
            crc.update(body, 0, body.length);
            putLong(head, 8, crc.getValue());
            // one write, so that a reader of an unfinished pack sees whole entries or a torn last one
            byte[] entry = new byte[ENTRY_HEADER + body.length];
            System.arraycopy(head, 0, entry, 0, ENTRY_HEADER);
            System.arraycopy(body, 0, entry, ENTRY_HEADER, body.length);
            out.write(entry);
            index.add(key, kind, (int) position);
            position += entry.length;
        }

        int count() {
            return index.count;
        }

        /** Writes the index and closes the pack. */
        void finish() throws IOException {
            byte[] records = index.sortedRecords();
            byte[] trailer = new byte[TRAILER];
            putInt(trailer, 0, index.count);
            putLong(trailer, 4, position);
            putInt(trailer, 12, END);
            out.write(records);
            out.write(trailer);
            out.close();
        }

        void abandon() {
            try {
                out.close();
            } catch (IOException e) {
                // deleted below
            }
            file.delete();
        }
    }

    /** Index records in growing arrays, sorted by key and kind. */
    private static final class Index {
        long[] keys = new long[64];
        int[] kinds = new int[64];
        int[] offsets = new int[64];
        int count;

        void add(long key, int kind, int offset) {
            if (count == keys.length) {
                keys = java.util.Arrays.copyOf(keys, count * 2);
                kinds = java.util.Arrays.copyOf(kinds, count * 2);
                offsets = java.util.Arrays.copyOf(offsets, count * 2);
            }
            keys[count] = key;
            kinds[count] = kind;
            offsets[count] = offset;
            count++;
        }

        /** The records sorted, as the index of a pack holds them. */
        byte[] sortedRecords() {
            sort();
            byte[] records = new byte[count * INDEX_RECORD];
            for (int i = 0, p = 0; i < count; i++, p += INDEX_RECORD) {
                putLong(records, p, keys[i]);
                putInt(records, p + 8, kinds[i]);
                putInt(records, p + 12, offsets[i]);
            }
            return records;
        }

        /** A merge sort of the three arrays together, by key and then kind. */
        void sort() {
            long[] k = new long[count];
            int[] c = new int[count];
            int[] o = new int[count];
            for (int width = 1; width < count; width *= 2) {
                for (int lo = 0; lo < count; lo += 2 * width) {
                    int mid = Math.min(lo + width, count), hi = Math.min(lo + 2 * width, count);
                    int i = lo, j = mid, t = lo;
                    while (i < mid || j < hi) {
                        boolean left = j >= hi || (i < mid && (keys[i] < keys[j] || (keys[i] == keys[j] && kinds[i] <= kinds[j])));
                        int from = left ? i++ : j++;
                        k[t] = keys[from];
                        c[t] = kinds[from];
                        o[t] = offsets[from];
                        t++;
                    }
                }
                long[] sk = keys; keys = k; k = sk;
                int[] sc = kinds; kinds = c; c = sc;
                int[] so = offsets; offsets = o; o = so;
            }
        }
    }

    private static int getInt(byte[] b, int p) {
        return ((b[p] & 0xff) << 24) | ((b[p + 1] & 0xff) << 16) | ((b[p + 2] & 0xff) << 8) | (b[p + 3] & 0xff);
    }

    private static long getLong(byte[] b, int p) {
        return ((long) getInt(b, p) << 32) | (getInt(b, p + 4) & 0xffffffffL);
    }

    private static void putInt(byte[] b, int p, int v) {
        b[p] = (byte) (v >>> 24);
        b[p + 1] = (byte) (v >>> 16);
        b[p + 2] = (byte) (v >>> 8);
        b[p + 3] = (byte) v;
    }

    private static void putLong(byte[] b, int p, long v) {
        putInt(b, p, (int) (v >>> 32));
        putInt(b, p + 4, (int) v);
    }
}
