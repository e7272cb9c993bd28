; Types LLVM cannot make atomic become volatile accesses fenced as in the
; paper: acquire fence after a load, release before and seq_cst after a store.
; Atomic-capable types the target cannot lower natively (i128, under-aligned)
; are SC atomics while the optimiser runs and fenced volatiles at the end.
; RUN: %opt -passes=vbd-add-sc -S %s | FileCheck %s --check-prefix=ADD
; RUN: %opt -passes=vbd-add-sc,'vbd-expand<xchg>' -S %s | FileCheck %s --check-prefix=EXP
; RUN: %opt -passes=vbd-add-sc,'vbd-expand<xchg>' %s -o - | llc-19 -O2 -o - | FileCheck %s --check-prefix=ASM

%pair = type { i32, i64 }
@v = global <4 x float> zeroinitializer
@s = global %pair zeroinitializer
@w = global i128 0
@ld = global x86_fp80 0xK00000000000000000000
@packed = global [8 x i8] zeroinitializer, align 1

; ADD-LABEL: define void @vector(
; ADD: %x = load volatile <4 x float>, ptr @v, align 16, !vbd.sc
; ADD-NEXT: fence acquire, !vbd.sc
; ADD-NEXT: fence release, !vbd.sc
; ADD-NEXT: store volatile <4 x float> %x, ptr @v, align 16, !vbd.sc
; ADD-NEXT: fence seq_cst, !vbd.sc
define void @vector() {
  %x = load <4 x float>, ptr @v, align 16
  store <4 x float> %x, ptr @v, align 16
  ret void
}

; ADD-LABEL: define void @aggregate(
; ADD: load volatile %pair, ptr @s, align 8, !vbd.sc
; ADD-NEXT: fence acquire
; ADD: fence release
; ADD-NEXT: store volatile %pair
; ADD-NEXT: fence seq_cst
define void @aggregate() {
  %x = load %pair, ptr @s, align 8
  store %pair %x, ptr @s, align 8
  ret void
}

; Odd sizes: i1, i24, x86_fp80 (80 bits).
; ADD-LABEL: define void @odd_sizes(
; ADD: load volatile i1, ptr %p
; ADD-NEXT: fence acquire
; ADD: store volatile i24 0, ptr %p
; ADD-NEXT: fence seq_cst
; ADD: load volatile x86_fp80, ptr @ld
; ADD-NEXT: fence acquire
define void @odd_sizes(ptr %p) {
  %b = load i1, ptr %p, align 1
  store i24 0, ptr %p, align 4
  %f = load x86_fp80, ptr @ld, align 16
  ret void
}

; ADD-LABEL: define void @wide_and_misaligned(
; ADD: load atomic i128, ptr @w seq_cst, align 16, !vbd.sc
; ADD: store atomic i32 1, ptr %q seq_cst, align 1, !vbd.sc
; EXP-LABEL: define void @wide_and_misaligned(
; EXP: load volatile i128, ptr @w, align 16, !vbd.sc
; EXP-NEXT: fence acquire
; EXP: fence release
; EXP-NEXT: store volatile i32 1, ptr %q, align 1, !vbd.sc
; EXP-NEXT: fence seq_cst
; ASM-LABEL: wide_and_misaligned:
; ASM-NOT: __atomic
; ASM: movl $1, {{.*}}1(%r{{.*}})
; ASM-NEXT: mfence
define void @wide_and_misaligned() {
  %x = load i128, ptr @w, align 16
  %q = getelementptr i8, ptr @packed, i64 1
  store i32 1, ptr %q, align 1
  ret void
}
