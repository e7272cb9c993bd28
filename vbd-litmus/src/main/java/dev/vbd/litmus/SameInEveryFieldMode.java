package dev.vbd.litmus;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The test races on nothing that {@code --fields} rewrites differently: only on array elements, which
 * every field mode makes SC through the same array rewrite, or only inside a library vbd leaves
 * relaxed (on a package: every test in it). {@code vbd litmus --fields fenced|speculative} leaves
 * such tests out unless {@code --tests} names them, since the default mode's run already asks
 * the same question of the same rewrite; {@code bin/test --full} still runs them in every mode.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.PACKAGE})
public @interface SameInEveryFieldMode {
}
