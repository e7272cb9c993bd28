// The passes run inside clang's pipeline at every optimisation level.
// RUN: clang-19 -O0 -fpass-plugin=%plugin -I%include -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O0
// RUN: clang-19 -O2 -fpass-plugin=%plugin -I%include -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O2
// RUN: clang-19 -O2 -fpass-plugin=%plugin -I%include -S %s -o - | FileCheck %s --check-prefix=ASM
// RUN: clang-19 -O2 -I%include -S %s -o - | FileCheck %s --check-prefix=STOCK
#include <stdatomic.h>
#include "vbd_relaxed.h"

int flag, data;
_Atomic int counter;

// CHECK-LABEL: define{{.*}} i32 @reader(
// O0: store i32 0, ptr %[[LOCAL:[0-9]+]], align 4{{$}}
// CHECK: load atomic i32, ptr @flag seq_cst
// CHECK: load atomic i32, ptr @data seq_cst
// O0: load i32, ptr %[[LOCAL]], align 4{{$}}
int reader(void) {
  int spins = 0;
  while (!flag)
    spins++;
  return data + spins;
}

// The programmer's relaxed atomic stays relaxed.
// CHECK-LABEL: define{{.*}} void @bump(
// CHECK: atomicrmw add ptr @counter, i32 {{.*}} monotonic
// CHECK-NOT: seq_cst
// CHECK: ret void
void bump(void) { atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed); }

// CHECK-LABEL: define{{.*}} void @fill(
// O2: call void @llvm.memset
// CHECK-NOT: atomic
// CHECK: ret void
VBD_RELAXED void fill(int *a, int n) {
  for (int i = 0; i < n; i++)
    a[i] = 0;
}

// Under stock clang -O2 the spin loop is hoisted into a single check.
// ASM-LABEL: reader:
// ASM: [[LOOP:\.LBB[0-9_]+]]:
// ASM-NEXT: movl flag(%rip)
// ASM: je [[LOOP]]
// STOCK-LABEL: reader:
// STOCK: [[SPIN:\.LBB[0-9_]+]]:
// STOCK-NEXT: jmp [[SPIN]]
