/* bzip2: compress (block size 9) and decompress a text buffer. */
#include "bzlib.h"
#include "common.h"

int main(int argc, char **argv) {
  int n = iterations(argc, argv, 5);
  unsigned size = argc > 2 ? (unsigned)atoi(argv[2]) : 6u << 20;
  unsigned char *in = make_text(size);
  unsigned cap = size + size / 100 + 600;
  char *comp = malloc(cap), *back = malloc(size);
  uint64_t sum = FNV_INIT;
  for (int it = 0; it < n; it++) {
    double t0 = now_ms();
    unsigned clen = cap, blen = size;
    if (BZ2_bzBuffToBuffCompress(comp, &clen, (char *)in, size, 9, 0, 30) != BZ_OK)
      return 1;
    if (BZ2_bzBuffToBuffDecompress(back, &blen, comp, clen, 0, 0) != BZ_OK ||
        blen != size || memcmp(in, back, size) != 0)
      return 1;
    if (it == 0)
      sum = fnv1a(sum, comp, clen);
    printf("iter %d %.3f\n", it, now_ms() - t0);
  }
  printf("checksum %016llx\n", (unsigned long long)sum);
  return 0;
}
