/* Publication of a struct through a plain pointer: the writer fills a fresh
 * struct and then stores its address; a reader that sees the address must
 * see the contents.  x86-TSO keeps stores in order and loads in order, so on
 * x86 only a compiler reordering could show this; stock clang does not. */
#include "litmus.h"

struct msg {
  long a, b, c;
};
struct msg *box;
static struct msg *pool;
static long iters, nonsc, seen;

static void *writer(void *arg) {
  int s = 0;
  for (long i = 0; i < iters; i++) {
    s = litmus_barrier(s);
    struct msg *m = &pool[i];
    m->a = i + 1;
    m->b = 2 * (i + 1);
    m->c = 3 * (i + 1);
    box = m;
    s = litmus_barrier(s);
  }
  return arg;
}

static void *reader(void *arg) {
  int s = 0;
  for (long i = 0; i < iters; i++) {
    s = litmus_barrier(s);
    struct msg *p = 0;
    for (int k = 0; k < 2000 && !(p = box); k++)
      ;
    if (p) {
      seen++;
      if (p->a != i + 1 || p->b != 2 * (i + 1) || p->c != 3 * (i + 1))
        nonsc++;
    }
    s = litmus_barrier(s);
    box = 0;
  }
  return arg;
}

int main(int argc, char **argv) {
  iters = litmus_setup("publish", argc, argv, 100000);
  pool = calloc(iters, sizeof *pool);
  if (!pool)
    return 2;
  litmus_run2(writer, reader);
  fprintf(stderr, "publish: reader saw the pointer in %ld of %ld runs\n", seen,
          iters);
  litmus_report(nonsc, iters);
  return 0;
}
