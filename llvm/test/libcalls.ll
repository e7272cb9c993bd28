; Calls into the C library that read or write memory the caller can name are
; ordered as a whole, like a copy: a seq_cst fence before and after.  This
; covers the fortified routines that _FORTIFY_SOURCE makes of copies
; (__memcpy_chk and the rest of glibc's __*_chk family, known to LLVM or not)
; and the string, formatting and input routines.
; RUN: %opt -passes=vbd-add-sc -S %s | FileCheck %s
; RUN: env SC_OPTIMISE=none %opt -passes=vbd-add-sc -S %s | FileCheck %s
; RUN: %opt -passes=vbd-add-sc,verify -disable-output %s

target triple = "x86_64-unknown-linux-gnu"

@buf = global [64 x i8] zeroinitializer
@lit = private constant [4 x i8] c"abc\00"

declare ptr @__memcpy_chk(ptr, ptr, i64, i64)
declare ptr @__memset_chk(ptr, i32, i64, i64)
declare ptr @__strcpy_chk(ptr, ptr, i64)
declare i64 @__read_chk(i32, ptr, i64, i64)
declare i32 @__snprintf_chk(ptr, i64, i32, i64, ptr, ...)
declare ptr @strcpy(ptr, ptr)
declare ptr @strncat(ptr, ptr, i64)
declare i64 @strlen(ptr)
declare i64 @fread(ptr, i64, i64, ptr)
declare ptr @malloc(i64)
declare void @free(ptr)
declare double @sqrt(double)
declare void @compiled_elsewhere(ptr)

; CHECK-LABEL: define void @fortified(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call ptr @__memcpy_chk(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call ptr @__memset_chk(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call ptr @__strcpy_chk(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call i64 @__read_chk(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call i32 (ptr, i64, i32, i64, ptr, ...) @__snprintf_chk(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: ret void
define void @fortified(ptr %s, i64 %n, i32 %fd) {
  call ptr @__memcpy_chk(ptr @buf, ptr %s, i64 %n, i64 64)
  call ptr @__memset_chk(ptr @buf, i32 0, i64 %n, i64 64)
  call ptr @__strcpy_chk(ptr @buf, ptr %s, i64 64)
  call i64 @__read_chk(i32 %fd, ptr @buf, i64 %n, i64 64)
  call i32 (ptr, i64, i32, i64, ptr, ...) @__snprintf_chk(ptr @buf, i64 64, i32 1, i64 64, ptr @lit, i32 %fd)
  ret void
}

; CHECK-LABEL: define void @plain_libc(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call ptr @strcpy(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call ptr @strncat(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call i64 @strlen(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call i64 @fread(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: ret void
define void @plain_libc(ptr %s, ptr %file) {
  call ptr @strcpy(ptr @buf, ptr %s)
  call ptr @strncat(ptr @buf, ptr %s, i64 3)
  call i64 @strlen(ptr %s)
  call i64 @fread(ptr @buf, i64 1, i64 64, ptr %file)
  ret void
}

; -fno-builtin marks the call, not the routine: it still reaches the library.
; CHECK-LABEL: define void @no_builtin(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: call ptr @strcpy(ptr @buf, ptr %s) #[[NB:[0-9]+]]
; CHECK-NEXT: fence seq_cst, !vbd.sc
define void @no_builtin(ptr %s) "no-builtins" {
  call ptr @strcpy(ptr @buf, ptr %s) nobuiltin
  ret void
}

; The allocator orders its own memory; a routine that touches no memory, or
; only memory nobody else can name (a private buffer, a constant), needs no
; fences; nor does a function the compiler does not know as the library's.
; (strcpy returns its destination, so a private buffer it writes counts as
; escaping, and the call is ordered.)
; CHECK-LABEL: define i64 @left_alone(
; CHECK-NOT: fence
; CHECK: ret i64
define i64 @left_alone(ptr %s, double %d) {
  %local = alloca [16 x i8]
  %p = call ptr @malloc(i64 16)
  call void @free(ptr %p)
  %r = call double @sqrt(double %d)
  %n = call i64 @strlen(ptr %local)
  call void @compiled_elsewhere(ptr %s)
  ret i64 %n
}

; A relaxed function promises no races, library calls included.
; CHECK-LABEL: define void @relaxed(
; CHECK-NOT: fence
; CHECK: ret void
define void @relaxed(ptr %s) "vbd-relaxed" {
  call ptr @strcpy(ptr @buf, ptr %s)
  ret void
}

; A musttail call can have nothing between it and the return, so it gets
; the fence before it only (a hole, llvm/README.md).
; CHECK-LABEL: define ptr @tail(
; CHECK-NEXT: fence seq_cst, !vbd.sc
; CHECK-NEXT: %r = musttail call ptr @strcpy(ptr %d, ptr %s)
; CHECK-NEXT: ret ptr %r
define ptr @tail(ptr %d, ptr %s) {
  %r = musttail call ptr @strcpy(ptr %d, ptr %s)
  ret ptr %r
}
