/* Dekker's mutual exclusion on plain variables.  Under SC no two threads are
 * ever inside the critical section together and no increment is lost.  On
 * x86 the store-buffering reordering breaks the entry protocol; an
 * optimising compiler may also hoist the flag reads out of the wait loops,
 * which hangs (reported as such). */
#include "mutex.h"

int flag0, flag1, turn;
static long iters;

static void *t0(void *arg) {
  litmus_barrier(0); /* start together, or one thread may finish first */
  for (long i = 0; i < iters; i++) {
    flag0 = 1;
    while (flag1) {
      if (turn != 0) {
        flag0 = 0;
        while (turn != 0)
          ;
        flag0 = 1;
      }
    }
    critical();
    turn = 1;
    flag0 = 0;
  }
  return arg;
}

static void *t1(void *arg) {
  litmus_barrier(0);
  for (long i = 0; i < iters; i++) {
    flag1 = 1;
    while (flag0) {
      if (turn != 1) {
        flag1 = 0;
        while (turn != 1)
          ;
        flag1 = 1;
      }
    }
    critical();
    turn = 0;
    flag1 = 0;
  }
  return arg;
}

int main(int argc, char **argv) {
  iters = litmus_setup("dekker", argc, argv, 20000);
  litmus_run2(t0, t1);
  mutex_report(iters);
  return 0;
}
