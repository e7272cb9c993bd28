; A local whose address is handed to a function counts as escaped when
; vbd-add-sc runs, before inlining, so its accesses are SC.  Once the callee
; is inlined the address no longer escapes: vbd-private makes them plain
; again (not a programmer's atomics).  In clang's pipeline SROA runs after
; it (private-after-inlining.c shows the effect on the code).
; RUN: %opt -passes='vbd-add-sc,cgscc(inline),function(vbd-private)' -S %s | FileCheck %s
; RUN: %opt -passes='vbd-add-sc,cgscc(inline)' -S %s | FileCheck %s --check-prefix=BEFORE

@g = global i32 0

define internal void @set(ptr %p, i32 %v) {
  store i32 %v, ptr %p
  ret void
}

; CHECK-LABEL: define i32 @caller(
; CHECK: store i32 %v, ptr %local, align 4, !vbd.sc
; CHECK: load atomic i32, ptr @g seq_cst
; CHECK: store atomic i32 2, ptr %both seq_cst, align 4, !vbd.user
; CHECK: %r = load i32, ptr %local, align 4, !vbd.sc
; BEFORE-LABEL: define i32 @caller(
; BEFORE: store atomic i32 %v, ptr %local seq_cst
; BEFORE: %r = load atomic i32, ptr %local seq_cst
define i32 @caller(i32 %v) {
  %local = alloca i32
  %both = alloca i32
  call void @set(ptr %local, i32 %v)
  %x = load i32, ptr @g
  store atomic i32 2, ptr %both seq_cst, align 4
  %r = load i32, ptr %local
  %s = add i32 %r, %x
  ret i32 %s
}
