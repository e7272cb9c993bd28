package dev.vbd.agent.observe;

/**
 * For each candidate method, the evidence that relaxing it is safe: how many of the locations it
 * touched stayed with one thread and how many were shared but ordered, or the first race one of
 * them had. A location is tallied once, when it is dropped or the report is written.
 */
final class EvidenceTally {
    /** Per candidate: what its locations turned out to be, and the first race one of them had. */
    static final class Evidence {
        long confined;
        long ordered;
        String race;
    }

    private final Evidence[] evidence;

    EvidenceTally(int candidates) {
        evidence = new Evidence[candidates];
        for (int i = 0; i < evidence.length; i++) evidence[i] = new Evidence();
    }

    /** A candidate's evidence; read it under its own lock. */
    Evidence of(int candidate) {
        return evidence[candidate];
    }

    void raced(int candidate, String race) {
        Evidence e = evidence[candidate];
        synchronized (e) {
            if (e.race == null) e.race = race;
        }
    }

    /** A location's verdict for each candidate that touched it, unless it raced. */
    void tally(Location l) {
        if (l.race != null) return;
        for (int c : l.candidates()) {
            Evidence e = evidence[c];
            synchronized (e) {
                if (l.shared) {
                    e.ordered++;
                } else {
                    e.confined++;
                }
            }
        }
    }
}
