/* Store buffering: x = 1; r0 = y  ||  y = 1; r1 = x.
 * r0 == r1 == 0 is impossible under SC.  x86-TSO allows it: each store can
 * wait in the store buffer while the following load reads memory. */
#include "litmus.h"

int x, y, r0, r1;
static long iters, nonsc;

static void *t0(void *arg) {
  int s = 0;
  for (long i = 0; i < iters; i++) {
    x = y = 0;
    s = litmus_barrier(s);
    x = 1;
    r0 = y;
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
    y = 1;
    r1 = x;
    s = litmus_barrier(s);
  }
  return arg;
}

int main(int argc, char **argv) {
  iters = litmus_setup("sb", argc, argv, 200000);
  litmus_run2(t0, t1);
  litmus_report(nonsc, iters);
  return 0;
}
