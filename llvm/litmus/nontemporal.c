/* Message passing through a non-temporal store: DATA = 1 streamed past the
 * caches; flag = 1  ||  r0 = flag; r1 = data.  r0 == 1 && r1 == 0 is
 * impossible under SC.  x86 keeps no ordinary store behind a non-temporal
 * one, so it shows on stock builds.
 *   (default)      _mm_stream_si128 (MOVNTDQ) of a 16-byte vector;
 *   -DVIA_SI32     _mm_stream_si32 (MOVNTI) of an int. */
#include "litmus.h"
#include <immintrin.h>

static _Alignas(64) int data[16];
static _Alignas(64) int flag;
static int r0, r1;
static long iters, nonsc;

static void *writer(void *arg) {
  int s = 0;
  for (long i = 0; i < iters; i++) {
    s = litmus_barrier(s);
#ifdef VIA_SI32
    _mm_stream_si32(&data[0], 1);
#else
    _mm_stream_si128((__m128i *)data, _mm_set1_epi32(1));
#endif
    flag = 1;
    s = litmus_barrier(s);
  }
  return arg;
}

static void *reader(void *arg) {
  int s = 0;
  for (long i = 0; i < iters; i++) {
    s = litmus_barrier(s);
    r0 = flag;
    r1 = data[0];
    s = litmus_barrier(s);
    if (r0 == 1 && r1 == 0)
      nonsc++;
    data[0] = 0;
    flag = 0;
  }
  return arg;
}

int main(int argc, char **argv) {
#ifdef VIA_SI32
  iters = litmus_setup("nontemporal_si32", argc, argv, 200000);
#else
  iters = litmus_setup("nontemporal", argc, argv, 200000);
#endif
  litmus_run2(writer, reader);
  litmus_report(nonsc, iters);
  return 0;
}
