package dev.vbd.agent.observe;

import dev.vbd.core.verify.Json;

import java.io.IOException;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the observed run saw: every site the observer put into the program's code, every location
 * those sites touched ({@link Location}), and for each candidate method the evidence that relaxing
 * it is safe, or the race that makes it unsafe.
 */
final class Recorder {
    private static final int STRIPES = 256;

    private final List<String> candidateNames;
    private final Map<String, Integer> candidateIndex = new HashMap<>();
    private final List<ThreadState> allThreads = new ArrayList<>();
    private final Evidence[] evidence;
    private volatile Site[] sites = new Site[1024];
    private int siteCount;
    private final Map<String, Integer> fieldKeys = new HashMap<>();
    private final Map<Integer, Object> staticHolders = new ConcurrentHashMap<>();
    private final Stripe[] stripes = new Stripe[STRIPES];
    private final ThreadLocal<ThreadState> threads = new ThreadLocal<>();
    private final List<String> unobserved = new ArrayList<>();
    private int observedClasses;

    /** Per candidate: what its locations turned out to be, and the first race one of them had. */
    static final class Evidence {
        long confined;
        long guarded;
        long readShared;
        String race;
    }

    private static final class Stripe {
        final HashMap<Object, Location> map = new HashMap<>();
        final ReferenceQueue<Object> queue = new ReferenceQueue<>();
    }

    Recorder(List<String> candidateNames) {
        this.candidateNames = List.copyOf(candidateNames);
        for (int i = 0; i < candidateNames.size(); i++) candidateIndex.put(candidateNames.get(i), i);
        evidence = new Evidence[candidateNames.size()];
        for (int i = 0; i < evidence.length; i++) evidence[i] = new Evidence();
        for (int i = 0; i < STRIPES; i++) stripes[i] = new Stripe();
    }

    /** The candidate index of {@code owner#name(desc)} (owner dotted), or -1. */
    int candidate(String owner, String name, String desc) {
        Integer i = candidateIndex.get(owner + "#" + name + desc);
        return i == null ? -1 : i;
    }

    synchronized int site(String className, String method, String sourceFile, int line, String target, boolean write,
                          int candidate, String fieldName) {
        int key = -1;
        if (fieldName != null) {
            Integer k = fieldKeys.get(fieldName);
            if (k == null) {
                k = fieldKeys.size();
                fieldKeys.put(fieldName, k);
            }
            key = k;
        }
        Site[] s = sites;
        if (siteCount == s.length) s = java.util.Arrays.copyOf(s, s.length * 2);
        s[siteCount] = new Site(className, method, sourceFile, line, target, write, candidate, key);
        sites = s;
        return siteCount++;
    }

    synchronized void observed(String className) {
        observedClasses++;
    }

    synchronized void unobserved(String className, Throwable why) {
        unobserved.add(className + ": " + why);
    }

    ThreadState thread() {
        ThreadState t = threads.get();
        if (t == null) {
            t = new ThreadState(Thread.currentThread(), candidateNames.size());
            threads.set(t);
            synchronized (allThreads) {
                allThreads.add(t);
            }
        }
        return t;
    }

    void access(Object o, int siteId, boolean write) {
        Site site = sites[siteId];
        ThreadState t = thread();
        int h = System.identityHashCode(o) * 31 + site.fieldKey();
        int c = site.candidate();
        if (c >= 0) t.accesses[c]++;
        int slot = (h ^ (h >>> 8)) & (ThreadState.RECENT - 1);
        Location cached = t.recent[slot];
        if (cached != null && t.recentObjects[slot] == o && cached.key.field == site.fieldKey()
                && cached.unchangedBy(t, write, site)) {
            return;
        }
        Stripe stripe = stripes[(h ^ (h >>> 16)) & (STRIPES - 1)];
        Location l;
        synchronized (stripe) {
            purge(stripe);
            l = stripe.map.get(new Location.Probe(o, site.fieldKey(), h));
            String race = null;
            if (l == null) {
                l = new Location(new Location.Key(o, site.fieldKey(), h, stripe.queue), t, write, site);
                stripe.map.put(l.key, l);
            } else {
                race = l.access(t, write, site);
            }
            if (race != null) {
                for (int k : l.candidates()) raced(k, race);
            }
            if (c >= 0 && l.touchedBy(c) && l.state == Location.State.RACY) raced(c, l.race);
        }
        t.recent[slot] = l;
        t.recentObjects[slot] = o;
    }

    void accessStatic(int siteId, boolean write) {
        Site site = sites[siteId];
        Object holder = staticHolders.computeIfAbsent(site.fieldKey(), k -> new Object());
        access(holder, siteId, write);
    }

    void acquired(Object lock) {
        // a read lock is held by many threads at once: it orders no write
        if (lock instanceof java.util.concurrent.locks.ReentrantReadWriteLock.ReadLock) return;
        thread().acquired(lock);
    }

    void releasing(Object lock) {
        thread().releasing(lock);
    }

    private void raced(int candidate, String race) {
        Evidence e = evidence[candidate];
        synchronized (e) {
            if (e.race == null) e.race = race;
        }
    }

    private void purge(Stripe stripe) {
        Reference<?> r;
        while ((r = stripe.queue.poll()) != null) {
            Location l = stripe.map.remove(r);
            if (l != null) tally(l);
        }
    }

    private void tally(Location l) {
        for (int c : l.candidates()) {
            Evidence e = evidence[c];
            synchronized (e) {
                switch (l.state) {
                    case EXCLUSIVE -> e.confined++;
                    case SHARED -> e.readShared++;
                    case SHARED_MODIFIED -> e.guarded++;
                    case RACY -> { }
                }
            }
        }
    }

    /** The run's findings, as JSON: one entry per candidate, in the order given. */
    void write(Path file) throws IOException {
        for (Stripe s : stripes) {
            synchronized (s) {
                purge(s);
                for (Location l : s.map.values()) tally(l);
                s.map.clear();
            }
        }
        long[] accesses = new long[candidateNames.size()];
        synchronized (allThreads) {
            for (ThreadState t : allThreads) {
                for (int i = 0; i < accesses.length; i++) accesses[i] += t.accesses[i];
            }
        }
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < candidateNames.size(); i++) {
            Evidence e = evidence[i];
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("method", candidateNames.get(i));
            synchronized (e) {
                m.put("accesses", accesses[i]);
                m.put("confined", e.confined);
                m.put("guarded", e.guarded);
                m.put("readShared", e.readShared);
                m.put("race", e.race);
            }
            out.add(m);
        }
        Map<String, Object> report = new LinkedHashMap<>();
        synchronized (this) {
            report.put("observedClasses", (long) observedClasses);
            report.put("sites", (long) siteCount);
            report.put("unobserved", new ArrayList<Object>(unobserved));
        }
        report.put("candidates", out);
        Files.writeString(file, Json.write(report), StandardCharsets.UTF_8);
    }
}
