/* zstd: compress (level 3, two worker threads) and decompress. */
#include "common.h"
#include "zstd.h"

static ZSTD_CCtx *cctx;
static ZSTD_DCtx *dctx;

static int trip(struct buffers *b, uint64_t *sum) {
  size_t clen = ZSTD_compress2(cctx, b->comp, b->cap, b->in, b->size);
  if (ZSTD_isError(clen))
    return 1;
  size_t blen = ZSTD_decompressDCtx(dctx, b->back, b->size, b->comp, clen);
  if (ZSTD_isError(blen) || !came_back(b, blen))
    return 1;
  if (sum)
    *sum = fnv1a(*sum, b->comp, clen);
  return 0;
}

int main(int argc, char **argv) {
  int n = iterations(argc, argv, 5);
  size_t size = argc > 2 ? (size_t)atol(argv[2]) : 32u << 20;
  struct buffers b = make_buffers(size, ZSTD_compressBound(size));
  cctx = ZSTD_createCCtx();
  dctx = ZSTD_createDCtx();
  if (ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 3)) ||
      ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_nbWorkers, 2))) {
    fprintf(stderr, "zstd: multithreading not available\n");
    return 1;
  }
  return time_round_trips(n, &b, trip);
}
