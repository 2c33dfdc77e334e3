// Control flow and calls: block arguments in frame slots (a swap goes
// through staging slots), fall-through to the next block, cf.switch as a
// chain of compares, arguments in r0..r7 as a parallel move (r13 breaks the
// cycle) and past the eighth pushed on the stack (docs/CodeGen.md).
// RUN: tessera-opt --pass-pipeline='builtin.module(csl.program(tessera-allocate-memory))' \
// RUN:   -mlir-print-debuginfo %s | tessera-translate --csl-to-pe | FileCheck %s
csl.program @p arch wse3 {
  // Fibonacci with loop-carried values swapped on the back edge.
  func.func @fib(%n: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    cf.br ^loop(%c0, %c1, %n : i32, i32, i32)
  ^loop(%a: i32, %b: i32, %k: i32):
    %done = arith.cmpi eq, %k, %c0 : i32
    cf.cond_br %done, ^exit, ^body
  ^body:
    %s = arith.addi %a, %b : i32
    %k1 = arith.subi %k, %c1 : i32
    cf.br ^loop(%b, %s, %k1 : i32, i32, i32)
  ^exit:
    return %a : i32
  }
  func.func @pick(%x: i16) -> i16 {
    cf.switch %x : i16, [
      default: ^other,
      3: ^three,
      9: ^nine
    ]
  ^three:
    %c30 = arith.constant 30 : i16
    return %c30 : i16
  ^nine:
    %c90 = arith.constant 90 : i16
    return %c90 : i16
  ^other:
    return %x : i16
  }
  func.func @sum10(%a0: i16, %a1: i16, %a2: i16, %a3: i16, %a4: i16,
                   %a5: i16, %a6: i16, %a7: i16, %a8: i16, %a9: i16) -> i16 {
    %s = arith.addi %a8, %a9 : i16
    return %s : i16
  }
  func.func @caller(%x: i16, %y: i16) -> i16 {
    // %x and %y swap registers on the way into @swapped.
    %p = arith.addi %x, %y : i16
    %q = arith.subi %x, %y : i16
    %r = call @swapped(%q, %p) : (i16, i16) -> i16
    %c = arith.constant 5 : i16
    %t = call @sum10(%c, %c, %c, %c, %c, %c, %c, %c, %r, %x) : (i16, i16, i16, i16, i16, i16, i16, i16, i16, i16) -> i16
    return %t : i16
  }
  func.func @swapped(%a: i16, %b: i16) -> i16 {
    return %a : i16
  }
}

// CHECK: program p (stack 52 bytes)
// CHECK-NEXT: arch wse3, code 432 bytes at 0x0000, data 0 bytes at 0x0000, bss 0 bytes at 0x0000
// CHECK-EMPTY:
// CHECK-NEXT: symbols:
// CHECK-EMPTY:
// CHECK-NEXT: tasks:
// CHECK-EMPTY:
// CHECK-NEXT: code:
// CHECK-NEXT: 0x0000: addi r15, r15, -28 ; {{.*}}control-flow.mlir:9:3
// CHECK-NEXT: 0x0004: st32 r0, r15, 0
// CHECK-NEXT: 0x0008: movi r10, 0 ; {{.*}}control-flow.mlir:12:5
// CHECK-NEXT: 0x000c: st32 r10, r15, 4
// CHECK-NEXT: 0x0010: movi r10, 1
// CHECK-NEXT: 0x0014: st32 r10, r15, 8
// CHECK-NEXT: 0x0018: ld32 r10, r15, 0
// CHECK-NEXT: 0x001c: st32 r10, r15, 12
// CHECK-NEXT: 0x0020: ld32 r10, r15, 12 ; {{.*}}control-flow.mlir:14:13
// CHECK-NEXT: 0x0024: movi r11, 0
// CHECK-NEXT: 0x0028: ceq r0, r10, r11
// CHECK-NEXT: 0x002c: bnez r0, 0x0074 ; {{.*}}control-flow.mlir:15:5
// CHECK-NEXT: 0x0030: ld32 r10, r15, 4 ; {{.*}}control-flow.mlir:17:10
// CHECK-NEXT: 0x0034: ld32 r11, r15, 8
// CHECK-NEXT: 0x0038: add r0, r10, r11
// CHECK-NEXT: 0x003c: ld32 r10, r15, 12 ; {{.*}}control-flow.mlir:18:11
// CHECK-NEXT: 0x0040: movi r11, 1
// CHECK-NEXT: 0x0044: sub r1, r10, r11
// CHECK-NEXT: 0x0048: ld32 r10, r15, 8 ; {{.*}}control-flow.mlir:19:5
// CHECK-NEXT: 0x004c: st32 r10, r15, 16
// CHECK-NEXT: 0x0050: st32 r0, r15, 20
// CHECK-NEXT: 0x0054: st32 r1, r15, 24
// CHECK-NEXT: 0x0058: ld32 r10, r15, 16
// CHECK-NEXT: 0x005c: st32 r10, r15, 4
// CHECK-NEXT: 0x0060: ld32 r10, r15, 20
// CHECK-NEXT: 0x0064: st32 r10, r15, 8
// CHECK-NEXT: 0x0068: ld32 r10, r15, 24
// CHECK-NEXT: 0x006c: st32 r10, r15, 12
// CHECK-NEXT: 0x0070: jmp 0x0020
// CHECK-NEXT: 0x0074: ld32 r10, r15, 4 ; {{.*}}control-flow.mlir:21:5
// CHECK-NEXT: 0x0078: mov r0, r10
// CHECK-NEXT: 0x007a: addi r15, r15, 28
// CHECK-NEXT: 0x007e: ret
// CHECK-NEXT: 0x0080: addi r15, r15, -4 ; {{.*}}control-flow.mlir:23:3
// CHECK-NEXT: 0x0084: st32 r0, r15, 0
// CHECK-NEXT: 0x0088: ld32 r11, r15, 0 ; {{.*}}control-flow.mlir:24:5
// CHECK-NEXT: 0x008c: movi r12, 3
// CHECK-NEXT: 0x0090: ceq r10, r11, r12
// CHECK-NEXT: 0x0094: beqz r10, 0x009c
// CHECK-NEXT: 0x0098: jmp 0x00b4
// CHECK-NEXT: 0x009c: ld32 r11, r15, 0
// CHECK-NEXT: 0x00a0: movi r12, 9
// CHECK-NEXT: 0x00a4: ceq r10, r11, r12
// CHECK-NEXT: 0x00a8: beqz r10, 0x00b0
// CHECK-NEXT: 0x00ac: jmp 0x00c0
// CHECK-NEXT: 0x00b0: jmp 0x00cc
// CHECK-NEXT: 0x00b4: movi r10, 30 ; {{.*}}control-flow.mlir:31:5
// CHECK-NEXT: 0x00b8: mov r0, r10
// CHECK-NEXT: 0x00ba: addi r15, r15, 4
// CHECK-NEXT: 0x00be: ret
// CHECK-NEXT: 0x00c0: movi r10, 90 ; {{.*}}control-flow.mlir:34:5
// CHECK-NEXT: 0x00c4: mov r0, r10
// CHECK-NEXT: 0x00c6: addi r15, r15, 4
// CHECK-NEXT: 0x00ca: ret
// CHECK-NEXT: 0x00cc: ld32 r10, r15, 0 ; {{.*}}control-flow.mlir:36:5
// CHECK-NEXT: 0x00d0: mov r0, r10
// CHECK-NEXT: 0x00d2: addi r15, r15, 4
// CHECK-NEXT: 0x00d6: ret
// CHECK-NEXT: 0x00d8: addi r15, r15, -40 ; {{.*}}control-flow.mlir:38:3
// CHECK-NEXT: 0x00dc: st32 r0, r15, 0
// CHECK-NEXT: 0x00e0: st32 r1, r15, 4
// CHECK-NEXT: 0x00e4: st32 r2, r15, 8
// CHECK-NEXT: 0x00e8: st32 r3, r15, 12
// CHECK-NEXT: 0x00ec: st32 r4, r15, 16
// CHECK-NEXT: 0x00f0: st32 r5, r15, 20
// CHECK-NEXT: 0x00f4: st32 r6, r15, 24
// CHECK-NEXT: 0x00f8: st32 r7, r15, 28
// CHECK-NEXT: 0x00fc: ld32 r10, r15, 40
// CHECK-NEXT: 0x0100: st32 r10, r15, 32
// CHECK-NEXT: 0x0104: ld32 r10, r15, 44
// CHECK-NEXT: 0x0108: st32 r10, r15, 36
// CHECK-NEXT: 0x010c: ld32 r10, r15, 32 ; {{.*}}control-flow.mlir:40:10
// CHECK-NEXT: 0x0110: ld32 r11, r15, 36
// CHECK-NEXT: 0x0114: add r0, r10, r11
// CHECK-NEXT: 0x0118: zext16 r0, r0
// CHECK-NEXT: 0x011a: addi r15, r15, 40 ; {{.*}}control-flow.mlir:41:5
// CHECK-NEXT: 0x011e: ret
// CHECK-NEXT: 0x0120: addi r15, r15, -12 ; {{.*}}control-flow.mlir:43:3
// CHECK-NEXT: 0x0124: st32 r14, r15, 0
// CHECK-NEXT: 0x0128: st32 r0, r15, 4
// CHECK-NEXT: 0x012c: st32 r1, r15, 8
// CHECK-NEXT: 0x0130: ld32 r10, r15, 4 ; {{.*}}control-flow.mlir:45:10
// CHECK-NEXT: 0x0134: ld32 r11, r15, 8
// CHECK-NEXT: 0x0138: add r0, r10, r11
// CHECK-NEXT: 0x013c: zext16 r0, r0
// CHECK-NEXT: 0x013e: ld32 r10, r15, 4 ; {{.*}}control-flow.mlir:46:10
// CHECK-NEXT: 0x0142: ld32 r11, r15, 8
// CHECK-NEXT: 0x0146: sub r1, r10, r11
// CHECK-NEXT: 0x014a: zext16 r1, r1
// CHECK-NEXT: 0x014c: mov r13, r1 ; {{.*}}control-flow.mlir:47:10
// CHECK-NEXT: 0x014e: mov r1, r0
// CHECK-NEXT: 0x0150: mov r0, r13
// CHECK-NEXT: 0x0152: call 0x0198
// CHECK-NEXT: 0x0156: addi r15, r15, -8 ; {{.*}}control-flow.mlir:49:10
// CHECK-NEXT: 0x015a: st32 r0, r15, 0
// CHECK-NEXT: 0x015e: ld32 r10, r15, 12
// CHECK-NEXT: 0x0162: st32 r10, r15, 4
// CHECK-NEXT: 0x0166: movi r0, 5
// CHECK-NEXT: 0x016a: movi r1, 5
// CHECK-NEXT: 0x016e: movi r2, 5
// CHECK-NEXT: 0x0172: movi r3, 5
// CHECK-NEXT: 0x0176: movi r4, 5
// CHECK-NEXT: 0x017a: movi r5, 5
// CHECK-NEXT: 0x017e: movi r6, 5
// CHECK-NEXT: 0x0182: movi r7, 5
// CHECK-NEXT: 0x0186: call 0x00d8
// CHECK-NEXT: 0x018a: addi r15, r15, 8
// CHECK-NEXT: 0x018e: ld32 r14, r15, 0 ; {{.*}}control-flow.mlir:50:5
// CHECK-NEXT: 0x0192: addi r15, r15, 12
// CHECK-NEXT: 0x0196: ret
// CHECK-NEXT: 0x0198: addi r15, r15, -8 ; {{.*}}control-flow.mlir:52:3
// CHECK-NEXT: 0x019c: st32 r0, r15, 0
// CHECK-NEXT: 0x01a0: st32 r1, r15, 4
// CHECK-NEXT: 0x01a4: ld32 r10, r15, 0 ; {{.*}}control-flow.mlir:53:5
// CHECK-NEXT: 0x01a8: mov r0, r10
// CHECK-NEXT: 0x01aa: addi r15, r15, 8
// CHECK-NEXT: 0x01ae: ret
