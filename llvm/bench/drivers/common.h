/* Shared pieces of the benchmark drivers.
 *
 * Every driver runs its workload N times in one process, prints
 * "iter <i> <milliseconds>" per iteration and finally "checksum <hex>", a
 * digest of everything the workload produced.  Checksums must agree across
 * builds; timings are analysed by run.py. */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static uint64_t fnv1a(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 1099511628211ULL;
  }
  return h;
}
#define FNV_INIT 14695981039346656037ULL

static uint64_t lcg_state = 88172645463325252ULL;
static uint32_t lcg(void) {
  lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (uint32_t)(lcg_state >> 33);
}

/* Compressible but not trivial: words from a small vocabulary, numbers and
 * punctuation chosen by a fixed-seed generator. */
static unsigned char *make_text(size_t n) {
  static const char *words[] = {
      "volatile", "memory", "model", "thread", "store",  "load",
      "fence",    "order",  "data",  "race",   "atomic", "sequential",
      "the",      "of",     "and",   "a",      "to",     "consistency"};
  unsigned char *buf = malloc(n);
  if (!buf)
    exit(2);
  lcg_state = 88172645463325252ULL;
  size_t i = 0;
  while (i < n) {
    char tmp[32];
    uint32_t r = lcg();
    int len;
    if (r % 7 == 0)
      len = snprintf(tmp, sizeof tmp, "%u ", r % 100000);
    else
      len = snprintf(tmp, sizeof tmp, "%s%s", words[r % 18],
                     (r >> 8) % 11 == 0 ? ".\n" : " ");
    for (int k = 0; k < len && i < n; k++)
      buf[i++] = (unsigned char)tmp[k];
  }
  return buf;
}

static int iterations(int argc, char **argv, int dflt) {
  return argc > 1 ? atoi(argv[1]) : dflt;
}

/* A text to compress, room for its compressed form, and for the copy back. */
struct buffers {
  unsigned char *in, *comp, *back;
  size_t size, cap;
};

static inline struct buffers make_buffers(size_t size, size_t cap) {
  struct buffers b = {make_text(size), malloc(cap), malloc(size), size, cap};
  if (!b.comp || !b.back)
    exit(2);
  return b;
}

/* Whether the copy back, `blen` bytes, is the input. */
static inline int came_back(const struct buffers *b, size_t blen) {
  return blen == b->size && memcmp(b->in, b->back, b->size) == 0;
}

/* Times n round trips of a compressor: `trip` compresses b->in and
 * decompresses it again, returns non-zero unless it came back, and folds its
 * compressed output into *sum when sum is not null (the first time). */
static inline int time_round_trips(int n, struct buffers *b,
                                   int (*trip)(struct buffers *, uint64_t *)) {
  uint64_t sum = FNV_INIT;
  for (int it = 0; it < n; it++) {
    double t0 = now_ms();
    if (trip(b, it == 0 ? &sum : NULL))
      return 1;
    printf("iter %d %.3f\n", it, now_ms() - t0);
  }
  printf("checksum %016llx\n", (unsigned long long)sum);
  return 0;
}

#endif
