package dev.vbd.core.rewrite;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/**
 * What the classes a loader defined were defined from, by name: the length and two checksums of
 * each class file, enough to tell whether bytes found later under that name (through the loader's
 * resources, which need not be what it defines) are the ones it defined, at a cost the define
 * path does not notice. A name defined from two different class files (a hidden class may reuse a
 * name) matches nothing.
 */
final class DefinedClasses {
    private record Fingerprint(int length, long crc, long crcC) {
        static Fingerprint of(byte[] bytes) {
            CRC32 crc = new CRC32();
            crc.update(bytes, 0, bytes.length);
            CRC32C crcC = new CRC32C();
            crcC.update(bytes, 0, bytes.length);
            return new Fingerprint(bytes.length, crc.getValue(), crcC.getValue());
        }
    }

    private static final Fingerprint AMBIGUOUS = new Fingerprint(-1, 0, 0);

    private final Map<String, Fingerprint> defined = new ConcurrentHashMap<>();

    void record(String name, byte[] bytes) {
        defined.merge(name, Fingerprint.of(bytes), (a, b) -> a.equals(b) ? a : AMBIGUOUS);
    }

    /** Whether class {@code name} was defined from {@code bytes}, as far as the checksums tell. */
    boolean definedFrom(String name, byte[] bytes) {
        Fingerprint f = defined.get(name);
        return f != null && f != AMBIGUOUS && f.equals(Fingerprint.of(bytes));
    }
}
