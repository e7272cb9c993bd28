; Passes that merge instructions (SimplifyCFG hoisting/sinking) may drop
; !vbd.sc from accesses vbd-add-sc created.  vbd-expand therefore treats every
; seq_cst access that is not tagged !vbd.user (a programmer's atomic, tagged
; by vbd-add-sc) as one of its own.  Input here is as after vbd-add-sc.
; RUN: %opt -passes='vbd-expand<xchg>' -S %s | FileCheck %s --check-prefix=XCHG
; RUN: %opt -passes='vbd-expand<mfence>' -S %s | FileCheck %s --check-prefix=MFENCE

@x = global i32 0
@y = global i32 0
@p = global [8 x i8] zeroinitializer

; XCHG-LABEL: define void @merged(
; XCHG-NEXT: store atomic i32 1, ptr @x seq_cst, align 4{{$}}
; XCHG-NEXT: store atomic i32 2, ptr @y seq_cst, align 4, !vbd.user
; MFENCE-LABEL: define void @merged(
; MFENCE-NEXT: fence release
; MFENCE-NEXT: store volatile i32 1, ptr @x, align 4, !vbd.sc
; MFENCE-NEXT: fence seq_cst
; MFENCE-NEXT: store atomic i32 2, ptr @y seq_cst, align 4, !vbd.user
define void @merged() {
  store atomic i32 1, ptr @x seq_cst, align 4
  store atomic i32 2, ptr @y seq_cst, align 4, !vbd.user !0
  ret void
}

; A merged under-aligned access must not reach the backend as an atomic: it
; would become a call to __atomic_load in libatomic.
; XCHG-LABEL: define i16 @misaligned(
; XCHG: %v = load volatile i16, ptr %q, align 1, !vbd.sc
; XCHG-NEXT: fence acquire
define i16 @misaligned() {
  %q = getelementptr i8, ptr @p, i64 1
  %v = load atomic i16, ptr %q seq_cst, align 1
  ret i16 %v
}

!0 = !{}
