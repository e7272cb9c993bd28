package dev.vbd.core.verify;

import dev.vbd.core.analysis.ClassFacts;

import java.util.function.Supplier;

/**
 * One class to verify: its bytes as they run, the key of its defining loader (field owners
 * resolve among classes of the same key first), and, when known, the marker vbd put on it.
 *
 * <p>{@code recordedMarker} exists because a JVM keeps no invisible annotations: class bytes
 * read back from a running JVM lack vbd's marker, so the agent records it when the class loads.
 * When null, the marker is read from the bytes, if {@code bytesMarked}: whether a marker in the
 * bytes is vbd's own, because vbd made these bytes (a rewrite, the prepared JDK's class files).
 * A marker in other bytes (read back from the JVM, a jar at rest) is the program's, and counts for
 * nothing. {@code bytes} is a supplier so that large sets (a whole JDK) need not sit in memory at
 * once; it may be called more than once.
 */
public record ClassEntry(String loader, Supplier<byte[]> bytes, ClassFacts.Marker recordedMarker, boolean bytesMarked) {
    /** Bytes vbd made, whose marker, if any, is its own. */
    public ClassEntry(String loader, Supplier<byte[]> bytes, ClassFacts.Marker recordedMarker) {
        this(loader, bytes, recordedMarker, true);
    }

    /** Bytes vbd made, whose marker, if any, is its own. */
    public static ClassEntry of(String loader, byte[] bytes) {
        return new ClassEntry(loader, () -> bytes, null, true);
    }

    /** Bytes vbd did not make: only {@code recordedMarker} says the class was rewritten. */
    public static ClassEntry unmarked(String loader, Supplier<byte[]> bytes, ClassFacts.Marker recordedMarker) {
        return new ClassEntry(loader, bytes, recordedMarker, false);
    }
}
