/* Store buffering: STORE(x, 1); r0 = LOAD(y)  ||  STORE(y, 1); r1 = LOAD(x).
 * r0 == r1 == 0 is impossible under SC.  x86-TSO allows it: each store can
 * wait in the store buffer while the following load reads memory.  One
 * template, one variant per way of storing and loading:
 *   (default)      plain int variables;
 *   -DVIA_ATOMIC   C11 atomics, memory_order_seq_cst, or with -DRELAXED
 *                  memory_order_relaxed: sc-cc leaves programmer atomics as
 *                  written, so the relaxed variant keeps its weak outcome;
 *   -DVIA_COPY     memcpy of a length the compiler cannot see, which
 *                  -D_FORTIFY_SOURCE=2 (and -O1 or more) turns into
 *                  __memcpy_chk, a call into the C library;
 *   -DVIA_CHAIN    another shared store just before each store, which
 *                  sc-cc on x86 makes a plain MOV because the store after it
 *                  is a barrier;
 *   -DVIA_FORMAT   snprintf into a shared buffer (a fortified
 *                  __snprintf_chk with _FORTIFY_SOURCE) and strtol of it. */
#include "litmus.h"

char bx[8], by[8];
int r0, r1, w0, w1;
size_t len = sizeof(int);

#if defined(VIA_ATOMIC)
#ifdef RELAXED
#define ORD memory_order_relaxed
#define NAME "sb_atomic_relaxed"
#else
#define ORD memory_order_seq_cst
#define NAME "sb_atomic_seqcst"
#endif
_Atomic int x, y;
#define STORE(v, b, w) atomic_store_explicit(&v, 1, ORD)
#define LOAD(r, v, b) (r = atomic_load_explicit(&v, ORD))
#define RESET() (atomic_store_explicit(&x, 0, ORD), atomic_store_explicit(&y, 0, ORD))
#else
int x, y;
#if defined(VIA_COPY)
#define NAME "sb_memcpy"
static const int one = 1;
#define STORE(v, b, w) memcpy(&v, &one, len)
#define LOAD(r, v, b) memcpy(&r, &v, len)
#define RESET() (x = y = 0)
#elif defined(VIA_CHAIN)
#define NAME "sb_store_chain"
#define STORE(v, b, w) (w = 1, v = 1)
#define LOAD(r, v, b) (r = v)
#define RESET() (x = y = 0)
#elif defined(VIA_FORMAT)
#define NAME "sb_snprintf"
#define STORE(v, b, w) snprintf(b, sizeof b, "%d", 1)
#define LOAD(r, v, b) (r = (int)strtol(b, 0, 10))
#define RESET() (strcpy(bx, "0"), strcpy(by, "0"))
#else
#define NAME "sb"
#define STORE(v, b, w) (v = 1)
#define LOAD(r, v, b) (r = v)
#define RESET() (x = y = 0)
#endif
#endif

static long iters, nonsc;

static void *t0(void *arg) {
  int s = 0;
  for (long i = 0; i < iters; i++) {
    RESET();
    s = litmus_barrier(s);
    STORE(x, bx, w0);
    LOAD(r0, y, by);
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
    STORE(y, by, w1);
    LOAD(r1, x, bx);
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
