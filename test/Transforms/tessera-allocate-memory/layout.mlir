// RUN: tessera-opt %s -tessera-allocate-memory | FileCheck %s
// Running the pass again gives the same addresses.
// RUN: tessera-opt %s -tessera-allocate-memory -tessera-allocate-memory | FileCheck %s
// RUN: tessera-opt %s -tessera-allocate-memory | tessera-opt -tessera-allocate-memory | FileCheck %s
//
// Initialised data first, in program order, then zero-filled data, each
// global aligned to its element size (or its `alignment`, if larger).

// CHECK-LABEL: csl.program @pe arch wse3 file "pe.csl" attributes {csl.bss_end = 280 : i64, csl.data_end = 100 : i64} {
csl.program @pe arch wse3 file "pe.csl" {
  // Zero-filled: 96 bytes at 100, after the initialised data.
  // CHECK: memref.global @A : memref<4x6xf32> = uninitialized {csl.address = 100 : i64}
  memref.global @A : memref<4x6xf32> = uninitialized
  // CHECK: memref.global @x : memref<6xf32> = dense<1.000000e+00> {csl.address = 0 : i64}
  memref.global @x : memref<6xf32> = dense<1.0>
  // An all-zero initial value is zero-filled.
  // CHECK: memref.global @y : memref<4xf32> = dense<0.000000e+00> {csl.address = 196 : i64}
  memref.global @y : memref<4xf32> = dense<0.0>
  // CHECK: memref.global constant @coeffs : memref<3xf16> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> {csl.address = 24 : i64}
  memref.global constant @coeffs : memref<3xf16> = dense<[1.0, 2.0, 3.0]>
  // CHECK: memref.global @flag : memref<i1> = dense<true> {csl.address = 30 : i64}
  memref.global @flag : memref<i1> = dense<true>
  // CHECK: memref.global @count : memref<i16> = dense<0> {csl.address = 212 : i64}
  memref.global @count : memref<i16> = dense<0>
  // -0.0 has its sign bit set: initialised data, aligned to 4 after @flag.
  // CHECK: memref.global @neg_zero : memref<f32> = dense<-0.000000e+00> {csl.address = 32 : i64}
  memref.global @neg_zero : memref<f32> = dense<-0.0>
  // CHECK: memref.global @wide : memref<2xi64> = dense<[1, 2]> {csl.address = 40 : i64}
  memref.global @wide : memref<2xi64> = dense<[1, 2]>
  // CHECK: memref.global @ids : memref<2xindex> = dense<[0, 7]> {csl.address = 56 : i64}
  memref.global @ids : memref<2xindex> = dense<[0, 7]>
  // CHECK: memref.global @aligned : memref<5xi8> = uninitialized {alignment = 16 : i64, csl.address = 224 : i64}
  memref.global @aligned : memref<5xi8> = uninitialized {alignment = 16}
  // CHECK: memref.global @buf : memref<8xi16> = uninitialized {csl.address = 230 : i64}
  memref.global @buf : memref<8xi16> = uninitialized
  // A pointer is 2 bytes; with a target it is initialised.
  // CHECK: csl.pointer_global @x_ptr = @x {csl.address = 64 : i64} : memref<?xf32>
  csl.pointer_global @x_ptr = @x : memref<?xf32>
  // CHECK: csl.pointer_global @slot {csl.address = 246 : i64} : memref<?xf32>
  csl.pointer_global @slot : memref<?xf32>
  // A DSD variable is a 32-byte slot aligned to 4.
  // CHECK: csl.dsd_global @y_dsd {csl.address = 68 : i64} : !csl.dsd<mem1d, f32> {
  csl.dsd_global @y_dsd : !csl.dsd<mem1d, f32> {
    %y = memref.get_global @y : memref<4xf32>
    %d = csl.tensor_access_dsd %y sizes [4] map affine_map<(d0) -> (d0)> : memref<4xf32> -> !csl.dsd<mem1d, f32>
    csl.yield %d : !csl.dsd<mem1d, f32>
  }
  // CHECK: csl.dsd_global @f.d {csl.address = 248 : i64} : !csl.dsd<mem1d, f32>
  csl.dsd_global @f.d : !csl.dsd<mem1d, f32>
  // A FIFO lives in its buffer and takes no memory of its own.
  // CHECK: csl.allocate_fifo @fifo buffer @buf : !csl.dsd<fifo, i16>
  csl.allocate_fifo @fifo buffer @buf : !csl.dsd<fifo, i16>
  csl.task local @main() id 8 {
    %d = csl.load_dsd @y_dsd : !csl.dsd<mem1d, f32>
    csl.store_dsd %d, @f.d : !csl.dsd<mem1d, f32>
    csl.return
  }
  csl.export mutable @x_ptr as "x" : memref<?xf32>
}

// A program of examples/hello as cslc emits it: the pointer is initialised
// data, the @zeros array zero-filled.
// CHECK-LABEL: csl.program @pe_program arch wse2 file "pe_program.csl" attributes {csl.bss_end = 36 : i64, csl.data_end = 2 : i64} {
// CHECK-NEXT:    memref.global @result : memref<8xf32> = dense<0.000000e+00> {csl.address = 4 : i64}
// CHECK-NEXT:    csl.pointer_global @result_ptr = @result {csl.address = 0 : i64} : memref<?xf32>
csl.program @pe_program arch wse2 file "pe_program.csl" {
  memref.global @result : memref<8xf32> = dense<0.000000e+00>
  csl.pointer_global @result_ptr = @result : memref<?xf32>
  csl.task local @memcpy.cmd_stream_task() id 30 {
    %0 = csl.get_task_id 30 : !csl.task_id<local>
    csl.block %0 : !csl.task_id<local>
    csl.return
  }
  func.func @compute() {
    call @memcpy.unblock_cmd_stream() : () -> ()
    return
  }
  func.func @memcpy.unblock_cmd_stream() {
    %0 = csl.get_task_id 30 : !csl.task_id<local>
    csl.unblock %0 : !csl.task_id<local>
    return
  }
  csl.export mutable @result_ptr as "result" : memref<?xf32>
  csl.export @compute as "compute" : () -> ()
}

// No globals: both ends are 0.
// CHECK-LABEL: csl.program @empty arch wse2 attributes {csl.bss_end = 0 : i64, csl.data_end = 0 : i64} {
csl.program @empty arch wse2 {
}

// Handles and DSDs in memory: a handle is a 16-bit number, a DSD a slot.
// CHECK-LABEL: csl.program @handles arch wse2 attributes {csl.bss_end = 72 : i64, csl.data_end = 0 : i64} {
// CHECK-NEXT:    memref.global @colors : memref<3x!csl.color> = uninitialized {csl.address = 0 : i64}
// CHECK-NEXT:    memref.global @dsds : memref<2x!csl.dsd<mem1d, f32>> = uninitialized {csl.address = 8 : i64}
csl.program @handles arch wse2 {
  memref.global @colors : memref<3x!csl.color> = uninitialized
  memref.global @dsds : memref<2x!csl.dsd<mem1d, f32>> = uninitialized
}

// Element sizes: bf16 2 bytes, f64 8, i8 1, f16 2; each aligned to its size.
// CHECK-LABEL: csl.program @widths arch wse3 attributes {csl.bss_end = 22 : i64, csl.data_end = 19 : i64} {
// CHECK-NEXT:    memref.global @b : memref<3xbf16> = dense<1.000000e+00> {csl.address = 0 : i64}
// CHECK-NEXT:    memref.global @d : memref<f64> = dense<1.000000e+00> {csl.address = 8 : i64}
// CHECK-NEXT:    memref.global @c : memref<3xi8> = dense<[1, 2, 3]> {csl.address = 16 : i64}
// CHECK-NEXT:    memref.global @h : memref<f16> = uninitialized {csl.address = 20 : i64}
csl.program @widths arch wse3 {
  memref.global @b : memref<3xbf16> = dense<1.0>
  memref.global @d : memref<f64> = dense<1.0>
  memref.global @c : memref<3xi8> = dense<[1, 2, 3]>
  memref.global @h : memref<f16> = uninitialized
}
