package dev.vbd.core;

/** A program class in a package named as vbd's own. */
public final class CorePair { public int x, y; }
