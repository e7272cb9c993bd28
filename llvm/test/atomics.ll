; Atomics written by the programmer keep exactly the ordering they were given;
; vbd-add-sc tags them !vbd.user so that vbd-expand leaves them alone too.
; RUN: %opt -passes=vbd-add-sc,vbd-expand -S %s | FileCheck %s
; RUN: %opt -passes=vbd-add-sc,'vbd-expand<mfence>' -S %s | FileCheck %s
; On x86 neither dropping the barriers TSO does not need nor locking fences
; touches them: a programmer's seq_cst store stays XCHG and the fence stays.
; RUN: %opt -mtriple=x86_64-unknown-linux-gnu -passes=vbd-add-sc,vbd-expand -S %s | FileCheck %s
; RUN: %opt -mtriple=x86_64-unknown-linux-gnu -passes=vbd-add-sc,vbd-expand -S %s | FileCheck %s --check-prefix=X86

; X86-LABEL: define void @user_sc_fence(
; X86-NEXT: store atomic i32 1, ptr @a seq_cst, align 4, !vbd.user
; X86-NEXT: fence seq_cst, !vbd.user
; X86-NEXT: fence seq_cst, !vbd.user
; X86-NEXT: ret void
define void @user_sc_fence() {
  store atomic i32 1, ptr @a seq_cst, align 4
  fence seq_cst
  fence seq_cst
  ret void
}

@a = global i32 0

; CHECK-LABEL: define void @user_atomics(
; CHECK-NEXT: load atomic i32, ptr @a monotonic, align 4, !vbd.user !{{[0-9]+}}{{$}}
; CHECK-NEXT: load atomic i32, ptr @a acquire, align 4, !vbd.user !{{[0-9]+}}{{$}}
; CHECK-NEXT: store atomic i32 1, ptr @a release, align 4, !vbd.user !{{[0-9]+}}{{$}}
; CHECK-NEXT: store atomic i32 2, ptr @a unordered, align 4, !vbd.user !{{[0-9]+}}{{$}}
; CHECK-NEXT: store atomic i32 3, ptr @a seq_cst, align 4, !vbd.user !{{[0-9]+}}{{$}}
; CHECK-NEXT: atomicrmw add ptr @a, i32 1 monotonic, align 4{{$}}
; CHECK-NEXT: cmpxchg ptr @a, i32 0, i32 1 acquire monotonic, align 4{{$}}
; CHECK-NEXT: fence acquire, !vbd.user !{{[0-9]+}}{{$}}
; CHECK-NEXT: ret void
define void @user_atomics() {
  %1 = load atomic i32, ptr @a monotonic, align 4
  %2 = load atomic i32, ptr @a acquire, align 4
  store atomic i32 1, ptr @a release, align 4
  store atomic i32 2, ptr @a unordered, align 4
  store atomic i32 3, ptr @a seq_cst, align 4
  %3 = atomicrmw add ptr @a, i32 1 monotonic
  %4 = cmpxchg ptr @a, i32 0, i32 1 acquire monotonic
  fence acquire
  ret void
}
