/* Peterson's mutual exclusion on plain variables; see dekker.c. */
#include "mutex.h"

int flag[2], turn;
static long iters;

static void lock(int me) {
  int other = 1 - me;
  flag[me] = 1;
  turn = other;
  while (flag[other] && turn == other)
    ;
}

static void unlock(int me) { flag[me] = 0; }

static void *worker(int me) {
  litmus_barrier(0); /* start together, or one thread may finish first */
  for (long i = 0; i < iters; i++) {
    lock(me);
    critical();
    unlock(me);
  }
  return NULL;
}
static void *t0(void *arg) { (void)arg; return worker(0); }
static void *t1(void *arg) { (void)arg; return worker(1); }

int main(int argc, char **argv) {
  iters = litmus_setup("peterson", argc, argv, 20000);
  litmus_run2(t0, t1);
  mutex_report(iters);
  return 0;
}
