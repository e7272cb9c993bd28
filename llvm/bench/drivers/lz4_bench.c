/* lz4: compress (default and acceleration 4) and decompress a text buffer. */
#include "common.h"
#include "lz4.h"

static int trip(struct buffers *b, uint64_t *sum) {
  for (int accel = 1; accel <= 4; accel += 3) {
    int clen = LZ4_compress_fast((const char *)b->in, (char *)b->comp,
                                 (int)b->size, (int)b->cap, accel);
    if (clen <= 0)
      return 1;
    int blen = LZ4_decompress_safe((const char *)b->comp, (char *)b->back,
                                   clen, (int)b->size);
    if (blen < 0 || !came_back(b, (size_t)blen))
      return 1;
    if (sum)
      *sum = fnv1a(*sum, b->comp, clen);
  }
  return 0;
}

int main(int argc, char **argv) {
  int n = iterations(argc, argv, 5);
  int size = argc > 2 ? atoi(argv[2]) : 24 << 20;
  struct buffers b = make_buffers(size, LZ4_compressBound(size));
  return time_round_trips(n, &b, trip);
}
