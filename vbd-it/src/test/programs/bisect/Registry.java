import java.util.HashMap;
import java.util.Map;

/** A lazily created singleton, set up by double-checked locking. */
final class Registry {
    /** The bug: not volatile. Its fields below need not be: a volatile store and load of this one orders them. */
    private static Registry instance;

    boolean loaded;
    int size;
    Map<String, String> entries;

    private Registry() {
        entries = new HashMap<>();
        entries.put("alpha", "1");
        entries.put("beta", "2");
        entries.put("gamma", "3");
        size = entries.size();
        loaded = true;
    }

    static Registry get() {
        Registry r = instance;
        if (r == null) {
            synchronized (Registry.class) {
                r = instance;
                if (r == null) {
                    r = new Registry();
                    instance = r;
                }
            }
        }
        return r;
    }

    /** The unsynchronised fast path alone: the registry if some thread has set it up, else null. */
    static Registry peek() {
        return instance;
    }

    /** What is missing from a registry seen half built, or null if it is whole. */
    String missing() {
        if (!loaded) return "loaded is false";
        if (entries == null) return "entries is null";
        if (size != 3) return "size is " + size;
        return null;
    }
}
