package dev.vbd.agent.observe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every site the observer put into the program's code, by number, and the classes it observed or
 * could not. Sites are added under this table's lock and read without it.
 */
final class SiteTable {
    private volatile Site[] sites = new Site[1024];
    private int siteCount;
    private final Map<String, Integer> fieldKeys = new HashMap<>();
    private int observedClasses;
    private final List<String> unobserved = new ArrayList<>();

    Site get(int siteId) {
        return sites[siteId];
    }

    synchronized int site(String className, String method, String sourceFile, int line, String target, boolean write,
                          int candidate, String fieldName) {
        int key = LocationTable.ELEMENTS;
        if (fieldName != null) {
            Integer k = fieldKeys.get(fieldName);
            if (k == null) {
                k = fieldKeys.size();
                fieldKeys.put(fieldName, k);
            }
            key = k;
        }
        return add(new Site(className, method, sourceFile, line, target, write, candidate, key));
    }

    /** A call on an atomic: an SC access of its value, never a candidate's (the JDK's atomics stay SC under vbd). */
    synchronized int atomicSite(String className, String method, String sourceFile, int line, String target) {
        return add(new Site(className, method, sourceFile, line, target, true, -1, LocationTable.ATOMIC));
    }

    /** The caller holds this table's lock. */
    private int add(Site site) {
        Site[] s = sites;
        if (siteCount == s.length) s = Arrays.copyOf(s, s.length * 2);
        s[siteCount] = site;
        sites = s;
        return siteCount++;
    }

    synchronized void observed() {
        observedClasses++;
    }

    synchronized void unobserved(String className, Throwable why) {
        unobserved.add(className + ": " + why);
    }

    /** What the report says of the instrumentation: classes observed, sites, and the classes left unobserved. */
    synchronized ObservationReport.Instrumented instrumented() {
        return new ObservationReport.Instrumented(observedClasses, siteCount, new ArrayList<Object>(unobserved));
    }
}
