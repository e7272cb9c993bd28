/* Store buffering written with C11 atomics.  sc-cc leaves programmer atomics
 * exactly as written: with memory_order_seq_cst the outcome r0 == r1 == 0 is
 * forbidden under every compiler; with memory_order_relaxed (build with
 * -DRELAXED) it stays allowed under sc-cc too, which is how the relaxed
 * variant shows the atomics were not strengthened. */
#include "litmus.h"

#ifdef RELAXED
#define ORD memory_order_relaxed
#define NAME "sb_atomic_relaxed"
#else
#define ORD memory_order_seq_cst
#define NAME "sb_atomic_seqcst"
#endif

_Atomic int x, y;
int r0, r1;
static long iters, nonsc;

static void *t0(void *arg) {
  int s = 0;
  for (long i = 0; i < iters; i++) {
    atomic_store_explicit(&x, 0, ORD);
    atomic_store_explicit(&y, 0, ORD);
    s = litmus_barrier(s);
    atomic_store_explicit(&x, 1, ORD);
    r0 = atomic_load_explicit(&y, ORD);
    s = litmus_barrier(s);
    if (r0 == 0 && r1 == 0)
      nonsc++;
  }
  return arg;
}

static void *t1(void *arg) {
  int s = 0;
  for (long i = 0; i < iters; i++) {
    s = litmus_barrier(s);
    atomic_store_explicit(&y, 1, ORD);
    r1 = atomic_load_explicit(&x, ORD);
    s = litmus_barrier(s);
  }
  return arg;
}

int main(int argc, char **argv) {
  iters = litmus_setup(NAME, argc, argv, 200000);
  litmus_run2(t0, t1);
  litmus_report(nonsc, iters);
  return 0;
}
