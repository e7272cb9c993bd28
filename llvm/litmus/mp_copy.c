/* Message passing through copies:
 *   copy(data, 1); copy(flag, 1)  ||  copy(f, flag); copy(d, data).
 * f == 1 && d == 0 is impossible under SC.  x86 keeps stores in order and
 * loads in order, so only the compiler could show it: by moving the second
 * copy's load above the first's once no barrier instruction separates them.
 * On x86 sc-cc drops the fences between these copies (nothing is pending)
 * and leaves a compiler-only fence in their place, which this checks.  The
 * copies are of a constant size, so each is one plain load or store. */
#include "litmus.h"

long data, flag;
static long one = 1;
static long iters, nonsc;
#define len sizeof(long)

static void *writer(void *arg) {
  int s = 0;
  for (long i = 0; i < iters; i++) {
    s = litmus_barrier(s);
    memcpy(&data, &one, len);
    memcpy(&flag, &one, len);
    s = litmus_barrier(s);
    data = flag = 0;
  }
  return arg;
}

static void *reader(void *arg) {
  int s = 0;
  for (long i = 0; i < iters; i++) {
    long f = 0, d = 0;
    s = litmus_barrier(s);
    for (int k = 0; k < 1000 && !f; k++) {
      memcpy(&f, &flag, len);
      memcpy(&d, &data, len);
    }
    if (f == 1 && d == 0)
      nonsc++;
    s = litmus_barrier(s);
  }
  return arg;
}

int main(int argc, char **argv) {
  iters = litmus_setup("mp_copy", argc, argv, 100000);
  litmus_run2(writer, reader);
  litmus_report(nonsc, iters);
  return 0;
}
