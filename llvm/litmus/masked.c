/* Store buffering through a target intrinsic that stores:
 * STORE(x, 1); r0 = y  ||  STORE(y, 1); r1 = x, r0 == r1 == 0 forbidden
 * under SC.  The store is a masked one that writes the first element only:
 *   -DVIA_MASKMOV   _mm_maskmoveu_si128 (MASKMOVDQU, SSE2, non-temporal);
 *   -DVIA_AVX2      _mm_maskstore_epi32 (VPMASKMOVD);
 *   -DVIA_AVX512    _mm512_mask_storeu_epi32 (VMOVDQU32 with a mask).
 * The mask is a constant, which -O2 folds into a plain store after sc-cc's
 * first pass has run, or with -DVARIABLE_MASK one read at run time.  Where
 * the CPU lacks the instruction set, the test reports no run ("skipped"). */
#include "litmus.h"
#include <immintrin.h>

static _Alignas(64) int x[16];
static _Alignas(64) int y[16];
static int r0, r1;
static long iters, nonsc;
static int first = -1; /* all bits set: the first element is stored */

#if defined(VIA_MASKMOV)
#define NAME "masked_maskmov"
#define ISA "sse2"
#define STORE(v) _mm_maskmoveu_si128(_mm_set1_epi32(1), MASK8, (char *)(v))
#elif defined(VIA_AVX2)
#define NAME "masked_avx2"
#define ISA "avx2"
__attribute__((target("avx2")))
static void store_avx2(int *v, int m) {
  _mm_maskstore_epi32(v, _mm_setr_epi32(m, 0, 0, 0), _mm_set1_epi32(1));
}
#define STORE(v) store_avx2(v, MASK32)
#else
#define NAME "masked_avx512"
#define ISA "avx512f"
__attribute__((target("avx512f")))
static void store_avx512(int *v, __mmask16 m) {
  _mm512_mask_storeu_epi32(v, m, _mm512_set1_epi32(1));
}
#define STORE(v) store_avx512(v, (__mmask16)(MASK32 & 1))
#endif

#ifdef VARIABLE_MASK
static int mask_bits;
#define MASK32 mask_bits
#define MASK8 _mm_setr_epi32(mask_bits, 0, 0, 0)
#else
#define MASK32 -1
#define MASK8 _mm_setr_epi32(-1, 0, 0, 0)
#endif

static void *t0(void *arg) {
  int s = 0;
  for (long i = 0; i < iters; i++) {
    x[0] = 0;
    y[0] = 0;
    s = litmus_barrier(s);
    STORE(x);
    r0 = y[0];
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
    STORE(y);
    r1 = x[0];
    s = litmus_barrier(s);
  }
  return arg;
}

int main(int argc, char **argv) {
  iters = litmus_setup(NAME, argc, argv, 200000);
#ifdef VARIABLE_MASK
  mask_bits = argc > 3 ? atoi(argv[3]) : first;
#else
  (void)first;
#endif
  if (!__builtin_cpu_supports(ISA)) {
    alarm(0);
    printf("RESULT %s skipped (no %s)\n", NAME, ISA);
    return 0;
  }
  litmus_run2(t0, t1);
  litmus_report(nonsc, iters);
  return 0;
}
