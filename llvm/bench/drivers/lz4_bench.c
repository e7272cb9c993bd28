/* lz4: compress (default and acceleration 4) and decompress a text buffer. */
#include "common.h"
#include "lz4.h"

int main(int argc, char **argv) {
  int n = iterations(argc, argv, 5);
  int size = argc > 2 ? atoi(argv[2]) : 24 << 20;
  unsigned char *in = make_text(size);
  int cap = LZ4_compressBound(size);
  char *comp = malloc(cap), *back = malloc(size);
  uint64_t sum = FNV_INIT;
  for (int it = 0; it < n; it++) {
    double t0 = now_ms();
    for (int accel = 1; accel <= 4; accel += 3) {
      int clen = LZ4_compress_fast((const char *)in, comp, size, cap, accel);
      if (clen <= 0)
        return 1;
      int blen = LZ4_decompress_safe(comp, back, clen, size);
      if (blen != size || memcmp(in, back, size) != 0)
        return 1;
      if (it == 0)
        sum = fnv1a(sum, comp, clen);
    }
    printf("iter %d %.3f\n", it, now_ms() - t0);
  }
  printf("checksum %016llx\n", (unsigned long long)sum);
  return 0;
}
