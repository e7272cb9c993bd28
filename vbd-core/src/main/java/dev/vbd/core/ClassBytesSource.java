package dev.vbd.core;

/**
 * Where the rewriter finds other classes' bytes: superclasses for the constructor-leak
 * analysis, field owners for relaxed code. Returns null when the class cannot be found;
 * callers then take the conservative choice.
 */
@FunctionalInterface
public interface ClassBytesSource {
    byte[] find(String internalName);

    ClassBytesSource NONE = name -> null;
}
