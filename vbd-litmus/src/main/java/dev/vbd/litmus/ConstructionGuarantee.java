package dev.vbd.litmus;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The test's forbidden outcomes are forbidden by safe construction too ({@code --mode
 * safe-construction}): each shows an object seen without a store its constructor made before the
 * object could leave it. {@code vbd litmus --mode safe-construction} fails on them, and reports the
 * others' forbidden outcomes as what that mode does not promise.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ConstructionGuarantee {
}
