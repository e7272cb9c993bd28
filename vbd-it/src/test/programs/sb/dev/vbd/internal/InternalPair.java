package dev.vbd.internal;

/** A program class in a package named as vbd's own. */
public final class InternalPair { public int x, y; }
