// RUN: not tessera-opt %s -tessera-allocate-memory 2>&1 | FileCheck %s
// A program as MLIRGen makes it has no location of its own: the error about
// its data is at line 1 of its file, and the notes at the globals.

// CHECK:      pe.csl:1:1: error: program 'pe' needs 53,600 bytes of 49,152 for its data; largest: 'weights' 40,000 bytes, 'bias' 12,000 bytes, 'x' 1,600 bytes
// CHECK-NEXT: pe.csl:1:1: note: 'weights' takes 40,000 bytes
// CHECK-NEXT: pe.csl:2:1: note: 'bias' takes 12,000 bytes
// CHECK-NEXT: pe.csl:3:1: note: 'x' takes 1,600 bytes
// CHECK-NOT:  error
csl.program @pe arch wse2 file "pe.csl" {
  memref.global @weights : memref<10000xf32> = dense<0.0> loc("pe.csl":1:1)
  memref.global @bias : memref<3000xf32> = dense<1.0> loc("pe.csl":2:1)
  memref.global @x : memref<800xi16> = uninitialized loc("pe.csl":3:1)
} loc(unknown)

// Without a file either, the error has no location.
// CHECK:      error: program 'anonymous' needs 60,000 bytes of 49,152 for its data; largest: 'a' 60,000 bytes
csl.program @anonymous arch wse3 {
  memref.global @a : memref<15000xf32> = uninitialized
} loc(unknown)
