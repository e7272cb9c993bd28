; memcpy/memmove/memset stay whole, as intrinsics or libc calls, between two
; seq_cst fences: no order among the bytes, but ordered as a whole against the
; rest of the thread (the paper's semantics).  The backend then lowers a small
; constant copy to a few wide moves and a large one to the C library's own.
; RUN: %opt -passes=vbd-add-sc -S %s | FileCheck %s
; RUN: env SC_OPTIMISE=whole-copies %opt -passes=vbd-add-sc -S %s | FileCheck %s
; RUN: %opt -passes=vbd-add-sc,verify -disable-output %s
; RUN: %opt -mtriple=x86_64-unknown-linux-gnu -passes=vbd-add-sc,vbd-expand %s -o - | llc-19 -O2 -o - | FileCheck %s --check-prefix=ASM

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare ptr @memcpy(ptr, ptr, i64)

@g = dso_local global [18 x i8] zeroinitializer, align 8
@h = dso_local global [18 x i8] zeroinitializer, align 8
@x = dso_local global i32 0

; CHECK-LABEL: define void @cpy(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 8 %d, ptr align 8 %s, i64 %n, i1 false)
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call void @llvm.memmove.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr %d, i8 %v, i64 %n, i1 false)
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: %r = call ptr @memcpy(ptr %d, ptr %s, i64 %n)
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: ret void
define void @cpy(ptr align 8 %d, ptr align 8 %s, i64 %n, i8 %v) {
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %d, ptr align 8 %s, i64 %n, i1 false)
  call void @llvm.memmove.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
  call void @llvm.memset.p0.i64(ptr %d, i8 %v, i64 %n, i1 false)
  %r = call ptr @memcpy(ptr %d, ptr %s, i64 %n)
  ret void
}

; An 18-byte copy of globals is straight-line wide moves.  On x86 neither
; fence is left: no store is pending when the function starts, and the store
; of @x after the copy is an XCHG, a barrier before any load.
; ASM-LABEL: small:
; ASM-NOT: lock
; ASM-NOT: call
; ASM-DAG: movq h(%rip), %[[A:[a-z]+]]
; ASM-DAG: movq %[[A]], g(%rip)
; ASM-DAG: movq h+8(%rip), %[[B:[a-z]+]]
; ASM-DAG: movq %[[B]], g+8(%rip)
; ASM-DAG: movzwl h+16(%rip), %[[C:[a-z]+]]
; ASM-DAG: movw %{{[a-z]+}}, g+16(%rip)
; ASM: xchgl %{{[a-z]+}}, x(%rip)
; ASM-NOT: lock
; ASM: retq
define void @small() {
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 @g, ptr align 8 @h, i64 18, i1 false)
  store i32 1, ptr @x
  ret void
}

; Copies between private stack slots stay plain; reading shared memory into a
; private slot is ordered.
; CHECK-LABEL: define void @private_copy(
; CHECK-NEXT: %a = alloca
; CHECK-NEXT: %b = alloca
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %a, ptr align 4 %b, i64 16, i1 false)
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr align 4 %a, i8 0, i64 16, i1 false)
; CHECK-NEXT: fence seq_cst
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %a, ptr %shared, i64 16, i1 false)
; CHECK-NEXT: fence seq_cst
define void @private_copy(ptr %shared) {
  %a = alloca [4 x i32], align 4
  %b = alloca [4 x i32], align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %a, ptr align 4 %b, i64 16, i1 false)
  call void @llvm.memset.p0.i64(ptr align 4 %a, i8 0, i64 16, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %a, ptr %shared, i64 16, i1 false)
  ret void
}
