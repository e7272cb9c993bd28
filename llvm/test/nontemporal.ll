; x86 lets an ordinary store pass a non-temporal one (MOVNT*, MASKMOVDQU).
; An SC access loses !nontemporal, so it is an ordinary one that the TSO
; reasoning holds for.  A weakly ordered store that vbd did not make (in
; relaxed code, or an intrinsic's) keeps the barrier after it whatever
; follows, and that barrier stays MFENCE rather than a locked OR.
; RUN: %opt -mtriple=x86_64-unknown-linux-gnu -passes=vbd-add-sc,'vbd-expand<xchg>' -S %s | FileCheck %s
; RUN: %opt -mtriple=x86_64-unknown-linux-gnu -passes='vbd-expand<xchg>' -S %s | FileCheck %s --check-prefix=EXPAND

@flag = global i32 0
@other = global i32 0
@data = global <2 x i64> zeroinitializer

declare void @llvm.x86.sse2.maskmov.dqu(<16 x i8>, <16 x i8>, ptr)

; CHECK-LABEL: define void @stream(
; CHECK-NOT: !nontemporal
; CHECK: store volatile <2 x i64> <i64 1, i64 1>, ptr @data, align 16, !vbd.sc
; CHECK-NOT: !nontemporal
; CHECK: ret void
define void @stream() {
  store <2 x i64> <i64 1, i64 1>, ptr @data, align 16, !nontemporal !0
  store i32 1, ptr @flag, align 4
  ret void
}

; CHECK-LABEL: define void @stream_int(
; CHECK-NEXT: store atomic i32 1, ptr @other release, align 4, !vbd.sc
; CHECK-NOT: !nontemporal
define void @stream_int() {
  store i32 1, ptr @other, align 4, !nontemporal !0
  store i32 1, ptr @flag, align 4
  ret void
}

; EXPAND-LABEL: define void @after_streaming(
; EXPAND-NEXT: store <2 x i64> <i64 1, i64 1>, ptr @data, align 16, !nontemporal
; EXPAND-NEXT: fence seq_cst
; EXPAND-NEXT: store atomic i32 1, ptr @flag release
define void @after_streaming() {
  store <2 x i64> <i64 1, i64 1>, ptr @data, align 16, !nontemporal !0
  fence seq_cst
  store atomic i32 1, ptr @flag seq_cst, align 4
  store atomic i32 1, ptr @other seq_cst, align 4
  ret void
}

; EXPAND-LABEL: define void @after_maskmov(
; EXPAND-NEXT: call void @llvm.x86.sse2.maskmov.dqu(
; EXPAND-NEXT: fence seq_cst
define void @after_maskmov(<16 x i8> %v, <16 x i8> %m) {
  call void @llvm.x86.sse2.maskmov.dqu(<16 x i8> %v, <16 x i8> %m, ptr @other)
  fence seq_cst
  store atomic i32 1, ptr @flag seq_cst, align 4
  store atomic i32 1, ptr @other seq_cst, align 4
  ret void
}

; The same with an ordinary store: the fence goes, as the next store is a
; barrier.
; EXPAND-LABEL: define void @ordinary(
; EXPAND-NEXT: store <2 x i64> <i64 1, i64 1>, ptr @data, align 16
; EXPAND-NEXT: fence syncscope("singlethread") seq_cst
define void @ordinary() {
  store <2 x i64> <i64 1, i64 1>, ptr @data, align 16
  fence seq_cst
  store atomic i32 1, ptr @flag seq_cst, align 4
  store atomic i32 1, ptr @other seq_cst, align 4
  ret void
}

!0 = !{i32 1}
