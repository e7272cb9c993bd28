; On x86 (TSO) a full barrier is needed only between a store and a later
; load.  vbd-expand drops a fence, or makes an XCHG store a plain MOV (a
; release store), where every path meets another full barrier before any
; load, and drops a fence before which no store was made since the last
; barrier.  Weaker targets keep every barrier.
; RUN: env SC_OPTIMISE=whole-copies,tso-barriers %opt -mtriple=x86_64-unknown-linux-gnu -passes=vbd-add-sc,'vbd-expand<xchg>' -S %s | FileCheck %s
; RUN: %opt -mtriple=x86_64-unknown-linux-gnu -passes=vbd-add-sc,'vbd-expand<mfence>' -S %s | FileCheck %s --check-prefix=MFENCE
; RUN: %opt -mtriple=x86_64-unknown-linux-gnu -passes=vbd-add-sc,'vbd-expand<xchg>' %s -o - | llc-19 -O2 -o - | FileCheck %s --check-prefix=ASM
; RUN: env SC_OPTIMISE=none %opt -mtriple=x86_64-unknown-linux-gnu -passes=vbd-add-sc,'vbd-expand<xchg>' -S %s | FileCheck %s --check-prefix=KEEP
; RUN: %opt -mtriple=aarch64-unknown-linux-gnu -passes=vbd-add-sc,'vbd-expand<xchg>' -S %s | FileCheck %s --check-prefix=KEEP
; RUN: %opt -mtriple=aarch64-unknown-linux-gnu -passes=vbd-add-sc,'vbd-expand<xchg>' %s -o - | llc-19 -O2 -o - | FileCheck %s --check-prefix=ARM64

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @elsewhere()

@x = global i32 0
@y = global i32 0
@z = global i32 0

; Three stores in a row: only the last needs to be a barrier; the return ends
; what can be known, so it stays one.
; CHECK-LABEL: define void @stores(
; CHECK-NEXT: store atomic i32 1, ptr @x release, align 4
; CHECK-NEXT: store atomic i32 2, ptr @y release, align 4
; CHECK-NEXT: store atomic i32 3, ptr @z seq_cst, align 4
; MFENCE-LABEL: define void @stores(
; MFENCE-NEXT: fence release
; MFENCE-NEXT: store volatile i32 1, ptr @x
; MFENCE-NEXT: fence syncscope("singlethread") seq_cst
; MFENCE-NEXT: fence release
; MFENCE-NEXT: store volatile i32 2, ptr @y
; MFENCE-NEXT: fence syncscope("singlethread") seq_cst
; MFENCE-NEXT: fence release
; MFENCE-NEXT: store volatile i32 3, ptr @z
; MFENCE-NEXT: fence seq_cst
; MFENCE-NEXT: ret void
; KEEP-LABEL: define void @stores(
; KEEP-NEXT: store atomic i32 1, ptr @x seq_cst
; KEEP-NEXT: store atomic i32 2, ptr @y seq_cst
; KEEP-NEXT: store atomic i32 3, ptr @z seq_cst
; ARM64-LABEL: stores:
; ARM64-COUNT-3: stlr
define void @stores() {
  store i32 1, ptr @x
  store i32 2, ptr @y
  store i32 3, ptr @z
  ret void
}

; Store buffering: the store is followed by a load, so it stays a barrier.
; CHECK-LABEL: define i32 @sb(
; CHECK-NEXT: store atomic i32 1, ptr @x seq_cst
; CHECK-NEXT: load atomic i32, ptr @y seq_cst
; MFENCE-LABEL: define i32 @sb(
; MFENCE: store volatile i32 1, ptr @x
; MFENCE-NEXT: fence seq_cst
; MFENCE-NEXT: load volatile i32, ptr @y
define i32 @sb() {
  store i32 1, ptr @x
  %r = load i32, ptr @y
  ret i32 %r
}

; A call may load: the store before it stays a barrier.
; CHECK-LABEL: define void @before_call(
; CHECK-NEXT: store atomic i32 1, ptr @x seq_cst
; CHECK-NEXT: call void @elsewhere()
define void @before_call() {
  store i32 1, ptr @x
  call void @elsewhere()
  ret void
}

; Two copies in a row.  No store is pending when a function starts (sc-cc's
; code leaves none pending at a call), so the first copy's leading fence goes;
; its trailing fence stays, since the copy's stores come before it; the second
; copy's leading fence then has nothing to drain, and its trailing fence goes
; because the store after it is a barrier (XCHG) before any load.  A dropped
; fence stays as a compiler-only one, which keeps code generation from moving
; the copies' accesses across it.
; CHECK-LABEL: define void @copies(
; CHECK-NEXT: fence syncscope("singlethread") seq_cst
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %b, i64 %n, i1 false)
; CHECK-NEXT: fence seq_cst
; CHECK-NEXT: fence syncscope("singlethread") seq_cst
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %c, ptr %d, i64 %n, i1 false)
; CHECK-NEXT: fence syncscope("singlethread") seq_cst
; CHECK-NEXT: store atomic i32 1, ptr @x seq_cst
; CHECK-NEXT: ret void
; KEEP-LABEL: define void @copies(
; KEEP-COUNT-4: fence seq_cst
; ASM-LABEL: copies:
; ASM-NOT: lock
; ASM: callq memcpy
; ASM: lock orl $0, -64(%rsp)
; ASM-NOT: lock
; ASM: callq memcpy
; ASM-NOT: lock
; ASM: xchgl
; ASM-NOT: mfence
define void @copies(ptr %a, ptr %b, ptr %c, ptr %d, i64 %n) {
  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %b, i64 %n, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %c, ptr %d, i64 %n, i1 false)
  store i32 1, ptr @x
  ret void
}

; A copy from a private buffer only stores to shared memory, so the fence
; after it serves the store to @x as well, which becomes a MOV, and the fence
; before it then has no store of its own to drain... but the store to @x is
; pending there, so it is the one after the copy that stays: a load follows.
; CHECK-LABEL: define i32 @from_private(
; CHECK: store atomic i32 1, ptr @x release
; CHECK-NEXT: fence syncscope("singlethread") seq_cst
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %buf, i64 16, i1 false)
; CHECK-NEXT: fence seq_cst
; CHECK-NEXT: load atomic i32, ptr @y seq_cst
define i32 @from_private(ptr %d) {
  %buf = alloca [16 x i8]
  store i32 1, ptr @x
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %buf, i64 16, i1 false)
  %r = load i32, ptr @y
  ret i32 %r
}

; Where paths join, a store pending on any of them keeps the fence: here a
; call through a pointer, which may reach code not compiled by sc-cc that
; stores without a barrier after it, reaches the head's copy around the back
; edge.  With nothing pending on any path into the join, the fence goes.  A
; direct call of a function sc-cc compiles returns with nothing pending.
; CHECK-LABEL: define void @loop(
; CHECK: head:
; CHECK-NEXT: fence seq_cst
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %b, i64 %n, i1 false)
; CHECK-LABEL: define void @after_call(
; CHECK-NEXT: call void @elsewhere()
; CHECK-NEXT: fence syncscope("singlethread") seq_cst
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %b, i64 %n, i1 false)
; CHECK-NEXT: fence seq_cst
; CHECK-LABEL: define i32 @join(
; CHECK: done:
; CHECK-NEXT: phi
; CHECK-NEXT: fence syncscope("singlethread") seq_cst
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %b, i64 %n, i1 false)
define void @loop(ptr %a, ptr %b, i64 %n, i1 %c, ptr %fp) {
  br label %head
head:
  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %b, i64 %n, i1 false)
  %r = load i32, ptr @y
  call void %fp()
  br i1 %c, label %head, label %out
out:
  ret void
}

define void @after_call(ptr %a, ptr %b, i64 %n) {
  call void @elsewhere()
  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %b, i64 %n, i1 false)
  %r = load i32, ptr @y
  ret void
}

define i32 @join(ptr %p, ptr %b, i64 %n, i1 %c) {
  br i1 %c, label %one, label %two
one:
  %r1 = load i32, ptr @y
  br label %done
two:
  %r2 = load i32, ptr @z
  br label %done
done:
  %r = phi i32 [ %r1, %one ], [ %r2, %two ]
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %b, i64 %n, i1 false)
  %s = load i32, ptr @x
  ret i32 %r
}

; Across blocks: each walk follows a single successor (or predecessor).
; CHECK-LABEL: define void @chain(
; CHECK: store atomic i32 1, ptr @x release
; CHECK: next:
; CHECK-NEXT: store atomic i32 2, ptr @y seq_cst
; A join of two paths ends a backward walk, and a branch ends a forward one.
; CHECK-LABEL: define void @branch(
; CHECK: store atomic i32 1, ptr @x seq_cst
define void @chain() {
  store i32 1, ptr @x
  br label %next
next:
  store i32 2, ptr @y
  ret void
}

define void @branch(i1 %c) {
  store i32 1, ptr @x
  br i1 %c, label %a, label %b
a:
  store i32 2, ptr @y
  ret void
b:
  %r = load i32, ptr @z
  ret void
}
