/* Two threads assign two one-bit fields that share a storage unit:
 * s.a = 1  ||  s.b = 1.  Under SC each assignment is one access, so every
 * interleaving leaves both bits set; a lost bit is forbidden.  (C11 calls
 * this a race on one memory location; SC by default keeps it an
 * interleaving of whole assignments.) */
#include "litmus.h"

static struct {
  unsigned a : 1;
  unsigned b : 1;
} s;
static long iters, nonsc;

static void *t0(void *arg) {
  int k = 0;
  for (long i = 0; i < iters; i++) {
    k = litmus_barrier(k);
    s.a = 1;
    k = litmus_barrier(k);
    if (!(s.a && s.b))
      nonsc++;
    k = litmus_barrier(k);
    s.a = 0;
    s.b = 0;
  }
  return arg;
}

static void *t1(void *arg) {
  int k = 0;
  for (long i = 0; i < iters; i++) {
    k = litmus_barrier(k);
    s.b = 1;
    k = litmus_barrier(k);
    k = litmus_barrier(k);
  }
  return arg;
}

int main(int argc, char **argv) {
  iters = litmus_setup("bitfield", argc, argv, 100000);
  litmus_run2(t0, t1);
  litmus_report(nonsc, iters);
  return 0;
}
