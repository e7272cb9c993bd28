; Stack slots whose address never escapes are private to the thread and are
; skipped; once the address escapes they are shared memory.
; RUN: %opt -passes=vbd-add-sc -S %s | FileCheck %s

%struct.S = type { i32, i32 }
@sink = global ptr null

declare void @use(ptr)

; CHECK-LABEL: define i32 @private_slot(
; CHECK: store i32 5, ptr %x, align 4
; CHECK-NOT: !vbd.sc
; CHECK: load i32, ptr %f, align 4
; CHECK: ret i32
define i32 @private_slot() {
  %x = alloca i32, align 4
  %s = alloca %struct.S, align 4
  store i32 5, ptr %x, align 4
  %f = getelementptr %struct.S, ptr %s, i32 0, i32 1
  store i32 6, ptr %f, align 4
  %a = load i32, ptr %x, align 4
  %b = load i32, ptr %f, align 4
  %r = add i32 %a, %b
  ret i32 %r
}

; CHECK-LABEL: define i32 @escapes_to_call(
; CHECK: store atomic i32 5, ptr %x seq_cst, align 4, !vbd.sc
; CHECK: load atomic i32, ptr %x seq_cst, align 4, !vbd.sc
define i32 @escapes_to_call() {
  %x = alloca i32, align 4
  store i32 5, ptr %x, align 4
  call void @use(ptr %x)
  %a = load i32, ptr %x, align 4
  ret i32 %a
}

; CHECK-LABEL: define void @escapes_to_memory(
; CHECK: store atomic ptr %x, ptr @sink seq_cst
; CHECK: store atomic i32 7, ptr %x seq_cst, align 4, !vbd.sc
define void @escapes_to_memory() {
  %x = alloca i32, align 4
  store ptr %x, ptr @sink, align 8
  store i32 7, ptr %x, align 4
  ret void
}

; A byval argument may be the caller's shared memory itself: once the callee
; is inlined, the load reads the caller's object, and no copy is left.
; CHECK-LABEL: define i32 @byval_copy(
; CHECK: load atomic i32, ptr %p seq_cst, align 4, !vbd.sc
; CHECK: ret i32
define i32 @byval_copy(ptr byval(%struct.S) align 4 %p) {
  %v = load i32, ptr %p, align 4
  ret i32 %v
}

; The caller copies a by-value argument out of the memory it passes: a
; shared global, so the call is ordered whole, as a copy is.
; CHECK-LABEL: define i32 @pass_global_by_value(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call i32 @by_value(ptr byval(%struct.S) align 4 @shared)
; CHECK-NEXT: fence seq_cst, !vbd.sc
@shared = global %struct.S zeroinitializer
declare i32 @by_value(ptr byval(%struct.S) align 4)
define i32 @pass_global_by_value() {
  %r = call i32 @by_value(ptr byval(%struct.S) align 4 @shared)
  ret i32 %r
}


; An sret argument is the caller's memory, which the caller may share.
; CHECK-LABEL: define void @sret_result(
; CHECK: store atomic i32 1, ptr %r seq_cst, align 4, !vbd.sc
define void @sret_result(ptr sret(%struct.S) align 4 %r) {
  store i32 1, ptr %r, align 4
  ret void
}
