/* What a full barrier costs on this CPU: a store to one line and a load of
 * another, in a loop, with each kind of barrier between them (the store
 * buffer has to drain before the load).  Compiled with stock clang; the
 * barriers are written out as the instructions each sc-cc style emits.
 * Prints "<kind> <ns per store+load pair>" for each kind. */
#include "common.h"

static volatile long a[16], b[16];

#define LOOP(body)                                                             \
  do {                                                                         \
    for (long i = 0; i < n; i++) {                                             \
      a[0] = i;                                                                \
      body;                                                                    \
      sink += b[8];                                                            \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 20000000;
  long sink = 0;
  static const char *kinds[] = {"plain", "mfence", "xchg", "lock-or-stack"};
  for (int k = 0; k < 4; k++) {
    double t0 = now_ms();
    switch (k) {
    case 0:
      LOOP(__asm__ volatile("" ::: "memory"));
      break;
    case 1:
      LOOP(__asm__ volatile("mfence" ::: "memory"));
      break;
    case 2:
      /* The store itself as XCHG, as sc-cc's xchg style emits it. */
      for (long i = 0; i < n; i++) {
        long v = i;
        __asm__ volatile("xchgq %0, %1" : "+r"(v), "+m"(a[0]) : : "memory");
        sink += b[8];
      }
      break;
    case 3:
      LOOP(__asm__ volatile("lock orl $0, -64(%%rsp)" ::: "memory", "cc"));
      break;
    }
    printf("%s %.3f\n", kinds[k], (now_ms() - t0) * 1e6 / n);
  }
  printf("checksum %ld\n", sink & 1);
  return 0;
}
