// RUN: tessera-opt %s | FileCheck %s
// RUN: tessera-opt %s | tessera-opt | FileCheck %s
// RUN: tessera-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tessera-opt %s --mlir-print-op-generic | tessera-opt | FileCheck %s
// DSD construction, FIFOs, mutators and DSRs.

// CHECK:      #map = affine_map<(d0) -> (d0, 3)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1) -> (-d1 + 7, d0)>
// CHECK-NEXT: module {
// CHECK-NEXT:   csl.program @pe arch wse3 {
// CHECK-NEXT:     memref.global @buf : memref<64xf32> = uninitialized
// CHECK-NEXT:     memref.global @words : memref<8xi16> = uninitialized
// CHECK-NEXT:     csl.task local @on_push() id 9 {
// CHECK-NEXT:       csl.return
// CHECK-NEXT:     }
// CHECK-NEXT:     csl.task local @on_pop() id 10 {
// CHECK-NEXT:       csl.return
// CHECK-NEXT:     }
// CHECK-NEXT:     csl.allocate_fifo @fifo buffer @buf activate_push @on_push activate_pop @on_pop priority medium : !csl.dsd<fifo, f32>
// CHECK-NEXT:     csl.allocate_fifo @plain buffer @words : !csl.dsd<fifo, i16>
// CHECK-NEXT:     func.func @construct(%arg0: memref<?xf32>, %arg1: memref<8x4xf16>, %arg2: memref<16xi16>, %arg3: i16, %arg4: i16, %arg5: i8) {
// CHECK-NEXT:       %0 = csl.mem1d_dsd %arg0 extent %arg3 offset %arg4 stride %arg5 wavelet_index_offset : memref<?xf32> -> !csl.dsd<mem1d, f32>
// CHECK-NEXT:       %1 = csl.mem1d_dsd %arg0 extent %arg3 : memref<?xf32> -> !csl.dsd<mem1d, f32>
// CHECK-NEXT:       %2 = csl.tensor_access_dsd %arg1 sizes [8] map #map : memref<8x4xf16> -> !csl.dsd<mem1d, f16>
// CHECK-NEXT:       %3 = csl.tensor_access_dsd %arg1 sizes [4, 8] map #map1 wavelet_index_offset : memref<8x4xf16> -> !csl.dsd<mem4d, f16>
// CHECK-NEXT:       %4 = csl.circbuf_dsd %arg2 extent %arg3 wraparound 16 : memref<16xi16> -> !csl.dsd<circbuf, i16>
// CHECK-NEXT:       %5 = csl.circbuf_dsd %arg2 extent %arg3 : memref<16xi16> -> !csl.dsd<circbuf, i16>
// CHECK-NEXT:       %6 = csl.get_color 5 : !csl.color
// CHECK-NEXT:       %7 = csl.get_input_queue 2 : !csl.input_queue
// CHECK-NEXT:       %8 = csl.get_output_queue 3 : !csl.output_queue
// CHECK-NEXT:       %c32767_i16 = arith.constant 32767 : i16
// CHECK-NEXT:       %9 = csl.fabin_dsd extent %c32767_i16 color %6 queue %7 control_transform priority low
// CHECK-NEXT:       %10 = csl.fabout_dsd extent %arg3 color %6 queue %8 control wavelet_index_offset advance_switch control_transform priority high
// CHECK-NEXT:       %11 = csl.fabout_dsd extent %arg3 color %6 queue %8
// CHECK-NEXT:       %12 = csl.get_fifo @fifo : !csl.dsd<fifo, f32>
// CHECK-NEXT:       %13 = csl.increment_dsd_offset %0 by %arg4 of f32 : !csl.dsd<mem1d, f32>
// CHECK-NEXT:       %14 = csl.increment_dsd_offset %3 by %arg4 of i16 : !csl.dsd<mem4d, f16>
// CHECK-NEXT:       %15 = csl.set_dsd_base_addr %0, %arg0 : !csl.dsd<mem1d, f32>, memref<?xf32>
// CHECK-NEXT:       %16 = csl.set_dsd_base_addr %4, %arg2 : !csl.dsd<circbuf, i16>, memref<16xi16>
// CHECK-NEXT:       %17 = csl.set_dsd_length %0, %arg3 : !csl.dsd<mem1d, f32>
// CHECK-NEXT:       %18 = csl.set_dsd_length %9, %c32767_i16 : !csl.dsd<fabin>
// CHECK-NEXT:       %19 = csl.set_dsd_length %10, %arg3 : !csl.dsd<fabout>
// CHECK-NEXT:       %20 = csl.set_dsd_stride %0, %arg5 : !csl.dsd<mem1d, f32>
// CHECK-NEXT:       %21 = csl.get_dsr 0 : !csl.dsr<dest>
// CHECK-NEXT:       %22 = csl.get_dsr 1 : !csl.dsr<src0>
// CHECK-NEXT:       %23 = csl.get_dsr 2 : !csl.dsr<src1>
// CHECK-NEXT:       %24 = csl.get_task_id 9 : !csl.task_id<local>
// CHECK-NEXT:       %25 = csl.get_ut_id 1 : !csl.ut_id
// CHECK-NEXT:       csl.load_to_dsr %21, %10 async activate %24 unblock %24 : !csl.task_id<local> ut_id %25 save_address : !csl.dsr<dest>, !csl.dsd<fabout>
// CHECK-NEXT:       csl.load_to_dsr %23, %9 : !csl.dsr<src1>, !csl.dsd<fabin>
// CHECK-NEXT:       csl.load_to_dsr %22, %10 : !csl.dsr<src0>, !csl.dsd<fabout>
// CHECK-NEXT:       csl.load_to_dsr %22, %0 : !csl.dsr<src0>, !csl.dsd<mem1d, f32>
// CHECK-NEXT:       return
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// GENERIC:      #map = affine_map<(d0) -> (d0, 3)>
// GENERIC-NEXT: #map1 = affine_map<(d0, d1) -> (-d1 + 7, d0)>
// GENERIC-NEXT: "builtin.module"() ({
// GENERIC-NEXT:   "csl.program"() <{arch = #csl<arch wse3>, sym_name = "pe"}> ({
// GENERIC-NEXT:     "memref.global"() <{initial_value, sym_name = "buf", type = memref<64xf32>}> : () -> ()
// GENERIC-NEXT:     "memref.global"() <{initial_value, sym_name = "words", type = memref<8xi16>}> : () -> ()
// GENERIC-NEXT:     "csl.task"() <{function_type = () -> (), id = 9 : i64, kind = #csl<task_kind local>, sym_name = "on_push"}> ({
// GENERIC-NEXT:       "csl.return"() : () -> ()
// GENERIC-NEXT:     }) : () -> ()
// GENERIC-NEXT:     "csl.task"() <{function_type = () -> (), id = 10 : i64, kind = #csl<task_kind local>, sym_name = "on_pop"}> ({
// GENERIC-NEXT:       "csl.return"() : () -> ()
// GENERIC-NEXT:     }) : () -> ()
// GENERIC-NEXT:     "csl.allocate_fifo"() <{activate_pop = @on_pop, activate_push = @on_push, buffer = @buf, priority = #csl<priority medium>, sym_name = "fifo", type = !csl.dsd<fifo, f32>}> : () -> ()
// GENERIC-NEXT:     "csl.allocate_fifo"() <{buffer = @words, sym_name = "plain", type = !csl.dsd<fifo, i16>}> : () -> ()
// GENERIC-NEXT:     "func.func"() <{function_type = (memref<?xf32>, memref<8x4xf16>, memref<16xi16>, i16, i16, i8) -> (), sym_name = "construct"}> ({
// GENERIC-NEXT:     ^bb0(%arg0: memref<?xf32>, %arg1: memref<8x4xf16>, %arg2: memref<16xi16>, %arg3: i16, %arg4: i16, %arg5: i8):
// GENERIC-NEXT:       %0 = "csl.mem1d_dsd"(%arg0, %arg3, %arg4, %arg5) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>, wavelet_index_offset}> : (memref<?xf32>, i16, i16, i8) -> !csl.dsd<mem1d, f32>
// GENERIC-NEXT:       %1 = "csl.mem1d_dsd"(%arg0, %arg3) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (memref<?xf32>, i16) -> !csl.dsd<mem1d, f32>
// GENERIC-NEXT:       %2 = "csl.tensor_access_dsd"(%arg1) <{map = #map, sizes = array<i64: 8>}> : (memref<8x4xf16>) -> !csl.dsd<mem1d, f16>
// GENERIC-NEXT:       %3 = "csl.tensor_access_dsd"(%arg1) <{map = #map1, sizes = array<i64: 4, 8>, wavelet_index_offset}> : (memref<8x4xf16>) -> !csl.dsd<mem4d, f16>
// GENERIC-NEXT:       %4 = "csl.circbuf_dsd"(%arg2, %arg3) <{wraparound = 16 : i64}> : (memref<16xi16>, i16) -> !csl.dsd<circbuf, i16>
// GENERIC-NEXT:       %5 = "csl.circbuf_dsd"(%arg2, %arg3) : (memref<16xi16>, i16) -> !csl.dsd<circbuf, i16>
// GENERIC-NEXT:       %6 = "csl.get_color"() <{id = 5 : i64}> : () -> !csl.color
// GENERIC-NEXT:       %7 = "csl.get_input_queue"() <{id = 2 : i64}> : () -> !csl.input_queue
// GENERIC-NEXT:       %8 = "csl.get_output_queue"() <{id = 3 : i64}> : () -> !csl.output_queue
// GENERIC-NEXT:       %9 = "arith.constant"() <{value = 32767 : i16}> : () -> i16
// GENERIC-NEXT:       %10 = "csl.fabin_dsd"(%9, %6, %7) <{control_transform, priority = #csl<priority low>}> : (i16, !csl.color, !csl.input_queue) -> !csl.dsd<fabin>
// GENERIC-NEXT:       %11 = "csl.fabout_dsd"(%arg3, %6, %8) <{advance_switch, control, control_transform, priority = #csl<priority high>, wavelet_index_offset}> : (i16, !csl.color, !csl.output_queue) -> !csl.dsd<fabout>
// GENERIC-NEXT:       %12 = "csl.fabout_dsd"(%arg3, %6, %8) : (i16, !csl.color, !csl.output_queue) -> !csl.dsd<fabout>
// GENERIC-NEXT:       %13 = "csl.get_fifo"() <{fifo = @fifo}> : () -> !csl.dsd<fifo, f32>
// GENERIC-NEXT:       %14 = "csl.increment_dsd_offset"(%0, %arg4) <{elem_type = f32}> : (!csl.dsd<mem1d, f32>, i16) -> !csl.dsd<mem1d, f32>
// GENERIC-NEXT:       %15 = "csl.increment_dsd_offset"(%3, %arg4) <{elem_type = i16}> : (!csl.dsd<mem4d, f16>, i16) -> !csl.dsd<mem4d, f16>
// GENERIC-NEXT:       %16 = "csl.set_dsd_base_addr"(%0, %arg0) : (!csl.dsd<mem1d, f32>, memref<?xf32>) -> !csl.dsd<mem1d, f32>
// GENERIC-NEXT:       %17 = "csl.set_dsd_base_addr"(%4, %arg2) : (!csl.dsd<circbuf, i16>, memref<16xi16>) -> !csl.dsd<circbuf, i16>
// GENERIC-NEXT:       %18 = "csl.set_dsd_length"(%0, %arg3) : (!csl.dsd<mem1d, f32>, i16) -> !csl.dsd<mem1d, f32>
// GENERIC-NEXT:       %19 = "csl.set_dsd_length"(%10, %9) : (!csl.dsd<fabin>, i16) -> !csl.dsd<fabin>
// GENERIC-NEXT:       %20 = "csl.set_dsd_length"(%11, %arg3) : (!csl.dsd<fabout>, i16) -> !csl.dsd<fabout>
// GENERIC-NEXT:       %21 = "csl.set_dsd_stride"(%0, %arg5) : (!csl.dsd<mem1d, f32>, i8) -> !csl.dsd<mem1d, f32>
// GENERIC-NEXT:       %22 = "csl.get_dsr"() <{id = 0 : i64}> : () -> !csl.dsr<dest>
// GENERIC-NEXT:       %23 = "csl.get_dsr"() <{id = 1 : i64}> : () -> !csl.dsr<src0>
// GENERIC-NEXT:       %24 = "csl.get_dsr"() <{id = 2 : i64}> : () -> !csl.dsr<src1>
// GENERIC-NEXT:       %25 = "csl.get_task_id"() <{id = 9 : i64}> : () -> !csl.task_id<local>
// GENERIC-NEXT:       %26 = "csl.get_ut_id"() <{id = 1 : i64}> : () -> !csl.ut_id
// GENERIC-NEXT:       "csl.load_to_dsr"(%22, %11, %25, %25, %26) <{async, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>, save_address}> : (!csl.dsr<dest>, !csl.dsd<fabout>, !csl.task_id<local>, !csl.task_id<local>, !csl.ut_id) -> ()
// GENERIC-NEXT:       "csl.load_to_dsr"(%24, %10) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (!csl.dsr<src1>, !csl.dsd<fabin>) -> ()
// GENERIC-NEXT:       "csl.load_to_dsr"(%23, %11) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (!csl.dsr<src0>, !csl.dsd<fabout>) -> ()
// GENERIC-NEXT:       "csl.load_to_dsr"(%23, %0) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (!csl.dsr<src0>, !csl.dsd<mem1d, f32>) -> ()
// GENERIC-NEXT:       "func.return"() : () -> ()
// GENERIC-NEXT:     }) : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

csl.program @pe arch wse3 {
  memref.global @buf : memref<64xf32> = uninitialized
  memref.global @words : memref<8xi16> = uninitialized

  csl.task local @on_push() id 9 {
    csl.return
  }
  csl.task local @on_pop() id 10 {
    csl.return
  }
  csl.allocate_fifo @fifo buffer @buf activate_push @on_push activate_pop @on_pop priority medium : !csl.dsd<fifo, f32>
  csl.allocate_fifo @plain buffer @words : !csl.dsd<fifo, i16>

  func.func @construct(%a: memref<?xf32>, %b: memref<8x4xf16>, %w: memref<16xi16>, %n: i16, %o: i16, %s: i8) {
    %d = csl.mem1d_dsd %a extent %n offset %o stride %s wavelet_index_offset : memref<?xf32> -> !csl.dsd<mem1d, f32>
    %e = csl.mem1d_dsd %a extent %n : memref<?xf32> -> !csl.dsd<mem1d, f32>
    %t = csl.tensor_access_dsd %b sizes [8] map affine_map<(i) -> (i, 3)> : memref<8x4xf16> -> !csl.dsd<mem1d, f16>
    %u = csl.tensor_access_dsd %b sizes [4, 8] map affine_map<(i, j) -> (7 - j, i)> wavelet_index_offset : memref<8x4xf16> -> !csl.dsd<mem4d, f16>
    %c = csl.circbuf_dsd %w extent %n wraparound 16 : memref<16xi16> -> !csl.dsd<circbuf, i16>
    %c2 = csl.circbuf_dsd %w extent %n : memref<16xi16> -> !csl.dsd<circbuf, i16>

    %color = csl.get_color 5 : !csl.color
    %iq = csl.get_input_queue 2 : !csl.input_queue
    %oq = csl.get_output_queue 3 : !csl.output_queue
    %inf = arith.constant 32767 : i16
    %in = csl.fabin_dsd extent %inf color %color queue %iq control_transform priority low
    %out = csl.fabout_dsd extent %n color %color queue %oq control wavelet_index_offset advance_switch control_transform priority high
    %plain_out = csl.fabout_dsd extent %n color %color queue %oq

    %f = csl.get_fifo @fifo : !csl.dsd<fifo, f32>

    %d1 = csl.increment_dsd_offset %d by %o of f32 : !csl.dsd<mem1d, f32>
    %u1 = csl.increment_dsd_offset %u by %o of i16 : !csl.dsd<mem4d, f16>
    %d2 = csl.set_dsd_base_addr %d, %a : !csl.dsd<mem1d, f32>, memref<?xf32>
    %c3 = csl.set_dsd_base_addr %c, %w : !csl.dsd<circbuf, i16>, memref<16xi16>
    %d3 = csl.set_dsd_length %d, %n : !csl.dsd<mem1d, f32>
    %in2 = csl.set_dsd_length %in, %inf : !csl.dsd<fabin>
    %out2 = csl.set_dsd_length %out, %n : !csl.dsd<fabout>
    %d4 = csl.set_dsd_stride %d, %s : !csl.dsd<mem1d, f32>

    %rd = csl.get_dsr 0 : !csl.dsr<dest>
    %r0 = csl.get_dsr 1 : !csl.dsr<src0>
    %r1 = csl.get_dsr 2 : !csl.dsr<src1>
    %t9 = csl.get_task_id 9 : !csl.task_id<local>
    %ut = csl.get_ut_id 1 : !csl.ut_id
    csl.load_to_dsr %rd, %out async activate %t9 unblock %t9 : !csl.task_id<local> ut_id %ut save_address : !csl.dsr<dest>, !csl.dsd<fabout>
    csl.load_to_dsr %r1, %in : !csl.dsr<src1>, !csl.dsd<fabin>
    csl.load_to_dsr %r0, %out : !csl.dsr<src0>, !csl.dsd<fabout>
    csl.load_to_dsr %r0, %d : !csl.dsr<src0>, !csl.dsd<mem1d, f32>
    return
  }
}
