// More refusals of the lowering: arrays of DSDs, local arrays sized at run
// time, a DSD operation when user code names every DSR of a file, and more
// FIFOs than a PE has (tessera-verify-resources also reports that one).
// RUN: tessera-opt --split-input-file \
// RUN:   --pass-pipeline='builtin.module(csl.program(tessera-allocate-memory))' \
// RUN:   -mlir-print-debuginfo %s \
// RUN: | not tessera-translate --split-input-file --csl-to-pe 2>&1 | FileCheck %s
csl.program @dsd_array arch wse3 {
  memref.global @slots : memref<2x!csl.dsd<mem1d, f32>> = uninitialized
  func.func @f(%k: f32) {
    %s = memref.get_global @slots : memref<2x!csl.dsd<mem1d, f32>>
    %c0 = arith.constant 0 : index
    %d = memref.load %s[%c0] : memref<2x!csl.dsd<mem1d, f32>>
    csl.fmovs %d, %k : !csl.dsd<mem1d, f32>, f32
    return
  }
}

// -----

csl.program @dynamic_local arch wse3 {
  func.func @f(%n: index) {
    %a = memref.alloca(%n) : memref<?xf32>
    return
  }
}

// -----

csl.program @no_scratch arch wse3 {
  memref.global @x : memref<4xf32> = dense<0.0>
  func.func @f(%k: f32) {
    %r0 = csl.get_dsr 0 : !csl.dsr<dest>
    %r1 = csl.get_dsr 1 : !csl.dsr<dest>
    %r2 = csl.get_dsr 2 : !csl.dsr<dest>
    %r3 = csl.get_dsr 3 : !csl.dsr<dest>
    %r4 = csl.get_dsr 4 : !csl.dsr<dest>
    %r5 = csl.get_dsr 5 : !csl.dsr<dest>
    %r6 = csl.get_dsr 6 : !csl.dsr<dest>
    %r7 = csl.get_dsr 7 : !csl.dsr<dest>
    %r8 = csl.get_dsr 8 : !csl.dsr<dest>
    %r9 = csl.get_dsr 9 : !csl.dsr<dest>
    %r10 = csl.get_dsr 10 : !csl.dsr<dest>
    %r11 = csl.get_dsr 11 : !csl.dsr<dest>
    %r12 = csl.get_dsr 12 : !csl.dsr<dest>
    %r13 = csl.get_dsr 13 : !csl.dsr<dest>
    %r14 = csl.get_dsr 14 : !csl.dsr<dest>
    %r15 = csl.get_dsr 15 : !csl.dsr<dest>
    %g = memref.get_global @x : memref<4xf32>
    %d = csl.tensor_access_dsd %g sizes [4] map affine_map<(i) -> (i)> : memref<4xf32> -> !csl.dsd<mem1d, f32>
    csl.fmovs %d, %k : !csl.dsd<mem1d, f32>, f32
    return
  }
}

// -----

csl.program @many_fifos arch wse3 {
  memref.global @b : memref<4xf32> = uninitialized
  csl.allocate_fifo @f0 buffer @b : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f1 buffer @b : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f2 buffer @b : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f3 buffer @b : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f4 buffer @b : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f5 buffer @b : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f6 buffer @b : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f7 buffer @b : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f8 buffer @b : !csl.dsd<fifo, f32>
}

// CHECK: {{.*}}resources.mlir:13:10: error: arrays of DSDs are not supported by this cslc
// CHECK: {{.*}}resources.mlir:23:10: error: a local array needs a size known at compile time
// CHECK: {{.*}}resources.mlir:51:5: error: no free DSR left in the dest file for this operation
// CHECK: {{.*}}resources.mlir:68:3: error: a program may allocate at most 8 FIFOs
