; On x86 with XCHG stores, each fence vbd inserts is an unused seq_cst
; `atomicrmw or 0`, which the backend lowers to `lock orl $0, -64(%rsp)`: a
; full barrier at the price of a locked instruction on a stack line no other
; core holds, where MFENCE also waits for loads in flight.  The mfence style
; (the paper's mSC) keeps MFENCE; other targets keep their fence (DMB).
; RUN: env SC_OPTIMISE=whole-copies,locked-fences %opt -mtriple=x86_64-unknown-linux-gnu -passes=vbd-add-sc,'vbd-expand<xchg>' -S %s | FileCheck %s
; RUN: %opt -mtriple=x86_64-unknown-linux-gnu -passes=vbd-add-sc,'vbd-expand<xchg>' %s -o - | llc-19 -O2 -o - | FileCheck %s --check-prefix=ASM
; RUN: %opt -mtriple=x86_64-unknown-linux-gnu -passes=vbd-add-sc,'vbd-expand<xchg>' %s -o - | llc-19 -O0 -o - | FileCheck %s --check-prefix=ASM
; RUN: %opt -mtriple=x86_64-unknown-linux-gnu -passes=vbd-add-sc,'vbd-expand<mfence>' %s -o - | llc-19 -O2 -o - | FileCheck %s --check-prefix=MFENCE
; RUN: env SC_OPTIMISE=whole-copies %opt -mtriple=x86_64-unknown-linux-gnu -passes=vbd-add-sc,'vbd-expand<xchg>' %s -o - | llc-19 -O2 -o - | FileCheck %s --check-prefix=MFENCE
; RUN: %opt -mtriple=aarch64-unknown-linux-gnu -passes=vbd-add-sc,'vbd-expand<xchg>' %s -o - | llc-19 -O2 -o - | FileCheck %s --check-prefix=ARM64

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

@x = global i32 0

; A memset of shared memory and then a load: the fence after the memset must
; stay a full barrier.  The locked OR clobbers the flags, which the backend
; knows, unlike an inline `asm("lock orl ...")` without a "cc" clobber.
; CHECK-LABEL: define i32 @fill(
; CHECK: %vbd.fence.slot = alloca i32, align 4
; CHECK-NOT: fence seq_cst
; CHECK: atomicrmw or ptr %vbd.fence.slot, i32 0 seq_cst, align 4, !vbd.sc
; CHECK: call void @llvm.memset.p0.i64(
; CHECK-NEXT: atomicrmw or ptr %vbd.fence.slot, i32 0 seq_cst, align 4, !vbd.sc
; With the barriers TSO does not need dropped, only the fence after the
; memset is left (the one before it separates no store from a load).
; ASM-LABEL: fill:
; ASM-NOT: mfence
; ASM: callq memset
; ASM: lock orl $0, -64(%rsp)
; ASM-NOT: mfence
; ASM: ret
; MFENCE-LABEL: fill:
; MFENCE-NOT: lock
; MFENCE: callq memset
; MFENCE-NOT: lock
; MFENCE: mfence
; ARM64-LABEL: fill:
; ARM64: dmb ish
; ARM64: bl memset
; ARM64: dmb ish
define i32 @fill(ptr %p, i64 %n, i32 %a, i32 %b) {
  %c = icmp slt i32 %a, %b
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 %n, i1 false)
  %r = load i32, ptr @x
  %s = select i1 %c, i32 %r, i32 %a
  ret i32 %s
}
