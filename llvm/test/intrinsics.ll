; Intrinsics that read or write memory another thread can name are ordered
; whole between two seq_cst fences, as copies are: masked loads and stores,
; MASKMOVDQU, and any intrinsic the pass does not know.  A fence on either
; side also keeps a later fold of a constant-mask access into a plain load
; or store (InstCombine, after vbd-add-sc) in order, and a wait loop on such
; a load from being hoisted.  Hints (prefetch) are left alone.
; RUN: %opt -passes=vbd-add-sc -S %s | FileCheck %s
; RUN: %opt -passes=vbd-add-sc,instcombine -S %s | FileCheck %s --check-prefix=FOLDED

target triple = "x86_64-unknown-linux-gnu"

@x = global [4 x i32] zeroinitializer

declare void @llvm.x86.sse2.maskmov.dqu(<16 x i8>, <16 x i8>, ptr)
declare void @llvm.x86.avx2.maskstore.d(ptr, <4 x i32>, <4 x i32>)
declare <4 x i32> @llvm.x86.avx2.maskload.d(ptr, <4 x i32>)
declare void @llvm.masked.store.v4i32.p0(<4 x i32>, ptr, i32, <4 x i1>)
declare <4 x i32> @llvm.masked.gather.v4i32.v4p0(<4 x ptr>, i32, <4 x i1>, <4 x i32>)
declare void @llvm.prefetch.p0(ptr, i32, i32, i32)

; CHECK-LABEL: define void @maskmov(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call void @llvm.x86.sse2.maskmov.dqu(
; CHECK-NEXT: fence seq_cst, !vbd.sc
define void @maskmov(<16 x i8> %v, <16 x i8> %m) {
  call void @llvm.x86.sse2.maskmov.dqu(<16 x i8> %v, <16 x i8> %m, ptr @x)
  ret void
}

; CHECK-LABEL: define void @maskstore_variable(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call void @llvm.x86.avx2.maskstore.d(
; CHECK-NEXT: fence seq_cst, !vbd.sc
define void @maskstore_variable(<4 x i32> %m) {
  call void @llvm.x86.avx2.maskstore.d(ptr @x, <4 x i32> %m, <4 x i32> <i32 1, i32 1, i32 1, i32 1>)
  ret void
}

; A constant mask: InstCombine makes it a generic masked store (and, for a
; mask of every element, a plain store), still between the fences.
; CHECK-LABEL: define void @maskstore_constant(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call void @llvm.x86.avx2.maskstore.d(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; FOLDED-LABEL: define void @maskstore_constant(
; FOLDED-NEXT: fence seq_cst
; FOLDED-NEXT: call void @llvm.masked.store
; FOLDED-NEXT: fence seq_cst
define void @maskstore_constant() {
  call void @llvm.x86.avx2.maskstore.d(ptr @x, <4 x i32> <i32 -1, i32 0, i32 0, i32 0>, <4 x i32> <i32 1, i32 1, i32 1, i32 1>)
  ret void
}

; CHECK-LABEL: define <4 x i32> @maskload(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call <4 x i32> @llvm.x86.avx2.maskload.d(
; CHECK-NEXT: fence seq_cst, !vbd.sc
define <4 x i32> @maskload(<4 x i32> %m) {
  %v = call <4 x i32> @llvm.x86.avx2.maskload.d(ptr @x, <4 x i32> %m)
  ret <4 x i32> %v
}

; CHECK-LABEL: define void @masked_store(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call void @llvm.masked.store.v4i32.p0(
; CHECK-NEXT: fence seq_cst, !vbd.sc
define void @masked_store(<4 x i32> %v, <4 x i1> %m) {
  call void @llvm.masked.store.v4i32.p0(<4 x i32> %v, ptr @x, i32 4, <4 x i1> %m)
  ret void
}

; A gather names its memory through a vector of pointers.
; CHECK-LABEL: define <4 x i32> @gather(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call <4 x i32> @llvm.masked.gather
; CHECK-NEXT: fence seq_cst, !vbd.sc
define <4 x i32> @gather(<4 x ptr> %p, <4 x i1> %m) {
  %v = call <4 x i32> @llvm.masked.gather.v4i32.v4p0(<4 x ptr> %p, i32 4, <4 x i1> %m, <4 x i32> zeroinitializer)
  ret <4 x i32> %v
}

; CHECK-LABEL: define void @hint(
; CHECK-NEXT: call void @llvm.prefetch.p0(
; CHECK-NEXT: ret void
define void @hint() {
  call void @llvm.prefetch.p0(ptr @x, i32 0, i32 3, i32 1)
  ret void
}

; A masked store to a local whose address never escapes touches only that
; local: private, left alone.
; CHECK-LABEL: define i32 @masked_store_private(
; CHECK-NOT: fence
; CHECK: ret i32
define i32 @masked_store_private(<4 x i32> %v, <4 x i1> %m) {
  %a = alloca [4 x i32], align 16
  call void @llvm.masked.store.v4i32.p0(<4 x i32> %v, ptr %a, i32 4, <4 x i1> %m)
  %r = load i32, ptr %a, align 16
  ret i32 %r
}

; The tables give va_start no bound on the memory it touches: ordered, even
; with a private va_list.
declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_end.p0(ptr)
; CHECK-LABEL: define void @variadic(
; CHECK: fence seq_cst, !vbd.sc
; CHECK-NEXT: call void @llvm.va_start.p0(
; CHECK-NEXT: fence seq_cst, !vbd.sc
define void @variadic(i32 %n, ...) {
  %ap = alloca ptr, align 8
  call void @llvm.va_start.p0(ptr %ap)
  call void @llvm.va_end.p0(ptr %ap)
  ret void
}
