// Scalar arithmetic: narrow integers stay zero-extended, signed operations
// sign-extend into scratch first, floats use the .s and .h instructions,
// and values that live within a block take r0..r9 (docs/CodeGen.md).
// RUN: tessera-opt --pass-pipeline='builtin.module(csl.program(tessera-allocate-memory))' \
// RUN:   -mlir-print-debuginfo %s | tessera-translate --csl-to-pe | FileCheck %s
csl.program @p arch wse3 {
  func.func @narrow(%a: i16, %b: i16) -> i16 {
    %cm3 = arith.constant -3 : i16
    %c7 = arith.constant 7 : i16
    %s = arith.addi %a, %b : i16
    %q = arith.divsi %s, %b : i16
    %c = arith.cmpi slt, %q, %cm3 : i16
    %r = arith.select %c, %q, %c7 : i16
    return %r : i16
  }
  func.func @floats(%x: f32, %h: f16) -> f32 {
    %one = arith.constant 1.5 : f32
    %m = arith.mulf %x, %one : f32
    %w = arith.extf %h : f16 to f32
    %s = arith.addf %m, %w : f32
    %lt = arith.cmpf olt, %s, %w : f32
    %n = arith.negf %s : f32
    %r = arith.select %lt, %n, %s : f32
    %i = arith.fptoui %r : f32 to i16
    %b = arith.sitofp %i : i16 to f16
    %d = arith.addf %b, %b : f16
    %e = arith.extf %d : f16 to f32
    return %e : f32
  }
  func.func @casts(%a: i32, %b: i8) -> i32 {
    %t = arith.trunci %a : i32 to i16
    %s = arith.extsi %b : i8 to i32
    %u = arith.extui %t : i16 to i32
    %v = arith.shrsi %s, %u : i32
    %w = arith.maxsi %v, %a : i32
    return %w : i32
  }
}

// CHECK: program p (stack 8 bytes)
// CHECK-NEXT: arch wse3, code 188 bytes at 0x0000, data 0 bytes at 0x0000, bss 0 bytes at 0x0000
// CHECK-EMPTY:
// CHECK-NEXT: symbols:
// CHECK-EMPTY:
// CHECK-NEXT: tasks:
// CHECK-EMPTY:
// CHECK-NEXT: code:
// CHECK-NEXT: 0x0000: addi r15, r15, -8 ; {{.*}}arith.mlir:7:3
// CHECK-NEXT: 0x0004: st32 r0, r15, 0
// CHECK-NEXT: 0x0008: st32 r1, r15, 4
// CHECK-NEXT: 0x000c: ld32 r10, r15, 0 ; {{.*}}arith.mlir:10:10
// CHECK-NEXT: 0x0010: ld32 r11, r15, 4
// CHECK-NEXT: 0x0014: add r0, r10, r11
// CHECK-NEXT: 0x0018: zext16 r0, r0
// CHECK-NEXT: 0x001a: sext16 r10, r0 ; {{.*}}arith.mlir:11:10
// CHECK-NEXT: 0x001c: ld32 r11, r15, 4
// CHECK-NEXT: 0x0020: sext16 r11, r11
// CHECK-NEXT: 0x0022: divs r1, r10, r11
// CHECK-NEXT: 0x0026: zext16 r1, r1
// CHECK-NEXT: 0x0028: sext16 r10, r1 ; {{.*}}arith.mlir:12:10
// CHECK-NEXT: 0x002a: movi r11, -3
// CHECK-NEXT: 0x002e: clts r0, r10, r11
// CHECK-NEXT: 0x0032: movi r10, 7 ; {{.*}}arith.mlir:13:10
// CHECK-NEXT: 0x0036: sel r2, r0, r1, r10
// CHECK-NEXT: 0x003a: mov r0, r2 ; {{.*}}arith.mlir:14:5
// CHECK-NEXT: 0x003c: addi r15, r15, 8
// CHECK-NEXT: 0x0040: ret
// CHECK-NEXT: 0x0042: addi r15, r15, -8 ; {{.*}}arith.mlir:16:3
// CHECK-NEXT: 0x0046: st32 r0, r15, 0
// CHECK-NEXT: 0x004a: st32 r1, r15, 4
// CHECK-NEXT: 0x004e: ld32 r10, r15, 0 ; {{.*}}arith.mlir:18:10
// CHECK-NEXT: 0x0052: movi32 r11, 0x3fc00000
// CHECK-NEXT: 0x0058: fmul.s r0, r10, r11
// CHECK-NEXT: 0x005c: ld32 r10, r15, 4 ; {{.*}}arith.mlir:19:10
// CHECK-NEXT: 0x0060: fcvt.s.h r1, r10
// CHECK-NEXT: 0x0062: fadd.s r2, r0, r1 ; {{.*}}arith.mlir:20:10
// CHECK-NEXT: 0x0066: fcmp.s r0, r2, r1, olt ; {{.*}}arith.mlir:21:11
// CHECK-NEXT: 0x006a: fneg.s r1, r2 ; {{.*}}arith.mlir:22:10
// CHECK-NEXT: 0x006c: sel r3, r0, r1, r2 ; {{.*}}arith.mlir:23:10
// CHECK-NEXT: 0x0070: fcvt.wu.s r0, r3 ; {{.*}}arith.mlir:24:10
// CHECK-NEXT: 0x0072: zext16 r0, r0
// CHECK-NEXT: 0x0074: sext16 r10, r0 ; {{.*}}arith.mlir:25:10
// CHECK-NEXT: 0x0076: fcvt.h.w r1, r10
// CHECK-NEXT: 0x0078: fadd.h r0, r1, r1 ; {{.*}}arith.mlir:26:10
// CHECK-NEXT: 0x007c: fcvt.s.h r1, r0 ; {{.*}}arith.mlir:27:10
// CHECK-NEXT: 0x007e: mov r0, r1 ; {{.*}}arith.mlir:28:5
// CHECK-NEXT: 0x0080: addi r15, r15, 8
// CHECK-NEXT: 0x0084: ret
// CHECK-NEXT: 0x0086: addi r15, r15, -8 ; {{.*}}arith.mlir:30:3
// CHECK-NEXT: 0x008a: st32 r0, r15, 0
// CHECK-NEXT: 0x008e: st32 r1, r15, 4
// CHECK-NEXT: 0x0092: ld32 r10, r15, 0 ; {{.*}}arith.mlir:31:10
// CHECK-NEXT: 0x0096: mov r0, r10
// CHECK-NEXT: 0x0098: zext16 r0, r0
// CHECK-NEXT: 0x009a: ld32 r10, r15, 4 ; {{.*}}arith.mlir:32:10
// CHECK-NEXT: 0x009e: sext8 r10, r10
// CHECK-NEXT: 0x00a0: mov r1, r10
// CHECK-NEXT: 0x00a2: mov r2, r0 ; {{.*}}arith.mlir:33:10
// CHECK-NEXT: 0x00a4: shra r0, r1, r2 ; {{.*}}arith.mlir:34:10
// CHECK-NEXT: 0x00a8: ld32 r10, r15, 0 ; {{.*}}arith.mlir:35:10
// CHECK-NEXT: 0x00ac: clts r11, r0, r10
// CHECK-NEXT: 0x00b0: sel r1, r11, r10, r0
// CHECK-NEXT: 0x00b4: mov r0, r1 ; {{.*}}arith.mlir:36:5
// CHECK-NEXT: 0x00b6: addi r15, r15, 8
// CHECK-NEXT: 0x00ba: ret
