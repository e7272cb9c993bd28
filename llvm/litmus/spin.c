/* A spin loop on a plain flag.  Under SC the waiter must eventually see the
 * store.  An optimising compiler may read the flag once and spin forever:
 * the alarm reports that as a hang. */
#include "litmus.h"

int ready;
int payload;
static long iters, nonsc;

static long spins;

static void *waiter(void *arg) {
  long n = 0;
  while (!ready)
    n++;
  spins += n;
  if (payload != 42)
    nonsc++;
  return arg;
}

static void *setter(void *arg) {
  usleep(1000);
  payload = 42;
  ready = 1;
  return arg;
}

int main(int argc, char **argv) {
  iters = litmus_setup("spin", argc, argv, 20);
  if (argc <= 2)
    alarm(5);
  for (long i = 0; i < iters; i++) {
    ready = 0;
    payload = 0;
    litmus_run2(waiter, setter);
  }
  fprintf(stderr, "spin: %ld spins in all\n", spins);
  litmus_report(nonsc, iters);
  return 0;
}
