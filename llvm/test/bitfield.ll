; A bit-field assignment loads its storage unit, keeps the other fields'
; bits and stores the unit back.  Made SC access by access, two threads
; assigning neighbouring fields could lose one assignment; as one seq_cst
; compare-exchange loop each assignment is one access, as SC asks.  A
; read-modify-write the program spells out (x = x + 1) is two accesses
; under SC and stays a load and a store.
; RUN: %opt -passes=vbd-add-sc -S %s | FileCheck %s
; RUN: %opt -passes=vbd-add-sc -S %s -o - | llc-19 -O2 -mtriple=x86_64-unknown-linux-gnu -o - | FileCheck %s --check-prefix=ASM

@bits = global i8 0
@wide = global i32 0
@x = global i32 0

; CHECK-LABEL: define void @set_bit(
; CHECK: vbd.bitfield:
; CHECK-NEXT: %bf.load = load atomic i8, ptr @bits seq_cst
; CHECK-NEXT: %bf.clear = and i8 %bf.load, -2
; CHECK-NEXT: %bf.set = or i8 %bf.clear, 1
; CHECK-NEXT: cmpxchg ptr @bits, i8 %bf.load, i8 %bf.set seq_cst seq_cst
; CHECK: br i1 %{{.*}}, label %vbd.bitfield.done, label %vbd.bitfield
; ASM-LABEL: set_bit:
; ASM: lock cmpxchgb
define void @set_bit() {
  %bf.load = load i8, ptr @bits, align 1
  %bf.clear = and i8 %bf.load, -2
  %bf.set = or i8 %bf.clear, 1
  store i8 %bf.set, ptr @bits, align 1
  ret void
}

; A field of several bits set from a variable; the assignment's value is
; used after it.
; CHECK-LABEL: define i32 @set_field(
; CHECK: %bf.load = load atomic i32, ptr @wide seq_cst
; CHECK: cmpxchg ptr @wide, i32 %bf.load, i32 %bf.set seq_cst seq_cst
; CHECK: vbd.bitfield.done:
; CHECK-NEXT: ret i32 %bf.value
define i32 @set_field(i32 %v) {
  %bf.value = and i32 %v, 1048575
  %bf.load = load i32, ptr @wide, align 4
  %bf.clear = and i32 %bf.load, -1048576
  %bf.set = or i32 %bf.clear, %bf.value
  store i32 %bf.set, ptr @wide, align 4
  ret i32 %bf.value
}

; Clearing a field: only the mask.
; CHECK-LABEL: define void @clear_bit(
; CHECK: cmpxchg ptr @bits
define void @clear_bit() {
  %bf.load = load i8, ptr @bits, align 1
  %bf.clear = and i8 %bf.load, -3
  store i8 %bf.clear, ptr @bits, align 1
  ret void
}

; CHECK-LABEL: define void @increment(
; CHECK-NEXT: load atomic i32, ptr @x seq_cst
; CHECK-NEXT: add i32
; CHECK-NEXT: store atomic i32 %{{.*}}, ptr @x seq_cst
; CHECK-NOT: cmpxchg
; CHECK: ret void
define void @increment() {
  %v = load i32, ptr @x, align 4
  %n = add i32 %v, 1
  store i32 %n, ptr @x, align 4
  ret void
}

; Memory touched between the load and the store: not one assignment.
; CHECK-LABEL: define void @not_one_assignment(
; CHECK-NOT: cmpxchg
; CHECK: ret void
define void @not_one_assignment() {
  %bf.load = load i8, ptr @bits, align 1
  store i32 1, ptr @x, align 4
  %bf.clear = and i8 %bf.load, -2
  %bf.set = or i8 %bf.clear, 1
  store i8 %bf.set, ptr @bits, align 1
  ret void
}

; The hole: a unit no single instruction exchanges, three bytes wide or not
; naturally aligned (fields of a packed record), stays a load and a store.
; CHECK-LABEL: define void @packed_units(
; CHECK-NOT: cmpxchg
; CHECK: ret void
@odd = global i24 0
@packed = global <{ i8, i32 }> zeroinitializer
define void @packed_units() {
  %a = load i24, ptr @odd, align 1
  %a.clear = and i24 %a, -2
  %a.set = or i24 %a.clear, 1
  store i24 %a.set, ptr @odd, align 1
  %p = getelementptr inbounds i8, ptr @packed, i64 1
  %b = load i32, ptr %p, align 1
  %b.clear = and i32 %b, -2
  %b.set = or i32 %b.clear, 1
  store i32 %b.set, ptr %p, align 1
  ret void
}
