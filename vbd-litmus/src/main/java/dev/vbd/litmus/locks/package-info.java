/**
 * Litmus tests of {@code dev.vbd.locks.ReservedLock} (module vbd-locks): mutual exclusion while
 * reservations are cancelled. Every test's state is a fresh lock, reserved inside an actor by the
 * first thread that takes it (jcstress reuses its threads, so a lock reserved in a constructor could
 * belong to any of them); the other actor's first acquisition cancels that reservation, racing with
 * the reserver's own plain-memory lock and unlock. Any lost update, torn pair or view into another
 * thread's critical section is forbidden, under vbd and under stock Java alike. See docs/locks.md.
 * The lock's library is relaxed, so every field mode leaves it alike.
 */
@SameInEveryFieldMode
package dev.vbd.litmus.locks;

import dev.vbd.litmus.SameInEveryFieldMode;
