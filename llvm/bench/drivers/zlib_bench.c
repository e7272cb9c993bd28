/* zlib: deflate (level 6) and inflate a generated text buffer. */
#include "common.h"
#include "zlib.h"

static int trip(struct buffers *b, uint64_t *sum) {
  uLongf clen = b->cap;
  if (compress2(b->comp, &clen, b->in, b->size, 6) != Z_OK)
    return 1;
  uLongf blen = b->size;
  if (uncompress(b->back, &blen, b->comp, clen) != Z_OK || !came_back(b, blen))
    return 1;
  if (sum)
    *sum = fnv1a(*sum, b->comp, clen);
  return 0;
}

int main(int argc, char **argv) {
  int n = iterations(argc, argv, 5);
  size_t size = argc > 2 ? (size_t)atol(argv[2]) : 4u << 20;
  struct buffers b = make_buffers(size, compressBound(size));
  return time_round_trips(n, &b, trip);
}
