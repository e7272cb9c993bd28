/* zlib: deflate (level 6) and inflate a generated text buffer. */
#include "common.h"
#include "zlib.h"

int main(int argc, char **argv) {
  int n = iterations(argc, argv, 5);
  size_t size = argc > 2 ? (size_t)atol(argv[2]) : 4u << 20;
  unsigned char *in = make_text(size);
  uLongf cap = compressBound(size);
  unsigned char *comp = malloc(cap), *back = malloc(size);
  uint64_t sum = FNV_INIT;
  for (int it = 0; it < n; it++) {
    double t0 = now_ms();
    uLongf clen = cap;
    if (compress2(comp, &clen, in, size, 6) != Z_OK)
      return 1;
    uLongf blen = size;
    if (uncompress(back, &blen, comp, clen) != Z_OK || blen != size ||
        memcmp(in, back, size) != 0)
      return 1;
    printf("iter %d %.3f\n", it, now_ms() - t0);
    if (it == 0)
      sum = fnv1a(sum, comp, clen);
  }
  printf("checksum %016llx\n", (unsigned long long)sum);
  return 0;
}
