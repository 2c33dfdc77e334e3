// RUN: tessera-opt %s -tessera-verify-resources=memcpy=true | FileCheck %s
// RUN: tessera-opt %s -tessera-verify-resources | FileCheck %s
// Programs that use every resource within its limits pass unchanged.

// CHECK-LABEL: csl.program @stream arch wse3
// CHECK:         csl.initialize_queue input 2 color 4
// CHECK:         csl.task data @recv(%arg0: f32) id 2
// CHECK:         csl.task control @ctrl(%arg0: i16) id 63
// CHECK:         func.func @memcpy.unblock_cmd_stream()
csl.program @stream arch wse3 file "pe.csl" {
  memref.global @buf : memref<16xf32> = uninitialized
  memref.global @y : memref<16xf32> = uninitialized
  csl.initialize_queue input 2 color 4
  csl.initialize_queue output 2 color 5
  csl.initialize_queue input 7 color 20
  csl.initialize_queue output 7 color 20
  csl.allocate_fifo @f0 buffer @buf : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f1 buffer @buf : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f2 buffer @buf : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f3 buffer @buf : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f4 buffer @buf : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f5 buffer @buf : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f6 buffer @buf : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f7 buffer @buf : !csl.dsd<fifo, f32>
  %main = csl.get_task_id 8 : !csl.task_id<local>
  csl.activate %main
  csl.set_teardown_handler @on_teardown color 20
  csl.task local @main() id 8 {
    %n = arith.constant 16 : i16
    %c4 = csl.get_color 4 : !csl.color
    %c5 = csl.get_color 5 : !csl.color
    %iq = csl.get_input_queue 2 : !csl.input_queue
    %oq = csl.get_output_queue 2 : !csl.output_queue
    %in = csl.fabin_dsd extent %n color %c4 queue %iq
    %out = csl.fabout_dsd extent %n color %c5 queue %oq
    %ut = csl.get_ut_id 7 : !csl.ut_id
    %done = csl.get_task_id 26 : !csl.task_id<local>
    csl.fmovs %out, %in async activate %done ut_id %ut : !csl.dsd<fabout>, !csl.dsd<fabin>
    %dest = csl.get_dsr 15 : !csl.dsr<dest>
    %src0 = csl.get_dsr 0 : !csl.dsr<src0>
    %src1 = csl.get_dsr 15 : !csl.dsr<src1>
    csl.load_to_dsr %dest, %out : !csl.dsr<dest>, !csl.dsd<fabout>
    csl.return
  }
  csl.task local @done() id 26 {
    csl.return
  }
  csl.task data @recv(%x: f32) id 2 {
    csl.return
  }
  csl.task control @ctrl(%x: i16) id 63 {
    csl.return
  }
  csl.task local @memcpy.cmd_stream_task() id 30 {
    %t = csl.get_task_id 30 : !csl.task_id<local>
    csl.block %t : !csl.task_id<local>
    csl.return
  }
  func.func @memcpy.unblock_cmd_stream() {
    %t = csl.get_task_id 30 : !csl.task_id<local>
    csl.unblock %t : !csl.task_id<local>
    return
  }
  func.func @on_teardown() {
    return
  }
}

// The program of examples/hello as cslc emits it with --memcpy.
// CHECK-LABEL: csl.program @pe_program arch wse2
// CHECK:         csl.task local @memcpy.cmd_stream_task() id 30
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
