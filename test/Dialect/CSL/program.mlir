// RUN: tessera-opt %s | FileCheck %s
// RUN: tessera-opt %s | tessera-opt | FileCheck %s
// RUN: tessera-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tessera-opt %s --mlir-print-op-generic | tessera-opt | FileCheck %s
// Programs, tasks, exports, handles, task control and queue bindings.

// CHECK:      module {
// CHECK-NEXT:   csl.program @empty arch wse2 {
// CHECK-NEXT:   }
// CHECK-NEXT:   csl.program @pe arch wse3 file "pe.csl" params {is_left = 1 : i64, width = 4 : i64} {
// CHECK-NEXT:     memref.global @y : memref<4xf32> = dense<0.000000e+00>
// CHECK-NEXT:     memref.global constant @limit : memref<i16> = dense<7>
// CHECK-NEXT:     %0 = csl.get_task_id 8 : !csl.task_id<local>
// CHECK-NEXT:     csl.activate %0
// CHECK-NEXT:     %1 = csl.get_task_id 2 : !csl.task_id<data>
// CHECK-NEXT:     csl.block %1 : !csl.task_id<data>
// CHECK-NEXT:     %2 = csl.get_input_queue 3 : !csl.input_queue
// CHECK-NEXT:     csl.unblock %2 : !csl.input_queue
// CHECK-NEXT:     csl.initialize_queue input 2 color 5
// CHECK-NEXT:     csl.initialize_queue input 3 color 7
// CHECK-NEXT:     csl.initialize_queue output 2 color 6
// CHECK-NEXT:     csl.set_teardown_handler @on_teardown color 4
// CHECK-NEXT:     csl.task local @main() id 8 {
// CHECK-NEXT:       %3 = csl.get_color 23 : !csl.color
// CHECK-NEXT:       %4 = csl.get_output_queue 7 : !csl.output_queue
// CHECK-NEXT:       %5 = csl.get_ut_id 7 : !csl.ut_id
// CHECK-NEXT:       %6 = csl.get_task_id 63 : !csl.task_id<control>
// CHECK-NEXT:       %7 = csl.task_id_of @main : !csl.task_id<local>
// CHECK-NEXT:       %8 = csl.get_int %3 : !csl.color -> i16
// CHECK-NEXT:       %9 = csl.get_int %6 : !csl.task_id<control> -> i32
// CHECK-NEXT:       csl.activate %7
// CHECK-NEXT:       csl.block %4 : !csl.output_queue
// CHECK-NEXT:       csl.unblock %5 : !csl.ut_id
// CHECK-NEXT:       csl.unblock %6 : !csl.task_id<control>
// CHECK-NEXT:       %10 = csl.get_input_queue 2 : !csl.input_queue
// CHECK-NEXT:       csl.queue_flush %10 : !csl.input_queue
// CHECK-NEXT:       csl.return
// CHECK-NEXT:     }
// CHECK-NEXT:     csl.task data @recv(%arg0: i16, %arg1: f16) id 2 {
// CHECK-NEXT:       csl.return
// CHECK-NEXT:     }
// CHECK-NEXT:     csl.task data @bytes(%arg0: i8, %arg1: i8, %arg2: i8, %arg3: i8) id 3 {
// CHECK-NEXT:       csl.return
// CHECK-NEXT:     }
// CHECK-NEXT:     csl.task control @ctrl(%arg0: i16) id 40 attributes {tessera.note = "from a control wavelet"} {
// CHECK-NEXT:       cf.br ^bb1
// CHECK-NEXT:     ^bb1:  // pred: ^bb0
// CHECK-NEXT:       csl.return
// CHECK-NEXT:     }
// CHECK-NEXT:     csl.task local @unbound() {
// CHECK-NEXT:       csl.return
// CHECK-NEXT:     }
// CHECK-NEXT:     func.func @compute(%arg0: i16, %arg1: f32) {
// CHECK-NEXT:       return
// CHECK-NEXT:     }
// CHECK-NEXT:     func.func @on_teardown() {
// CHECK-NEXT:       return
// CHECK-NEXT:     }
// CHECK-NEXT:     csl.export mutable @y as "y" : memref<4xf32>
// CHECK-NEXT:     csl.export @limit as "limit" : memref<i16>
// CHECK-NEXT:     csl.export @compute as "compute" : (i16, f32) -> ()
// CHECK-NEXT:   }
// CHECK-NEXT:   csl.program @wse2 arch wse2 {
// CHECK-NEXT:     %0 = csl.get_color 0 : !csl.color
// CHECK-NEXT:     csl.block %0 : !csl.color
// CHECK-NEXT:     csl.task data @on_color(%arg0: f32) id 23 {
// CHECK-NEXT:       csl.return
// CHECK-NEXT:     }
// CHECK-NEXT:     csl.task local @low() id 0 {
// CHECK-NEXT:       csl.return
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// GENERIC:      "builtin.module"() ({
// GENERIC-NEXT:   "csl.program"() <{arch = #csl<arch wse2>, sym_name = "empty"}> ({
// GENERIC-NEXT:   ^bb0:
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "csl.program"() <{arch = #csl<arch wse3>, file = "pe.csl", params = {is_left = 1 : i64, width = 4 : i64}, sym_name = "pe"}> ({
// GENERIC-NEXT:     "memref.global"() <{initial_value = dense<0.000000e+00> : tensor<4xf32>, sym_name = "y", type = memref<4xf32>}> : () -> ()
// GENERIC-NEXT:     "memref.global"() <{constant, initial_value = dense<7> : tensor<i16>, sym_name = "limit", type = memref<i16>}> : () -> ()
// GENERIC-NEXT:     %1 = "csl.get_task_id"() <{id = 8 : i64}> : () -> !csl.task_id<local>
// GENERIC-NEXT:     "csl.activate"(%1) : (!csl.task_id<local>) -> ()
// GENERIC-NEXT:     %2 = "csl.get_task_id"() <{id = 2 : i64}> : () -> !csl.task_id<data>
// GENERIC-NEXT:     "csl.block"(%2) : (!csl.task_id<data>) -> ()
// GENERIC-NEXT:     %3 = "csl.get_input_queue"() <{id = 3 : i64}> : () -> !csl.input_queue
// GENERIC-NEXT:     "csl.unblock"(%3) : (!csl.input_queue) -> ()
// GENERIC-NEXT:     "csl.initialize_queue"() <{color = 5 : i64, queue = 2 : i64, queue_kind = #csl<queue_kind input>}> : () -> ()
// GENERIC-NEXT:     "csl.initialize_queue"() <{color = 7 : i64, queue = 3 : i64, queue_kind = #csl<queue_kind input>}> : () -> ()
// GENERIC-NEXT:     "csl.initialize_queue"() <{color = 6 : i64, queue = 2 : i64, queue_kind = #csl<queue_kind output>}> : () -> ()
// GENERIC-NEXT:     "csl.set_teardown_handler"() <{color = 4 : i64, handler = @on_teardown}> : () -> ()
// GENERIC-NEXT:     "csl.task"() <{function_type = () -> (), id = 8 : i64, kind = #csl<task_kind local>, sym_name = "main"}> ({
// GENERIC-NEXT:       %4 = "csl.get_color"() <{id = 23 : i64}> : () -> !csl.color
// GENERIC-NEXT:       %5 = "csl.get_output_queue"() <{id = 7 : i64}> : () -> !csl.output_queue
// GENERIC-NEXT:       %6 = "csl.get_ut_id"() <{id = 7 : i64}> : () -> !csl.ut_id
// GENERIC-NEXT:       %7 = "csl.get_task_id"() <{id = 63 : i64}> : () -> !csl.task_id<control>
// GENERIC-NEXT:       %8 = "csl.task_id_of"() <{task = @main}> : () -> !csl.task_id<local>
// GENERIC-NEXT:       %9 = "csl.get_int"(%4) : (!csl.color) -> i16
// GENERIC-NEXT:       %10 = "csl.get_int"(%7) : (!csl.task_id<control>) -> i32
// GENERIC-NEXT:       "csl.activate"(%8) : (!csl.task_id<local>) -> ()
// GENERIC-NEXT:       "csl.block"(%5) : (!csl.output_queue) -> ()
// GENERIC-NEXT:       "csl.unblock"(%6) : (!csl.ut_id) -> ()
// GENERIC-NEXT:       "csl.unblock"(%7) : (!csl.task_id<control>) -> ()
// GENERIC-NEXT:       %11 = "csl.get_input_queue"() <{id = 2 : i64}> : () -> !csl.input_queue
// GENERIC-NEXT:       "csl.queue_flush"(%11) : (!csl.input_queue) -> ()
// GENERIC-NEXT:       "csl.return"() : () -> ()
// GENERIC-NEXT:     }) : () -> ()
// GENERIC-NEXT:     "csl.task"() <{function_type = (i16, f16) -> (), id = 2 : i64, kind = #csl<task_kind data>, sym_name = "recv"}> ({
// GENERIC-NEXT:     ^bb0(%arg8: i16, %arg9: f16):
// GENERIC-NEXT:       "csl.return"() : () -> ()
// GENERIC-NEXT:     }) : () -> ()
// GENERIC-NEXT:     "csl.task"() <{function_type = (i8, i8, i8, i8) -> (), id = 3 : i64, kind = #csl<task_kind data>, sym_name = "bytes"}> ({
// GENERIC-NEXT:     ^bb0(%arg4: i8, %arg5: i8, %arg6: i8, %arg7: i8):
// GENERIC-NEXT:       "csl.return"() : () -> ()
// GENERIC-NEXT:     }) : () -> ()
// GENERIC-NEXT:     "csl.task"() <{function_type = (i16) -> (), id = 40 : i64, kind = #csl<task_kind control>, sym_name = "ctrl"}> ({
// GENERIC-NEXT:     ^bb0(%arg3: i16):
// GENERIC-NEXT:       "cf.br"()[^bb1] : () -> ()
// GENERIC-NEXT:     ^bb1:  // pred: ^bb0
// GENERIC-NEXT:       "csl.return"() : () -> ()
// GENERIC-NEXT:     }) {tessera.note = "from a control wavelet"} : () -> ()
// GENERIC-NEXT:     "csl.task"() <{function_type = () -> (), kind = #csl<task_kind local>, sym_name = "unbound"}> ({
// GENERIC-NEXT:       "csl.return"() : () -> ()
// GENERIC-NEXT:     }) : () -> ()
// GENERIC-NEXT:     "func.func"() <{function_type = (i16, f32) -> (), sym_name = "compute"}> ({
// GENERIC-NEXT:     ^bb0(%arg1: i16, %arg2: f32):
// GENERIC-NEXT:       "func.return"() : () -> ()
// GENERIC-NEXT:     }) : () -> ()
// GENERIC-NEXT:     "func.func"() <{function_type = () -> (), sym_name = "on_teardown"}> ({
// GENERIC-NEXT:       "func.return"() : () -> ()
// GENERIC-NEXT:     }) : () -> ()
// GENERIC-NEXT:     "csl.export"() <{is_mutable, name = "y", symbol = @y, type = memref<4xf32>}> : () -> ()
// GENERIC-NEXT:     "csl.export"() <{name = "limit", symbol = @limit, type = memref<i16>}> : () -> ()
// GENERIC-NEXT:     "csl.export"() <{name = "compute", symbol = @compute, type = (i16, f32) -> ()}> : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "csl.program"() <{arch = #csl<arch wse2>, sym_name = "wse2"}> ({
// GENERIC-NEXT:     %0 = "csl.get_color"() <{id = 0 : i64}> : () -> !csl.color
// GENERIC-NEXT:     "csl.block"(%0) : (!csl.color) -> ()
// GENERIC-NEXT:     "csl.task"() <{function_type = (f32) -> (), id = 23 : i64, kind = #csl<task_kind data>, sym_name = "on_color"}> ({
// GENERIC-NEXT:     ^bb0(%arg0: f32):
// GENERIC-NEXT:       "csl.return"() : () -> ()
// GENERIC-NEXT:     }) : () -> ()
// GENERIC-NEXT:     "csl.task"() <{function_type = () -> (), id = 0 : i64, kind = #csl<task_kind local>, sym_name = "low"}> ({
// GENERIC-NEXT:       "csl.return"() : () -> ()
// GENERIC-NEXT:     }) : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

csl.program @empty arch wse2 {
}

csl.program @pe arch wse3 file "pe.csl" params {is_left = 1 : i64, width = 4 : i64} {
  memref.global @y : memref<4xf32> = dense<0.0>
  memref.global constant @limit : memref<i16> = dense<7>

  // Start-up state, as a top-level comptime block sets it.
  %main = csl.get_task_id 8 : !csl.task_id<local>
  csl.activate %main
  %recv_id = csl.get_task_id 2 : !csl.task_id<data>
  csl.block %recv_id : !csl.task_id<data>
  %q3 = csl.get_input_queue 3 : !csl.input_queue
  csl.unblock %q3 : !csl.input_queue

  csl.initialize_queue input 2 color 5
  csl.initialize_queue input 3 color 7
  csl.initialize_queue output 2 color 6
  csl.set_teardown_handler @on_teardown color 4

  csl.task local @main() id 8 {
    %c = csl.get_color 23 : !csl.color
    %oq = csl.get_output_queue 7 : !csl.output_queue
    %ut = csl.get_ut_id 7 : !csl.ut_id
    %ctrl = csl.get_task_id 63 : !csl.task_id<control>
    %self = csl.task_id_of @main : !csl.task_id<local>
    %n = csl.get_int %c : !csl.color -> i16
    %m = csl.get_int %ctrl : !csl.task_id<control> -> i32
    csl.activate %self
    csl.block %oq : !csl.output_queue
    csl.unblock %ut : !csl.ut_id
    csl.unblock %ctrl : !csl.task_id<control>
    %q = csl.get_input_queue 2 : !csl.input_queue
    csl.queue_flush %q : !csl.input_queue
    csl.return
  }
  csl.task data @recv(%lo: i16, %hi: f16) id 2 {
    csl.return
  }
  csl.task data @bytes(%a: i8, %b: i8, %c: i8, %d: i8) id 3 {
    csl.return
  }
  csl.task control @ctrl(%arg: i16) id 40 attributes {tessera.note = "from a control wavelet"} {
    cf.br ^done
  ^done:
    csl.return
  }
  csl.task local @unbound() {
    csl.return
  }

  func.func @compute(%x: i16, %scale: f32) {
    return
  }
  func.func @on_teardown() {
    return
  }
  csl.export mutable @y as "y" : memref<4xf32>
  csl.export @limit as "limit" : memref<i16>
  csl.export @compute as "compute" : (i16, f32) -> ()
}

// WSE-2 blocks colors rather than queues and has no microthread IDs.
csl.program @wse2 arch wse2 {
  %c = csl.get_color 0 : !csl.color
  csl.block %c : !csl.color
  csl.task data @on_color(%x: f32) id 23 {
    csl.return
  }
  csl.task local @low() id 0 {
    csl.return
  }
}
