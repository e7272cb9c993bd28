package dev.vbd.internal;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

/** The program's own annotation of the name and kind vbd marks its rewrites with: a forged marker. */
@Retention(RetentionPolicy.CLASS)
public @interface Rewritten {}
