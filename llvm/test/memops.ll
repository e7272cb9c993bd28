; Without whole copies (SC_OPTIMISE without 'whole-copies'), the paper's form:
; memcpy/memmove/memset, as intrinsics or libc calls, become loops of
; unordered atomics between two seq_cst fences: no order among the bytes, but
; ordered as a whole against the rest of the thread.  The element accesses are
; also volatile so that loop idiom recognition cannot fold the loop into an
; llvm.memcpy.element.unordered.atomic call, whose runtime function
; (__llvm_memcpy_element_unordered_atomic_N) no C library provides.
; The default keeps them whole: whole-copies.ll.
; RUN: env SC_OPTIMISE=none %opt -passes=vbd-add-sc -S %s | FileCheck %s
; RUN: env SC_OPTIMISE=tso-barriers,locked-fences %opt -passes=vbd-add-sc -S %s | FileCheck %s
; RUN: env SC_OPTIMISE=none %opt -passes=vbd-add-sc,verify -disable-output %s

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare ptr @memcpy(ptr, ptr, i64)
declare ptr @memmove(ptr, ptr, i64)
declare ptr @memset(ptr, i32, i64)

; Both sides 8-aligned: i64 elements, then a byte loop for the tail.
; CHECK-LABEL: define void @cpy_aligned(
; CHECK-NOT: @llvm.memcpy
; CHECK: fence seq_cst
; CHECK: vbd.mem.loop:
; CHECK: load atomic volatile i64, ptr %{{.*}} unordered, align 8, !vbd.sc
; CHECK: store atomic volatile i64 %{{.*}}, ptr %{{.*}} unordered, align 8, !vbd.sc
; CHECK: vbd.mem.loop{{[0-9]+}}:
; CHECK: load atomic volatile i8, ptr %{{.*}} unordered, align 1, !vbd.sc
; CHECK: store atomic volatile i8 %{{.*}}, ptr %{{.*}} unordered, align 1, !vbd.sc
; CHECK: fence seq_cst
; CHECK-NEXT: br label %vbd.mem.end
; CHECK: vbd.mem.end:
; CHECK-NEXT: ret void
define void @cpy_aligned(ptr align 8 %d, ptr align 8 %s, i64 %n) {
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %d, ptr align 8 %s, i64 %n, i1 false)
  ret void
}

; Unknown alignment: bytes only.
; CHECK-LABEL: define void @cpy_bytes(
; CHECK: fence seq_cst
; CHECK: load atomic volatile i8, ptr %{{.*}} unordered, align 1
; CHECK: store atomic volatile i8 %{{.*}}, ptr %{{.*}} unordered, align 1
; CHECK-NOT: load atomic volatile i64
; CHECK: fence seq_cst
define void @cpy_bytes(ptr %d, ptr %s, i64 %n) {
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
  ret void
}

; memmove picks the direction at run time.
; CHECK-LABEL: define void @move(
; CHECK: fence seq_cst
; CHECK: icmp ule i64
; CHECK: vbd.mem.fwd:
; CHECK: load atomic volatile i32, ptr %{{.*}} unordered, align 4
; CHECK: vbd.mem.bwd:
; CHECK: load atomic volatile i8, ptr %{{.*}} unordered, align 1
; CHECK: load atomic volatile i32, ptr %{{.*}} unordered, align 4
; CHECK: vbd.mem.join:
; CHECK-NEXT: fence seq_cst
define void @move(ptr align 4 %d, ptr align 4 %s, i64 %n) {
  call void @llvm.memmove.p0.p0.i64(ptr align 4 %d, ptr align 4 %s, i64 %n, i1 false)
  ret void
}

; memset stores the byte splatted across the element.
; CHECK-LABEL: define void @set(
; CHECK: mul i64 %{{.*}}, 72340172838076673
; CHECK: fence seq_cst
; CHECK: store atomic volatile i64 %{{.*}}, ptr %{{.*}} unordered, align 8
; CHECK: store atomic volatile i8 %v, ptr %{{.*}} unordered, align 1
; CHECK: fence seq_cst
define void @set(ptr align 16 %d, i8 %v, i64 %n) {
  call void @llvm.memset.p0.i64(ptr align 16 %d, i8 %v, i64 %n, i1 false)
  ret void
}

; Calls straight to libc (e.g. -fno-builtin) are expanded as well, and their
; result, the destination, is preserved.
; CHECK-LABEL: define ptr @libc_calls(
; CHECK-NOT: call ptr @mem
; CHECK: store atomic volatile i8 %{{.*}} unordered
; CHECK: ret ptr %d
define ptr @libc_calls(ptr %d, ptr %s, i64 %n) {
  %r = call ptr @memcpy(ptr %d, ptr %s, i64 %n)
  %r2 = call ptr @memmove(ptr %d, ptr %s, i64 %n)
  %r3 = call ptr @memset(ptr %d, i32 0, i64 %n)
  ret ptr %r
}

; Copies between private stack slots stay library calls.
; CHECK-LABEL: define void @private_copy(
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %a, ptr align 4 %b, i64 16, i1 false)
; CHECK: call void @llvm.memset.p0.i64(ptr align 4 %a, i8 0, i64 16, i1 false)
; But reading shared memory into a private slot is still SC.
; CHECK-NOT: call void @llvm.memcpy
; CHECK: fence seq_cst
; CHECK: ret void
define void @private_copy(ptr %shared) {
  %a = alloca [4 x i32], align 4
  %b = alloca [4 x i32], align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %a, ptr align 4 %b, i64 16, i1 false)
  call void @llvm.memset.p0.i64(ptr align 4 %a, i8 0, i64 16, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %a, ptr %shared, i64 16, i1 false)
  ret void
}
