package dev.vbd.core.verify;

/**
 * Class bytes outside the verified set, by the loader key of the code asking and the internal
 * name; null when not found. The verifier asks it for package descriptors (a package may be
 * relaxed) and, in a static check, for field owners in the JDK the code will run on.
 */
@FunctionalInterface
public interface ClassLookup {
    byte[] find(String loader, String internalName);
}
