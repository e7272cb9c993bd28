/**
 * Racy publication of objects whose fields are neither final nor volatile: what
 * {@code --mode safe-construction} promises (and, being stronger, SC too). A reader that sees the
 * object sees every store its constructor made before the object could leave it.
 */
package dev.vbd.litmus.construction;
