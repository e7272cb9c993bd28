; Plain loads and stores of shared memory become seq_cst atomics tagged !vbd.sc.
; RUN: %opt -passes=vbd-add-sc -S %s | FileCheck %s

@g = global i32 0
@d = global double 0.0
@p = global ptr null

; CHECK-LABEL: define i32 @scalars(
; CHECK: store atomic i32 1, ptr @g seq_cst, align 4, !vbd.sc
; CHECK: store atomic double 2.0{{.*}}, ptr @d seq_cst, align 8, !vbd.sc
; CHECK: load atomic ptr, ptr @p seq_cst, align 8, !vbd.sc
; CHECK: load atomic i8, ptr %q seq_cst, align 1, !vbd.sc
; CHECK: load atomic i32, ptr @g seq_cst, align 4, !vbd.sc
define i32 @scalars() {
  store i32 1, ptr @g, align 4
  store double 2.0, ptr @d, align 8
  %q = load ptr, ptr @p, align 8
  %b = load i8, ptr %q, align 1
  %v = load i32, ptr @g, align 4
  ret i32 %v
}

; Memory reached through an argument may be shared.
; CHECK-LABEL: define void @through_arg(
; CHECK: load atomic i64, ptr %a seq_cst, align 8, !vbd.sc
; CHECK: store atomic i64 %v, ptr %e seq_cst, align 8, !vbd.sc
define void @through_arg(ptr %a) {
  %v = load i64, ptr %a, align 8
  %e = getelementptr i64, ptr %a, i64 3
  store i64 %v, ptr %e, align 8
  ret void
}

; C volatile accesses are shared memory too: they become SC and stay volatile.
; CHECK-LABEL: define void @c_volatile(
; CHECK: store atomic volatile i32 1, ptr @g seq_cst, align 4, !vbd.sc
define void @c_volatile() {
  store volatile i32 1, ptr @g, align 4
  ret void
}
