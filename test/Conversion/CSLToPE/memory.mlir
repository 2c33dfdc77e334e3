// Memory: globals at their csl.address, constant indices folded into the
// offset, run-time indices scaled and added, addresses past 32,767 as 32-bit
// constants, local arrays in the frame, pointers as 16-bit addresses, and
// initial values (with a pointer's target address) in the data section.
// RUN: tessera-opt --pass-pipeline='builtin.module(csl.program(tessera-allocate-memory))' \
// RUN:   -mlir-print-debuginfo %s | tessera-translate --csl-to-pe | FileCheck %s
csl.program @p arch wse3 {
  memref.global @table : memref<3xi16> = dense<[1, -2, 300]>
  memref.global @scale : memref<f32> = dense<2.5>
  memref.global @grid : memref<4x5xf32> = dense<0.0>
  memref.global @big : memref<19980xi16> = dense<0>
  memref.global @flag : memref<i8> = dense<0>
  csl.pointer_global @cursor = @grid : memref<?xf32>
  func.func @access(%i: index, %j: index) -> f32 {
    %g = memref.get_global @grid : memref<4x5xf32>
    %c2 = arith.constant 2 : index
    // Constant indices fold into the offset; run-time ones scale and add.
    %a = memref.load %g[%c2, %c2] : memref<4x5xf32>
    %b = memref.load %g[%i, %j] : memref<4x5xf32>
    %s = arith.addf %a, %b : f32
    memref.store %s, %g[%j, %c2] : memref<4x5xf32>
    // Past 32767 the address is a 32-bit constant.
    %f = memref.get_global @flag : memref<i8>
    %v = memref.load %f[] : memref<i8>
    %big = memref.get_global @big : memref<19980xi16>
    memref.store %v, %f[] : memref<i8>
    return %s : f32
  }
  func.func @locals(%n: index) -> i16 {
    // A local array lives in the frame.
    %buf = memref.alloca() : memref<6xi16>
    %c7 = arith.constant 7 : i16
    memref.store %c7, %buf[%n] : memref<6xi16>
    %c1 = arith.constant 1 : index
    %x = memref.load %buf[%c1] : memref<6xi16>
    return %x : i16
  }
  func.func @pointers() -> f32 {
    // A pointer variable holds a 16-bit address.
    %p = csl.load_pointer @cursor : memref<?xf32>
    %c3 = arith.constant 3 : index
    %x = memref.load %p[%c3] : memref<?xf32>
    %g = memref.get_global @grid : memref<4x5xf32>
    %c1 = arith.constant 1 : index
    %e = csl.element_address %g[%c1, %c3] : memref<4x5xf32> -> memref<f32>
    %q = csl.ptrcast %e : memref<f32> to memref<?xf32>
    csl.store_pointer %q, @cursor : memref<?xf32>
    return %x : f32
  }
}

// CHECK: program p (stack 16 bytes)
// CHECK-NEXT: arch wse3, code 168 bytes at 0x9c7a, data 14 bytes at 0x0000, bss 40043 bytes at 0x000e
// CHECK-EMPTY:
// CHECK-NEXT: symbols:
// CHECK-EMPTY:
// CHECK-NEXT: variables:
// CHECK-NEXT: 0x0000 table [3]i16
// CHECK-NEXT: 0x0008 scale [1]f32
// CHECK-NEXT: 0x0010 grid [20]f32
// CHECK-NEXT: 0x0060 big [19980]i16
// CHECK-NEXT: 0x9c78 flag [1]i8
// CHECK-NEXT: 0x000c cursor [1]u16
// CHECK-EMPTY:
// CHECK-NEXT: tasks:
// CHECK-EMPTY:
// CHECK-NEXT: data:
// CHECK-NEXT: 0x0000: 01 00 fe ff 2c 01 00 00 00 00 20 40 10 00
// CHECK-EMPTY:
// CHECK-NEXT: code:
// CHECK-NEXT: 0x9c7a: addi r15, r15, -8 ; {{.*}}memory.mlir:14:3
// CHECK-NEXT: 0x9c7e: st32 r0, r15, 0
// CHECK-NEXT: 0x9c82: st32 r1, r15, 4
// CHECK-NEXT: 0x9c86: movi r10, 64 ; {{.*}}memory.mlir:18:10
// CHECK-NEXT: 0x9c8a: ld32 r0, r10, 0
// CHECK-NEXT: 0x9c8e: ld32 r10, r15, 0 ; {{.*}}memory.mlir:19:10
// CHECK-NEXT: 0x9c92: movi r11, 20
// CHECK-NEXT: 0x9c96: mul r10, r10, r11
// CHECK-NEXT: 0x9c9a: ld32 r12, r15, 4
// CHECK-NEXT: 0x9c9e: shli r12, r12, 2
// CHECK-NEXT: 0x9ca2: add r10, r10, r12
// CHECK-NEXT: 0x9ca6: ld32 r1, r10, 16
// CHECK-NEXT: 0x9caa: fadd.s r2, r0, r1 ; {{.*}}memory.mlir:20:10
// CHECK-NEXT: 0x9cae: ld32 r10, r15, 4 ; {{.*}}memory.mlir:21:5
// CHECK-NEXT: 0x9cb2: movi r11, 20
// CHECK-NEXT: 0x9cb6: mul r10, r10, r11
// CHECK-NEXT: 0x9cba: st32 r2, r10, 24
// CHECK-NEXT: 0x9cbe: movi32 r10, 0x00009c78 ; {{.*}}memory.mlir:24:10
// CHECK-NEXT: 0x9cc4: ld8u r0, r10, 0
// CHECK-NEXT: 0x9cc8: movi32 r10, 0x00009c78 ; {{.*}}memory.mlir:26:5
// CHECK-NEXT: 0x9cce: st8 r0, r10, 0
// CHECK-NEXT: 0x9cd2: mov r0, r2 ; {{.*}}memory.mlir:27:5
// CHECK-NEXT: 0x9cd4: addi r15, r15, 8
// CHECK-NEXT: 0x9cd8: ret
// CHECK-NEXT: 0x9cda: addi r15, r15, -16 ; {{.*}}memory.mlir:29:3
// CHECK-NEXT: 0x9cde: st32 r0, r15, 0
// CHECK-NEXT: 0x9ce2: movi r10, 7 ; {{.*}}memory.mlir:33:5
// CHECK-NEXT: 0x9ce6: ld32 r11, r15, 0
// CHECK-NEXT: 0x9cea: shli r11, r11, 1
// CHECK-NEXT: 0x9cee: add r11, r11, r15
// CHECK-NEXT: 0x9cf2: st16 r10, r11, 4
// CHECK-NEXT: 0x9cf6: ld16u r0, r15, 6 ; {{.*}}memory.mlir:35:10
// CHECK-NEXT: 0x9cfa: addi r15, r15, 16 ; {{.*}}memory.mlir:36:5
// CHECK-NEXT: 0x9cfe: ret
// CHECK-NEXT: 0x9d00: movi r10, 12 ; {{.*}}memory.mlir:40:10
// CHECK-NEXT: 0x9d04: ld16u r0, r10, 0
// CHECK-NEXT: 0x9d08: ld32 r1, r0, 12 ; {{.*}}memory.mlir:42:10
// CHECK-NEXT: 0x9d0c: movi r10, 48 ; {{.*}}memory.mlir:45:10
// CHECK-NEXT: 0x9d10: addi r0, r10, 0
// CHECK-NEXT: 0x9d14: mov r2, r0 ; {{.*}}memory.mlir:46:10
// CHECK-NEXT: 0x9d16: movi r10, 12 ; {{.*}}memory.mlir:47:5
// CHECK-NEXT: 0x9d1a: st16 r2, r10, 0
// CHECK-NEXT: 0x9d1e: mov r0, r1 ; {{.*}}memory.mlir:48:5
// CHECK-NEXT: 0x9d20: ret
