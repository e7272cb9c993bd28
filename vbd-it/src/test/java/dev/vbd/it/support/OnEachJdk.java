package dev.vbd.it.support;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A test that runs once per JDK under test; the parameter is the feature release, for {@link Jvms#require}. */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "JDK {0}")
@ValueSource(ints = {17, 25})
public @interface OnEachJdk {}
