// memcpy/memmove/memset under sc-cc compute what libc does, for every
// alignment, length and overlap direction: kept whole between fences (the
// default, fortified too) and as the paper's fenced loops (--sc-optimise=none).
// RUN: sc-cc -O0 %s -o %t.O0 && %t.O0
// RUN: sc-cc -O2 %s -o %t.O2 && %t.O2
// RUN: sc-cc -O2 -D_FORTIFY_SOURCE=2 %s -o %t.fort && %t.fort
// RUN: sc-cc -O2 -fno-builtin %s -o %t.nb && %t.nb
// RUN: sc-cc -O2 --sc-store=mfence %s -o %t.mf && %t.mf
// RUN: sc-cc --sc-optimise=none -O0 %s -o %t.loop0 && %t.loop0
// RUN: sc-cc --sc-optimise=none -O2 %s -o %t.loop2 && %t.loop2
// RUN: sc-cc --sc-optimise=none -O2 -fno-builtin %s -o %t.loopnb && %t.loopnb
// RUN: sc-cc --sc-optimise=none -O2 --sc-store=mfence %s -o %t.loopmf && %t.loopmf
#include <stdio.h>
#include <string.h>

static unsigned char buf[256] __attribute__((aligned(16)));
static unsigned char ref[256];

static void ref_move(unsigned char *d, const unsigned char *s, size_t n) {
  unsigned char tmp[256];
  for (size_t i = 0; i < n; i++)
    tmp[i] = s[i];
  for (size_t i = 0; i < n; i++)
    d[i] = tmp[i];
}

static void reset(void) {
  for (int i = 0; i < 256; i++)
    buf[i] = ref[i] = (unsigned char)(i * 7 + 3);
}

static int check(const char *what, int d, int s, int n) {
  if (memcmp(buf, ref, sizeof buf) == 0)
    return 0;
  printf("FAIL %s dst=%d src=%d len=%d\n", what, d, s, n);
  return 1;
}

int main(void) {
  int bad = 0;
  for (int d = 0; d < 20; d++)
    for (int s = 0; s < 20; s++)
      for (int n = 0; n < 70; n += (n < 20 ? 1 : 7)) {
        reset();
        memmove(buf + 64 + d, buf + 64 + s, n);
        ref_move(ref + 64 + d, ref + 64 + s, n);
        bad += check("memmove", d, s, n);
        if (d + n <= s + 64 || s + n <= d + 64) {
          reset();
          memcpy(buf + d, buf + 128 + s, n);
          ref_move(ref + d, ref + 128 + s, n);
          bad += check("memcpy", d, s, n);
        }
        reset();
        memset(buf + d, s, n);
        for (int i = 0; i < n; i++)
          ref[d + i] = (unsigned char)s;
        bad += check("memset", d, s, n);
      }
  // Aligned bulk copies take the 8-byte element path.
  static long la[32], lb[32];
  for (int i = 0; i < 32; i++)
    la[i] = i * 1000003L;
  memcpy(lb, la, sizeof la);
  for (int i = 0; i < 32; i++)
    if (lb[i] != la[i])
      bad += printf("FAIL aligned memcpy at %d\n", i) > 0;
  if (bad)
    printf("%d failures\n", bad);
  return bad != 0;
}
