// Each pass counts what it did: clang -Xclang -print-stats (or -save-stats)
// prints the counters.  opt -stats and -mllvm -stats print none: the LLVM
// packages are release builds, which only clang's own printing reaches.
// RUN: sc-cc --sc-store=xchg -O2 -Xclang -print-stats -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=XCHG
// RUN: sc-cc --sc-store=mfence -O2 -Xclang -print-stats -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MFENCE
// RUN: sc-cc --sc-optimise=none -O2 -Xclang -print-stats -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PAPER
#include <stdatomic.h>
#include <string.h>
#include "vbd_relaxed.h"

int shared, other;
const int table[4] = {1, 2, 3, 4};
atomic_int flag;
struct block { long a, b, c, d; } from, to;

static void add(long *b, int i, long v) { b[i & 3] += v; }

int reads(int i) { return shared + table[i & 3] + atomic_load(&flag); }
void writes(int v) { shared = v; other = v; }
void copies(void) { memcpy(&to, &from, sizeof to); }
long private_once_inlined(const long *a, int n) {
  long b[4] = {0, 0, 0, 0};
  for (int i = 0; i < n; i++)
    add(b, i, a[i]);
  return b[0] + b[3];
}
VBD_RELAXED void relaxed(int v) { other = v; }
struct { unsigned a : 1, b : 1; } bits;
void assigns_a_bit(void) { bits.a = 1; }
struct big { int v[16]; } big_one;
int by_value(struct big b);
int passes_by_value(void) { return by_value(big_one); }
void prefetches(void) { __builtin_prefetch(&shared); }
void intrinsic(void) { __builtin_ia32_clflush(&shared); }

// XCHG-DAG: {{[0-9]+}} vbd-add-sc - Loads and stores made seq_cst atomics
// XCHG-DAG: {{[0-9]+}} vbd-add-sc - Loads and stores left plain: private memory
// XCHG-DAG: 1 vbd-add-sc - Loads left plain: memory nobody writes
// XCHG-DAG: {{[0-9]+}} vbd-add-sc - Loads and stores left plain: relaxed code
// XCHG-DAG: 1 vbd-add-sc - Atomics of the program, left as written
// XCHG-DAG: {{[0-9]+}} vbd-add-sc - Copies and C library calls ordered whole between two fences
// XCHG-DAG: 1 vbd-add-sc - Bit-field assignments made one seq_cst compare-exchange loop
// XCHG-DAG: 1 vbd-add-sc - Calls copying shared memory into a by-value argument, fenced whole
// XCHG-DAG: 1 vbd-add-sc - Intrinsics that touch memory ordered whole between two fences
// XCHG-DAG: {{[0-9]+}} vbd-private - seq_cst loads and stores made plain: local private once inlined
// XCHG-DAG: {{[0-9]+}} vbd-expand - Fences made a locked OR on the stack
// XCHG-DAG: {{[0-9]+}} vbd-expand - SC stores made plain MOVs (x86-TSO): another barrier follows before any load
// XCHG-NOT: fenced volatile

// MFENCE-DAG: {{[0-9]+}} vbd-expand - seq_cst loads lowered as fenced volatile loads
// MFENCE-DAG: {{[0-9]+}} vbd-expand - seq_cst stores lowered as fenced volatile stores
// MFENCE-NOT: locked OR

// PAPER-DAG: {{[0-9]+}} vbd-add-sc - Copies made loops of unordered elements
// PAPER-NOT: vbd-private
// PAPER-NOT: pruned
