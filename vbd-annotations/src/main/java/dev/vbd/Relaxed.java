package dev.vbd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Opts the annotated code out of sequential consistency by default: it keeps the plain
 * Java Memory Model semantics and the speed that comes with them.
 *
 * <ul>
 *   <li>On a method: the method's own heap accesses compile as on stock Java. Methods it
 *       calls are not relaxed unless they are themselves in a relaxed scope.</li>
 *   <li>On a field: the field is never made volatile; every access to it is plain
 *       (unless it was declared {@code volatile} in the source).</li>
 *   <li>On a class: all its methods and fields, as above. Nested classes are not included.</li>
 *   <li>On a package ({@code package-info.java}): every class of the package.</li>
 * </ul>
 *
 * Relaxed code must be data-race-free for the whole program to stay sequentially consistent.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.FIELD, ElementType.TYPE, ElementType.PACKAGE})
public @interface Relaxed {
    /** Why this code may be relaxed: a note for reviewers; no effect on behaviour. */
    String value() default "";
}
