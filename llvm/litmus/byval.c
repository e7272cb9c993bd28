/* A spin loop whose flag is read through a struct passed by value.  Clang
 * passes a global struct to a by-value parameter as the global's address
 * (`ptr byval`), with the copy left to the backend; after inlining the
 * callee's load of its parameter is a load of the global itself.  Under SC
 * the waiter must see the setter's store and end. */
#include "litmus.h"

struct big {
  int ready;
  int pad[15];
};
static struct big g;
static int payload;
static long iters, nonsc;

static int peek(struct big s) { return s.ready; }

static void *waiter(void *arg) {
  while (!peek(g))
    ;
  if (payload != 42)
    nonsc++;
  return arg;
}

static void *setter(void *arg) {
  usleep(1000);
  payload = 42;
  g.ready = 1;
  return arg;
}

int main(int argc, char **argv) {
  iters = litmus_setup("byval", argc, argv, 20);
  for (long i = 0; i < iters; i++) {
    g.ready = 0;
    payload = 0;
    litmus_run2(waiter, setter);
  }
  litmus_report(nonsc, iters);
  return 0;
}
