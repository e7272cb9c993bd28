; AArch64's memory intrinsics are ordered as x86's are: NEON and SVE stores
; and loads between two full barriers (DMB ISH), the non-temporal ones too.
; RUN: %opt -passes=vbd-add-sc -S %s | FileCheck %s
; RUN: %opt -passes=vbd-add-sc,vbd-expand %s | llc -O2 | FileCheck %s --check-prefix=ASM

target triple = "aarch64-unknown-linux-gnu"

@g = global [8 x i32] zeroinitializer

declare void @llvm.aarch64.neon.st1x2.v4i32.p0(<4 x i32>, <4 x i32>, ptr)
declare void @llvm.aarch64.sve.stnt1.nxv4i32(<vscale x 4 x i32>, <vscale x 4 x i1>, ptr)

; CHECK-LABEL: define void @st1x2(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call void @llvm.aarch64.neon.st1x2
; CHECK-NEXT: fence seq_cst, !vbd.sc
; ASM-LABEL: st1x2:
; ASM: dmb ish
; ASM-NEXT: st1 { v0.4s, v1.4s }
; ASM-NEXT: dmb ish
define void @st1x2(<4 x i32> %a, <4 x i32> %b) {
  call void @llvm.aarch64.neon.st1x2.v4i32.p0(<4 x i32> %a, <4 x i32> %b, ptr @g)
  ret void
}

; CHECK-LABEL: define void @stnt1(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call void @llvm.aarch64.sve.stnt1
; CHECK-NEXT: fence seq_cst, !vbd.sc
; ASM-LABEL: stnt1:
; ASM: dmb ish
; ASM-NEXT: stnt1w
; ASM-NEXT: dmb ish
define void @stnt1(<vscale x 4 x i32> %v, <vscale x 4 x i1> %m) #0 {
  call void @llvm.aarch64.sve.stnt1.nxv4i32(<vscale x 4 x i32> %v, <vscale x 4 x i1> %m, ptr @g)
  ret void
}

attributes #0 = { "target-features"="+sve" }
