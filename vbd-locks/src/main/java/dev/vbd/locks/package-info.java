/**
 * {@link dev.vbd.locks.ReservedLock}: lock reservation on a stock JVM (docs/locks.md). Every class
 * here is written for the Java Memory Model, its races argued in the docs: vbd leaves it as compiled.
 */
@Relaxed("written for the Java Memory Model: the reservation protocol is argued in docs/locks.md")
package dev.vbd.locks;

import dev.vbd.Relaxed;
