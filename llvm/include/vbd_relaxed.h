/* vbd_relaxed.h - opt out of sequential consistency by default.
 *
 * Code compiled with sc-cc / sc-c++ is sequentially consistent by default.
 * These macros mark code the programmer promises is data-race-free, so the
 * compiler may optimise it as ordinary C/C++ (the analogue of Julia's @drf).
 *
 *   VBD_RELAXED void fill(int *a, int n) { ... }   whole function
 *
 *   VBD_RELAXED_BEGIN;                              a block or loop: every
 *   for (i = 0; i < n; i++) a[i] = 0;               access executed after
 *   VBD_RELAXED_END;                                BEGIN and before END in
 *                                                   the same function
 *
 * With any other compiler the macros have no effect.
 */
#ifndef VBD_RELAXED_H
#define VBD_RELAXED_H

#define VBD_RELAXED __attribute__((annotate("vbd_relaxed")))

#ifdef __cplusplus
extern "C" {
#endif
/* The SC pass recognises calls to these by name and deletes them; without
 * the pass they are empty and inline away. */
static inline void __vbd_relaxed_begin(void) {}
static inline void __vbd_relaxed_end(void) {}
#ifdef __cplusplus
}
#endif

#define VBD_RELAXED_BEGIN __vbd_relaxed_begin()
#define VBD_RELAXED_END __vbd_relaxed_end()

#endif /* VBD_RELAXED_H */
