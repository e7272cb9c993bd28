/* A spin loop on a plain flag.  Under SC the waiter must eventually see the
 * store.  An optimising compiler may read the flag once and spin forever:
 * the alarm reports that as a hang.  With -DVIA_MASKLOAD the waiter reads
 * the flag through an AVX2 masked load (VPMASKMOVD), an intrinsic. */
#include "litmus.h"
#ifdef VIA_MASKLOAD
#include <immintrin.h>
#define NAME "spin_maskload"
__attribute__((target("avx2")))
static int read_flag(int *p) {
  return _mm_cvtsi128_si32(_mm_maskload_epi32(p, _mm_setr_epi32(-1, 0, 0, 0)));
}
#define READY() read_flag(&ready)
#else
#define NAME "spin"
#define READY() ready
#endif

int ready;
int payload;
static long iters, nonsc;

static long spins;

static void *waiter(void *arg) {
  long n = 0;
  while (!READY())
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
  iters = litmus_setup(NAME, argc, argv, 20);
#ifdef VIA_MASKLOAD
  if (!__builtin_cpu_supports("avx2")) {
    alarm(0);
    printf("RESULT %s skipped (no avx2)\n", NAME);
    return 0;
  }
#endif
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
