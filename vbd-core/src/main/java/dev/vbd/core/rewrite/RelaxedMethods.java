package dev.vbd.core.rewrite;

import java.util.ArrayList;
import java.util.List;

/** The methods one rewrite of a class left relaxed, as the marker and the result list them. */
final class RelaxedMethods {
    /** Methods whose accesses are all relaxed (or, for a bulk operation, fenced as a whole). */
    final List<String> relaxed = new ArrayList<>();
    /** Methods whose array element accesses alone are relaxed ({@link dev.vbd.core.policy.Policy#arraysRelaxed}). */
    final List<String> relaxedArrays = new ArrayList<>();
}
