; What vbd-add-sc does with each intrinsic, from LLVM 19's intrinsic tables:
; every one whose table entry may touch memory is ordered whole between two
; seq_cst fences, but for the copies (made SC element by element) and the
; hints, which are listed here one by one: a new exemption fails this test.
; Intrinsics that touch only memory the program cannot name (the
; floating-point environment) are left alone.
; RUN: %opt -passes=vbd-intrinsic-table -disable-output %s | FileCheck %s
; RUN: %opt -passes=vbd-intrinsic-table -disable-output %s | grep -E '^(hint|copy) ' | FileCheck %s --check-prefix=EXEMPT --match-full-lines

; Masked, gathered, scattered, non-temporal and direct stores of each table.
; CHECK-DAG: ordered llvm.masked.load
; CHECK-DAG: ordered llvm.masked.store
; CHECK-DAG: ordered llvm.masked.gather
; CHECK-DAG: ordered llvm.masked.scatter
; CHECK-DAG: ordered llvm.masked.expandload
; CHECK-DAG: ordered llvm.masked.compressstore
; CHECK-DAG: ordered llvm.vp.load
; CHECK-DAG: ordered llvm.vp.store
; CHECK-DAG: ordered llvm.memcpy.element.unordered.atomic
; CHECK-DAG: ordered llvm.va_start
; CHECK-DAG: ordered llvm.x86.sse2.maskmov.dqu
; CHECK-DAG: ordered llvm.x86.mmx.maskmovq
; CHECK-DAG: ordered llvm.x86.mmx.movnt.dq
; CHECK-DAG: ordered llvm.x86.avx.maskstore.ps
; CHECK-DAG: ordered llvm.x86.avx2.maskstore.d
; CHECK-DAG: ordered llvm.x86.avx2.maskload.d
; CHECK-DAG: ordered llvm.x86.avx2.gather.d.d
; CHECK-DAG: ordered llvm.x86.avx512.scatter.dpi.512
; CHECK-DAG: ordered llvm.x86.directstore32
; CHECK-DAG: ordered llvm.x86.movdir64b
; CHECK-DAG: ordered llvm.x86.sse2.clflush
; CHECK-DAG: ordered llvm.aarch64.neon.ld1x2
; CHECK-DAG: ordered llvm.aarch64.neon.st1x2
; CHECK-DAG: ordered llvm.aarch64.sve.ld1
; CHECK-DAG: ordered llvm.aarch64.sve.st1
; CHECK-DAG: ordered llvm.aarch64.sve.ldnt1
; CHECK-DAG: ordered llvm.aarch64.sve.stnt1
; CHECK-DAG: ordered llvm.aarch64.sve.st1.scatter
; CHECK-DAG: ordered llvm.aarch64.ldxr
; CHECK-DAG: ordered llvm.aarch64.stxr
; CHECK-DAG: own-memory llvm.get.fpenv
; CHECK-DAG: own-memory llvm.experimental.constrained.fadd

; The counts, per table (LLVM 19.1).
; CHECK: intrinsics {{[0-9]+}}
; CHECK: count copy 5 generic 5 x86 0 aarch64 0 other 0
; CHECK: count hint 18 generic 18 x86 0 aarch64 0 other 0
; CHECK: count no-memory
; CHECK: count ordered {{[0-9]+}} generic {{[0-9]+}} x86 {{[0-9]+}} aarch64 {{[0-9]+}}

; EXEMPT: hint llvm.assume
; EXEMPT-NEXT: hint llvm.dbg.assign
; EXEMPT-NEXT: hint llvm.dbg.declare
; EXEMPT-NEXT: hint llvm.dbg.label
; EXEMPT-NEXT: hint llvm.dbg.value
; EXEMPT-NEXT: hint llvm.experimental.noalias.scope.decl
; EXEMPT-NEXT: hint llvm.invariant.end
; EXEMPT-NEXT: hint llvm.invariant.start
; EXEMPT-NEXT: hint llvm.lifetime.end
; EXEMPT-NEXT: hint llvm.lifetime.start
; EXEMPT-NEXT: copy llvm.memcpy
; EXEMPT-NEXT: copy llvm.memcpy.inline
; EXEMPT-NEXT: copy llvm.memmove
; EXEMPT-NEXT: copy llvm.memset
; EXEMPT-NEXT: copy llvm.memset.inline
; EXEMPT-NEXT: hint llvm.objectsize
; EXEMPT-NEXT: hint llvm.prefetch
; EXEMPT-NEXT: hint llvm.pseudoprobe
; EXEMPT-NEXT: hint llvm.ptr.annotation
; EXEMPT-NEXT: hint llvm.sideeffect
; EXEMPT-NEXT: hint llvm.stackrestore
; EXEMPT-NEXT: hint llvm.stacksave
; EXEMPT-NEXT: hint llvm.var.annotation
; EXEMPT-NOT: {{.}}
