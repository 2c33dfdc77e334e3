// RUN: tessera-opt %s | FileCheck %s
// RUN: tessera-opt %s | tessera-opt | FileCheck %s
// RUN: tessera-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tessera-opt %s --mlir-print-op-generic | tessera-opt | FileCheck %s
// Every csl type prints and parses back.

// CHECK:      module {
// CHECK-NEXT:   func.func private @handles(!csl.color, !csl.input_queue, !csl.output_queue, !csl.ut_id)
// CHECK-NEXT:   func.func private @task_ids(!csl.task_id<data>, !csl.task_id<local>, !csl.task_id<control>)
// CHECK-NEXT:   func.func private @memory_dsds(!csl.dsd<mem1d, f32>, !csl.dsd<mem4d, f16>, !csl.dsd<circbuf, i16>, !csl.dsd<fifo, i32>)
// CHECK-NEXT:   func.func private @fabric_dsds(!csl.dsd<fabin>, !csl.dsd<fabout>)
// CHECK-NEXT:   func.func private @dsrs(!csl.dsr<dest>, !csl.dsr<src0>, !csl.dsr<src1>)
// CHECK-NEXT:   memref.global @saved_dsd : memref<!csl.dsd<mem1d, f32>> = uninitialized
// CHECK-NEXT:   memref.global @colors : memref<2x!csl.color> = uninitialized
// CHECK-NEXT: }

// GENERIC:      "builtin.module"() ({
// GENERIC-NEXT:   "func.func"() <{function_type = (!csl.color, !csl.input_queue, !csl.output_queue, !csl.ut_id) -> (), sym_name = "handles", sym_visibility = "private"}> ({
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "func.func"() <{function_type = (!csl.task_id<data>, !csl.task_id<local>, !csl.task_id<control>) -> (), sym_name = "task_ids", sym_visibility = "private"}> ({
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "func.func"() <{function_type = (!csl.dsd<mem1d, f32>, !csl.dsd<mem4d, f16>, !csl.dsd<circbuf, i16>, !csl.dsd<fifo, i32>) -> (), sym_name = "memory_dsds", sym_visibility = "private"}> ({
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "func.func"() <{function_type = (!csl.dsd<fabin>, !csl.dsd<fabout>) -> (), sym_name = "fabric_dsds", sym_visibility = "private"}> ({
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "func.func"() <{function_type = (!csl.dsr<dest>, !csl.dsr<src0>, !csl.dsr<src1>) -> (), sym_name = "dsrs", sym_visibility = "private"}> ({
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "memref.global"() <{initial_value, sym_name = "saved_dsd", type = memref<!csl.dsd<mem1d, f32>>}> : () -> ()
// GENERIC-NEXT:   "memref.global"() <{initial_value, sym_name = "colors", type = memref<2x!csl.color>}> : () -> ()
// GENERIC-NEXT: }) : () -> ()

func.func private @handles(!csl.color, !csl.input_queue, !csl.output_queue, !csl.ut_id)
func.func private @task_ids(!csl.task_id<data>, !csl.task_id<local>, !csl.task_id<control>)
func.func private @memory_dsds(!csl.dsd<mem1d, f32>, !csl.dsd<mem4d, f16>, !csl.dsd<circbuf, i16>, !csl.dsd<fifo, i32>)
func.func private @fabric_dsds(!csl.dsd<fabin>, !csl.dsd<fabout>)
func.func private @dsrs(!csl.dsr<dest>, !csl.dsr<src0>, !csl.dsr<src1>)
// Every handle and DSD can live in memory, like any CSL value.
memref.global @saved_dsd : memref<!csl.dsd<mem1d, f32>> = uninitialized
memref.global @colors : memref<2x!csl.color> = uninitialized
