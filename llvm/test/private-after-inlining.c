// A local whose address is handed to a function counts as escaped when
// vbd-add-sc runs, before inlining, so its accesses are SC.  Once the callee
// is inlined the address no longer escapes: the accesses become plain again,
// with no XCHG left in the loop.
// RUN: sc-cc -O2 -S %s -o - | FileCheck %s
// RUN: sc-cc --sc-optimise=whole-copies,tso-barriers,locked-fences -O2 -S %s -o - | FileCheck %s --check-prefix=OFF
// CHECK-LABEL: sum4:
// CHECK-NOT: xchg
// CHECK-NOT: lock
// CHECK: ret
// OFF-LABEL: sum4:
// OFF: xchgq {{.*}}(%rsp
static void put(long *b, int i, long v) { b[i & 3] += v; }

long sum4(const long *a, int n) {
  long b[4] = {0, 0, 0, 0};
  for (int i = 0; i < n; i++)
    put(b, i, a[i]);
  return b[0] + b[1] + b[2] + b[3];
}
