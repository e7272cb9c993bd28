; Everything executed after VBD_RELAXED_BEGIN and before VBD_RELAXED_END in
; the same function is left alone; the marker calls and functions disappear.
; RUN: %opt -passes=vbd-add-sc -S %s | FileCheck %s

@g = global i32 0
@a = global [64 x i32] zeroinitializer

define internal void @__vbd_relaxed_begin() {
  ret void
}
define internal void @__vbd_relaxed_end() {
  ret void
}

; CHECK-NOT: __vbd_relaxed
; CHECK-LABEL: define void @loop(
; CHECK: store atomic i32 1, ptr @g seq_cst
; CHECK: loop:
; CHECK: store i32 0, ptr %p, align 4{{$}}
; CHECK: load i32, ptr @g, align 4{{$}}
; CHECK: done:
; CHECK-NEXT: store atomic i32 2, ptr @g seq_cst
; CHECK-NOT: __vbd_relaxed
define void @loop(i64 %n) {
entry:
  store i32 1, ptr @g, align 4
  call void @__vbd_relaxed_begin()
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %p = getelementptr [64 x i32], ptr @a, i64 0, i64 %i
  store i32 0, ptr %p, align 4
  %x = load i32, ptr @g, align 4
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  call void @__vbd_relaxed_end()
  br label %done
done:
  store i32 2, ptr @g, align 4
  ret void
}

; Mem operations inside the scope stay library calls.
; CHECK-LABEL: define void @mem_in_scope(
; CHECK: call void @llvm.memset.p0.i64(ptr %d, i8 0, i64 %n, i1 false)
; CHECK-NEXT: store atomic i32 3, ptr @g seq_cst
define void @mem_in_scope(ptr %d, i64 %n) {
  call void @__vbd_relaxed_begin()
  call void @llvm.memset.p0.i64(ptr %d, i8 0, i64 %n, i1 false)
  call void @__vbd_relaxed_end()
  store i32 3, ptr @g, align 4
  ret void
}
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
