; A function annotated vbd_relaxed (VBD_RELAXED in vbd_relaxed.h) is left as
; ordinary C; the annotation becomes the "vbd-relaxed" function attribute.
; RUN: %opt -passes=vbd-add-sc -S %s | FileCheck %s

@g = global i32 0
@.str = private unnamed_addr constant [12 x i8] c"vbd_relaxed\00", section "llvm.metadata"
@.str.other = private unnamed_addr constant [6 x i8] c"other\00", section "llvm.metadata"
@.file = private unnamed_addr constant [4 x i8] c"t.c\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @relaxed, ptr @.str, ptr @.file, i32 1, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @other_annotation, ptr @.str.other, ptr @.file, i32 2, ptr null }], section "llvm.metadata"

; CHECK-LABEL: define void @relaxed(
; CHECK-SAME: #[[RELAXED:[0-9]+]]
; CHECK-NEXT: store i32 1, ptr @g, align 4
; CHECK-NEXT: load i32, ptr @g, align 4
define void @relaxed() {
  store i32 1, ptr @g, align 4
  %v = load i32, ptr @g, align 4
  ret void
}

; CHECK-LABEL: define void @other_annotation(
; CHECK-NEXT: store atomic i32 1, ptr @g seq_cst
define void @other_annotation() {
  store i32 1, ptr @g, align 4
  ret void
}

; CHECK-LABEL: define void @by_attribute(
; CHECK-NEXT: store i32 2, ptr @g, align 4
define void @by_attribute() "vbd-relaxed" {
  store i32 2, ptr @g, align 4
  ret void
}

; CHECK: attributes #[[RELAXED]] = { "vbd-relaxed" }
