package dev.vbd.core.rewrite;

import dev.vbd.core.Consulted;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32;

/**
 * Rewrites kept on disk, so that a program started again does not pay for rewriting the classes
 * it loaded before. A store is a directory of packs ({@link StorePack}), one from each JVM that
 * kept something, indexed by the CRC-32 and length of the class file's bytes and the kind of
 * rewriter. Each entry holds those bytes in full (the index only narrows the search: a hit
 * compares every byte), the result, and the answers the rewrite consulted about other classes
 * ({@link Consulted}; the caller asks them again before trusting the result).
 *
 * <p>Several JVMs may share a store: each writes a pack of its own, and an entry that does not
 * check out is a miss. A JVM reads the packs there were when it first looked, so what it keeps
 * itself serves the next run. When a JVM finishes its pack and finds more than {@link #MAX_PACKS},
 * it merges them into one, or empties the store when they hold more than {@link #MAX_BYTES}. A
 * store whose directory cannot be written is only never hit. Plain {@code java.io}, and no
 * lambdas: this runs while the program's first classes are defined, before anything warmed up.
 */
public final class RewriteStore {
    static final int MAX_PACKS = 16;
    static final long MAX_BYTES = 256L << 20;

    private final File dir;
    private volatile boolean unwritable;
    /** Kept rewrites that stood in for a new one (counted by the rewriter, which checks them), and rewrites kept. */
    public final AtomicInteger hits = new AtomicInteger();
    public final AtomicInteger stored = new AtomicInteger();

    /** The packs there were at the first look; null before it. Its own lock: a lookup does not wait for a write. */
    private volatile List<StorePack> packs;
    private final Object packsLock = new Object();
    /** This JVM's own pack, once it keeps something; guarded by {@code this}. */
    private StorePack.Writer writer;
    private boolean closed;

    /** Rewrites waiting to be written, for a store that writes in the background; else null. */
    private final ArrayDeque<Pending> pending;
    private Thread background;

    private static final class Pending {
        final String kind;
        final byte[] bytes;
        final RewriteResult result;
        final List<Consulted.Answer> consulted;

        Pending(String kind, byte[] bytes, RewriteResult result, List<Consulted.Answer> consulted) {
            this.kind = kind;
            this.bytes = bytes;
            this.result = result;
            this.consulted = consulted;
        }
    }

    /** A store that writes each rewrite as it is kept; {@link #close} finishes its pack. */
    public RewriteStore(File dir) {
        this(dir, false);
    }

    private RewriteStore(File dir, boolean inBackground) {
        this.dir = dir;
        this.pending = inBackground ? new ArrayDeque<>() : null;
    }

    /**
     * A store that writes on a daemon thread of its own, and at exit what is still waiting before
     * it finishes its pack: a class being defined does not wait for the disk. A JVM that halts or
     * is killed leaves a pack without its index, read entry by entry.
     */
    public static RewriteStore inBackground(File dir) {
        return new RewriteStore(dir, true);
    }

    public File dir() {
        return dir;
    }

    /** A rewrite kept earlier, and the answers it rests on. */
    public record Kept(RewriteResult result, List<Consulted.Answer> consulted) {}

    /** The rewrite kept for exactly these bytes by a rewriter of this kind, or null. */
    public Kept find(String kind, byte[] bytes) {
        List<StorePack> all = packs();
        if (all.isEmpty()) return null;
        long key = key(bytes);
        int kindKey = kind.hashCode();
        Match match = new Match(kind, bytes);
        for (StorePack p : all) {
            if (p.find(key, kindKey, match)) return match.kept;
        }
        return null;
    }

    /** Decodes entries until one is for these very bytes. */
    private static final class Match implements StorePack.Found {
        private final String kind;
        private final byte[] bytes;
        Kept kept;

        Match(String kind, byte[] bytes) {
            this.kind = kind;
            this.bytes = bytes;
        }

        @Override
        public boolean found(byte[] body) {
            kept = decode(body, kind, bytes);
            return kept != null;
        }
    }

    private List<StorePack> packs() {
        List<StorePack> known = packs;
        if (known != null) return known;
        synchronized (packsLock) {
            if (packs == null) {
                List<StorePack> found = new ArrayList<>();
                File[] files = dir.listFiles();
                if (files != null) {
                    for (File f : files) {
                        if (!f.getName().endsWith(StorePack.SUFFIX)) continue;
                        StorePack p = StorePack.open(f);
                        if (p != null && p.count() > 0) found.add(p);
                    }
                }
                packs = found;
            }
            return packs;
        }
    }

    /**
     * Keeps a rewrite of these bytes: at once, or in the background for a store made {@link #inBackground}.
     * A store that cannot be written is left alone from then on.
     */
    public void put(String kind, byte[] bytes, RewriteResult r, List<Consulted.Answer> consulted) {
        if (unwritable || r.status() != RewriteResult.Status.REWRITTEN) return;
        if (pending == null) {
            write(kind, bytes, r, consulted);
            return;
        }
        synchronized (pending) {
            if (background == null) {
                try {
                    Runtime.getRuntime().addShutdownHook(new Thread(new Drain(false), "vbd: keeping the last rewrites"));
                } catch (IllegalStateException e) {
                    // a class defined while the JVM shuts down: too late to keep anything
                    unwritable = true;
                    return;
                }
                background = new Thread(new Drain(true), "vbd: keeping rewrites");
                background.setDaemon(true);
                background.start();
            }
            pending.add(new Pending(kind, bytes, r, consulted));
            pending.notifyAll();
        }
    }

    /** Writes what is pending until nothing is; the background writer then waits for more. A class, not a lambda: see the class comment. */
    private final class Drain implements Runnable {
        private final boolean waits;

        Drain(boolean waits) {
            this.waits = waits;
        }

        @Override
        public void run() {
            while (true) {
                Pending p;
                synchronized (pending) {
                    p = pending.poll();
                    while (p == null && waits) {
                        try {
                            pending.wait();
                        } catch (InterruptedException e) {
                            return;
                        }
                        p = pending.poll();
                    }
                }
                if (p == null) break;
                write(p.kind, p.bytes, p.result, p.consulted);
            }
            close();
        }
    }

    private synchronized void write(String kind, byte[] bytes, RewriteResult r, List<Consulted.Answer> consulted) {
        if (unwritable || closed) return;
        byte[] body;
        try {
            body = encode(kind, bytes, r, consulted);
        } catch (IOException | RuntimeException e) {
            return; // a string over writeUTF's 64 KiB: not kept
        }
        try {
            if (writer == null) writer = StorePack.Writer.create(dir);
            writer.append(key(bytes), kind.hashCode(), body);
            stored.incrementAndGet();
        } catch (IOException | SecurityException e) {
            unwritable = true;
            if (writer != null) writer.abandon();
            writer = null;
        }
    }

    /**
     * Finishes this JVM's pack with its index, and keeps the store small: more than
     * {@link #MAX_PACKS} packs are merged into one, and a store over {@link #MAX_BYTES} is emptied.
     * Nothing is kept after this.
     */
    public synchronized void close() {
        if (closed) return;
        closed = true;
        List<StorePack> read = packs;
        if (read != null) for (StorePack p : read) p.close();
        if (writer == null) return;
        try {
            writer.finish();
        } catch (IOException e) {
            writer.abandon();
            return;
        }
        File mine = writer.file;
        writer = null;
        File[] files = dir.listFiles();
        if (files == null) return;
        List<File> all = new ArrayList<>();
        long total = 0;
        for (File f : files) {
            if (!f.getName().endsWith(StorePack.SUFFIX)) continue;
            all.add(f);
            total += f.length();
        }
        if (total > MAX_BYTES) {
            for (File f : all) f.delete();
        } else if (all.size() > MAX_PACKS) {
            merge(all, mine);
        }
    }

    /** Writes every entry of these packs that checks out into one new pack, then removes them. */
    private void merge(List<File> files, File mine) {
        final StorePack.Writer merged;
        try {
            merged = StorePack.Writer.create(dir);
        } catch (IOException e) {
            return;
        }
        final boolean[] failed = new boolean[1];
        for (File f : files) {
            StorePack p = StorePack.open(f);
            if (p == null) continue;
            p.each(new StorePack.Entries() {
                @Override
                public void entry(long key, int kind, byte[] body) {
                    try {
                        if (!failed[0]) merged.append(key, kind, body);
                    } catch (IOException e) {
                        failed[0] = true;
                    }
                }
            });
            p.close();
        }
        try {
            if (failed[0]) throw new IOException("merge failed");
            merged.finish();
        } catch (IOException e) {
            merged.abandon();
            return;
        }
        for (File f : files) f.delete();
    }

    private static long key(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length);
        return (crc.getValue() << 32) | (bytes.length & 0xffffffffL);
    }

    private static byte[] encode(String kind, byte[] bytes, RewriteResult r, List<Consulted.Answer> consulted) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(bytes.length + r.bytes().length + 256);
        DataOutputStream out = new DataOutputStream(buf);
        out.writeUTF(kind);
        writeBytes(out, bytes);
        out.writeUTF(r.className());
        writeBytes(out, r.bytes());
        writeStrings(out, r.flipped());
        writeStrings(out, r.unfinal());
        writeStrings(out, r.relaxedMethods());
        out.writeInt(r.unfenced().size());
        for (Map.Entry<String, String> e : r.unfenced().entrySet()) {
            out.writeUTF(e.getKey());
            out.writeUTF(e.getValue());
        }
        out.writeInt(consulted.size());
        for (Consulted.Answer a : consulted) {
            out.writeByte(a.question().ordinal());
            out.writeUTF(a.subject());
            out.writeBoolean(a.value());
        }
        out.flush();
        return buf.toByteArray();
    }

    /** The entry, if it is one for these bytes and this kind; null otherwise. */
    private static Kept decode(byte[] body, String kind, byte[] bytes) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(body));
            if (!in.readUTF().equals(kind)) return null;
            byte[] original = readBytes(in);
            if (!Arrays.equals(original, bytes)) return null;
            String name = in.readUTF();
            byte[] result = readBytes(in);
            List<String> flipped = readStrings(in);
            List<String> unfinal = readStrings(in);
            List<String> relaxed = readStrings(in);
            Map<String, String> unfenced = new LinkedHashMap<>();
            for (int i = 0, n = in.readInt(); i < n; i++) unfenced.put(in.readUTF(), in.readUTF());
            Consulted.Question[] questions = Consulted.Question.values();
            List<Consulted.Answer> answers = new ArrayList<>();
            for (int i = 0, n = in.readInt(); i < n; i++) {
                answers.add(new Consulted.Answer(questions[in.readUnsignedByte()], in.readUTF(), in.readBoolean()));
            }
            return new Kept(new RewriteResult(name, RewriteResult.Status.REWRITTEN, result, null, flipped, unfinal,
                    relaxed, unfenced), answers);
        } catch (IOException | RuntimeException e) {
            return null; // an entry of another format
        }
    }

    private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > in.available()) throw new IOException("bad length " + n);
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }

    private static void writeStrings(DataOutputStream out, List<String> values) throws IOException {
        out.writeInt(values.size());
        for (String v : values) out.writeUTF(v);
    }

    private static List<String> readStrings(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > in.available()) throw new IOException("bad count " + n);
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(in.readUTF());
        return out;
    }
}
