; Memory nobody writes cannot race: loads from it are left alone.
; RUN: %opt -passes=vbd-add-sc -S %s | FileCheck %s

@table = constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]
@mutable = global [4 x i32] zeroinitializer

; CHECK-LABEL: define i32 @const_global(
; CHECK: load i32, ptr %p, align 4
; CHECK-NOT: seq_cst
; CHECK: ret i32
define i32 @const_global(i64 %i) {
  %p = getelementptr [4 x i32], ptr @table, i64 0, i64 %i
  %v = load i32, ptr %p, align 4
  ret i32 %v
}

; CHECK-LABEL: define i32 @mutable_global(
; CHECK: load atomic i32, ptr %p seq_cst
define i32 @mutable_global(i64 %i) {
  %p = getelementptr [4 x i32], ptr @mutable, i64 0, i64 %i
  %v = load i32, ptr %p, align 4
  ret i32 %v
}

; CHECK-LABEL: define i32 @invariant(
; CHECK: load i32, ptr %q, align 4, !invariant.load
define i32 @invariant(ptr %q) {
  %v = load i32, ptr %q, align 4, !invariant.load !0
  ret i32 %v
}

; An access tag with the "constant" flag set (TBAA's immutable memory).
; CHECK-LABEL: define i32 @tbaa_const(
; CHECK: load i32, ptr %q, align 4, !tbaa
; CHECK-LABEL: define i32 @tbaa_mutable(
; CHECK: load atomic i32, ptr %q seq_cst, align 4, !tbaa
define i32 @tbaa_const(ptr %q) {
  %v = load i32, ptr %q, align 4, !tbaa !4
  ret i32 %v
}
define i32 @tbaa_mutable(ptr %q) {
  %v = load i32, ptr %q, align 4, !tbaa !5
  ret i32 %v
}

!0 = !{}
!1 = !{!"root"}
!2 = !{!"int", !3, i64 0}
!3 = !{!"char", !1, i64 0}
!4 = !{!2, !2, i64 0, i1 true}
!5 = !{!2, !2, i64 0}
