// Tasks and tables: the task table, start-up actions from the program's
// top level, data and control task arguments split from r0, exported
// symbols (a pointer exports the array it points to), entry points, and
// teardown handlers as named function symbols (docs/CodeGen.md).
// RUN: tessera-opt --pass-pipeline='builtin.module(csl.program(tessera-allocate-memory))' \
// RUN:   -mlir-print-debuginfo %s | tessera-translate --csl-to-pe | FileCheck %s
csl.program @p arch wse2 {
  memref.global @y : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
  memref.global @count : memref<i32> = dense<0>
  csl.pointer_global @y_ptr = @y : memref<?xf32>
  // Start-up state from comptime blocks, in program order.
  %main = csl.get_task_id 12 : !csl.task_id<local>
  csl.activate %main
  %c3 = csl.get_color 3 : !csl.color
  csl.block %c3 : !csl.color
  csl.task local @main() id 12 {
    %g = memref.get_global @count : memref<i32>
    %v = memref.load %g[] : memref<i32>
    %c1 = arith.constant 1 : i32
    %w = arith.addi %v, %c1 : i32
    memref.store %w, %g[] : memref<i32>
    %t = csl.get_task_id 12 : !csl.task_id<local>
    csl.activate %t
    csl.return
  }
  // A control task gets the low 16 bits of the wavelet.
  csl.task control @ctl(%a: i8, %b: i8) id 40 {
    %c = csl.get_color 3 : !csl.color
    csl.unblock %c : !csl.color
    csl.return
  }
  // A WSE-2 data task bound to color 3 with one f32 argument.
  csl.task data @got(%x: f32) id 3 {
    %g = memref.get_global @y : memref<4xf32>
    %c0 = arith.constant 0 : index
    memref.store %x, %g[%c0] : memref<4xf32>
    csl.return
  }
  func.func @compute(%k: f32, %n: i16) {
    return
  }
  func.func @on_teardown() {
    return
  }
  csl.set_teardown_handler @on_teardown color 5
  csl.export mutable @y_ptr as "y" : memref<?xf32>
  csl.export @count as "count" : memref<i32>
  csl.export @compute as "compute" : (f32, i16) -> ()
}

// CHECK: program p (stack 8 bytes)
// CHECK-NEXT: arch wse2, code 100 bytes at 0x0018, data 18 bytes at 0x0000, bss 6 bytes at 0x0012
// CHECK-EMPTY:
// CHECK-NEXT: symbols:
// CHECK-NEXT: 0x007a __teardown_handler.5 fn()
// CHECK-NEXT: 0x0000 y [4]f32 mutable
// CHECK-NEXT: 0x0014 count [1]i32
// CHECK-NEXT: 0x0068 compute fn(f32, i16)
// CHECK-EMPTY:
// CHECK-NEXT: variables:
// CHECK-NEXT: 0x0000 y [4]f32
// CHECK-NEXT: 0x0014 count [1]i32
// CHECK-NEXT: 0x0010 y_ptr [1]u16
// CHECK-EMPTY:
// CHECK-NEXT: tasks:
// CHECK-NEXT: local 12 at 0x0018
// CHECK-NEXT: control 40 at 0x0034
// CHECK-NEXT: data 3 at 0x0050
// CHECK-EMPTY:
// CHECK-NEXT: start-up:
// CHECK-NEXT: activate 12
// CHECK-NEXT: block color 3
// CHECK-EMPTY:
// CHECK-NEXT: data:
// CHECK-NEXT: 0x0000: 00 00 80 3f 00 00 00 40 00 00 40 40 00 00 80 40
// CHECK-NEXT: 0x0010: 00 00
// CHECK-EMPTY:
// CHECK-NEXT: code:
// CHECK-NEXT: 0x0018: movi r10, 20 ; {{.*}}tasks.mlir:18:10
// CHECK-NEXT: 0x001c: ld32 r0, r10, 0
// CHECK-NEXT: 0x0020: movi r10, 1 ; {{.*}}tasks.mlir:20:10
// CHECK-NEXT: 0x0024: add r1, r0, r10
// CHECK-NEXT: 0x0028: movi r10, 20 ; {{.*}}tasks.mlir:21:5
// CHECK-NEXT: 0x002c: st32 r1, r10, 0
// CHECK-NEXT: 0x0030: activate 12 ; {{.*}}tasks.mlir:23:5
// CHECK-NEXT: 0x0032: texit ; {{.*}}tasks.mlir:24:5
// CHECK-NEXT: 0x0034: addi r15, r15, -8 ; {{.*}}tasks.mlir:27:3
// CHECK-NEXT: 0x0038: mov r10, r0
// CHECK-NEXT: 0x003a: zext8 r10, r10
// CHECK-NEXT: 0x003c: st32 r10, r15, 0
// CHECK-NEXT: 0x0040: shrli r10, r0, 8
// CHECK-NEXT: 0x0044: zext8 r10, r10
// CHECK-NEXT: 0x0046: st32 r10, r15, 4
// CHECK-NEXT: 0x004a: unblock color, 3 ; {{.*}}tasks.mlir:29:5
// CHECK-NEXT: 0x004e: texit ; {{.*}}tasks.mlir:30:5
// CHECK-NEXT: 0x0050: addi r15, r15, -4 ; {{.*}}tasks.mlir:33:3
// CHECK-NEXT: 0x0054: mov r10, r0
// CHECK-NEXT: 0x0056: st32 r10, r15, 0
// CHECK-NEXT: 0x005a: ld32 r10, r15, 0 ; {{.*}}tasks.mlir:36:5
// CHECK-NEXT: 0x005e: movi r11, 0
// CHECK-NEXT: 0x0062: st32 r10, r11, 0
// CHECK-NEXT: 0x0066: texit ; {{.*}}tasks.mlir:37:5
// CHECK-NEXT: 0x0068: addi r15, r15, -8 ; {{.*}}tasks.mlir:39:3
// CHECK-NEXT: 0x006c: st32 r0, r15, 0
// CHECK-NEXT: 0x0070: st32 r1, r15, 4
// CHECK-NEXT: 0x0074: addi r15, r15, 8 ; {{.*}}tasks.mlir:40:5
// CHECK-NEXT: 0x0078: ret
// CHECK-NEXT: 0x007a: ret ; {{.*}}tasks.mlir:43:5
