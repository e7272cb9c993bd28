/* bzip2: compress (block size 9) and decompress a text buffer. */
#include "bzlib.h"
#include "common.h"

static int trip(struct buffers *b, uint64_t *sum) {
  unsigned clen = b->cap, blen = b->size;
  if (BZ2_bzBuffToBuffCompress((char *)b->comp, &clen, (char *)b->in, b->size,
                               9, 0, 30) != BZ_OK)
    return 1;
  if (BZ2_bzBuffToBuffDecompress((char *)b->back, &blen, (char *)b->comp, clen,
                                 0, 0) != BZ_OK ||
      !came_back(b, blen))
    return 1;
  if (sum)
    *sum = fnv1a(*sum, b->comp, clen);
  return 0;
}

int main(int argc, char **argv) {
  int n = iterations(argc, argv, 5);
  unsigned size = argc > 2 ? (unsigned)atoi(argv[2]) : 6u << 20;
  struct buffers b = make_buffers(size, size + size / 100 + 600);
  return time_round_trips(n, &b, trip);
}
