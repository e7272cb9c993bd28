/* zstd: compress (level 3, two worker threads) and decompress. */
#include "common.h"
#include "zstd.h"

int main(int argc, char **argv) {
  int n = iterations(argc, argv, 5);
  size_t size = argc > 2 ? (size_t)atol(argv[2]) : 32u << 20;
  unsigned char *in = make_text(size);
  size_t cap = ZSTD_compressBound(size);
  unsigned char *comp = malloc(cap), *back = malloc(size);
  ZSTD_CCtx *cctx = ZSTD_createCCtx();
  ZSTD_DCtx *dctx = ZSTD_createDCtx();
  if (ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 3)) ||
      ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_nbWorkers, 2))) {
    fprintf(stderr, "zstd: multithreading not available\n");
    return 1;
  }
  uint64_t sum = FNV_INIT;
  for (int it = 0; it < n; it++) {
    double t0 = now_ms();
    size_t clen = ZSTD_compress2(cctx, comp, cap, in, size);
    if (ZSTD_isError(clen))
      return 1;
    size_t blen = ZSTD_decompressDCtx(dctx, back, size, comp, clen);
    if (ZSTD_isError(blen) || blen != size || memcmp(in, back, size) != 0)
      return 1;
    printf("iter %d %.3f\n", it, now_ms() - t0);
    if (it == 0)
      sum = fnv1a(sum, comp, clen);
  }
  printf("checksum %016llx\n", (unsigned long long)sum);
  return 0;
}
