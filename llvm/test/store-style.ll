; Store styles.  xchg: SC stores stay seq_cst atomics (XCHG on x86).
; mfence: the paper's mSC, every SC access becomes a fenced volatile access
; (MOV; MFENCE for a store).  Without a pass parameter the style comes from
; SC_STORE, which bin/sc-cc sets from --sc-store.
; RUN: %opt -passes=vbd-add-sc,'vbd-expand<xchg>' -S %s | FileCheck %s --check-prefix=XCHG
; RUN: %opt -passes=vbd-add-sc,'vbd-expand<mfence>' -S %s | FileCheck %s --check-prefix=MFENCE
; RUN: env SC_STORE=mfence %opt -passes=vbd-add-sc,vbd-expand -S %s | FileCheck %s --check-prefix=MFENCE
; RUN: %opt -passes=vbd-add-sc,vbd-expand -S %s | FileCheck %s --check-prefix=XCHG
; RUN: %opt -passes=vbd-add-sc,'vbd-expand<xchg>' %s -o - | llc-19 -O2 -o - | FileCheck %s --check-prefix=XCHG-ASM
; RUN: %opt -passes=vbd-add-sc,'vbd-expand<mfence>' %s -o - | llc-19 -O2 -o - | FileCheck %s --check-prefix=MFENCE-ASM
; RUN: not %opt -passes='vbd-expand<fast>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=BAD
; RUN: env SC_STORE=fast not %opt -passes=vbd-expand -disable-output %s 2>&1 | FileCheck %s --check-prefix=BADENV

@x = dso_local global i32 0
@y = dso_local global i32 0

; XCHG-LABEL: define i32 @sb(
; XCHG-NEXT: store atomic i32 1, ptr @x seq_cst, align 4, !vbd.sc
; XCHG-NEXT: load atomic i32, ptr @y seq_cst, align 4, !vbd.sc
; MFENCE-LABEL: define i32 @sb(
; MFENCE-NEXT: fence release
; MFENCE-NEXT: store volatile i32 1, ptr @x, align 4, !vbd.sc
; MFENCE-NEXT: fence seq_cst
; MFENCE-NEXT: load volatile i32, ptr @y, align 4, !vbd.sc
; MFENCE-NEXT: fence acquire
; XCHG-ASM-LABEL: sb:
; XCHG-ASM: xchgl %{{.*}}, x(%rip)
; XCHG-ASM-NOT: mfence
; XCHG-ASM: movl y(%rip)
; MFENCE-ASM-LABEL: sb:
; MFENCE-ASM-NOT: xchg
; MFENCE-ASM: movl $1, x(%rip)
; MFENCE-ASM-NEXT: mfence
; MFENCE-ASM: movl y(%rip)
define i32 @sb() {
  store i32 1, ptr @x, align 4
  %r = load i32, ptr @y, align 4
  ret i32 %r
}

; BAD: error: vbd: unknown store style 'fast' in vbd-expand<...> (expected 'xchg' or 'mfence')
; BADENV: error: vbd: unknown SC_STORE value 'fast' (expected 'xchg' or 'mfence')

