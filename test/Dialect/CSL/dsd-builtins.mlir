// RUN: tessera-opt %s | FileCheck %s
// RUN: tessera-opt %s | tessera-opt | FileCheck %s
// RUN: tessera-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tessera-opt %s --mlir-print-op-generic | tessera-opt | FileCheck %s
// Every DSD operation, with the operand forms the reference allows.

// CHECK:      module {
// CHECK-NEXT:   csl.program @wse3 arch wse3 {
// CHECK-NEXT:     func.func @float32(%arg0: !csl.dsd<mem1d, f32>, %arg1: !csl.dsd<mem4d, f32>, %arg2: !csl.dsd<fabin>, %arg3: !csl.dsd<fabout>, %arg4: !csl.dsd<fifo, f32>, %arg5: !csl.dsd<mem1d, f16>, %arg6: f32, %arg7: memref<f32>, %arg8: !csl.dsr<dest>, %arg9: !csl.dsr<src0>, %arg10: !csl.dsr<src1>, %arg11: !csl.task_id<local>, %arg12: !csl.ut_id, %arg13: i16) {
// CHECK-NEXT:       csl.fadds %arg0, %arg0, %arg2 : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<fabin>
// CHECK-NEXT:       csl.fadds %arg3, %arg6, %arg4 async activate %arg11 : !csl.dsd<fabout>, f32, !csl.dsd<fifo, f32>
// CHECK-NEXT:       csl.fadds %arg7, %arg6, %arg0 : memref<f32>, f32, !csl.dsd<mem1d, f32>
// CHECK-NEXT:       csl.fsubs %arg1, %arg1, %arg6 : !csl.dsd<mem4d, f32>, !csl.dsd<mem4d, f32>, f32
// CHECK-NEXT:       csl.fmuls %arg8, %arg9, %arg10 async unblock %arg11 : !csl.task_id<local> ut_id %arg12 : !csl.dsr<dest>, !csl.dsr<src0>, !csl.dsr<src1>
// CHECK-NEXT:       csl.fmaxs %arg7, %arg6, %arg2 : memref<f32>, f32, !csl.dsd<fabin>
// CHECK-NEXT:       csl.fmacs %arg0, %arg0, %arg2, %arg6 index %arg13 : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<fabin>, f32
// CHECK-NEXT:       csl.faddhs %arg0, %arg0, %arg5 : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f16>
// CHECK-NEXT:       csl.faddhs %arg7, %arg6, %arg5 : memref<f32>, f32, !csl.dsd<mem1d, f16>
// CHECK-NEXT:       csl.fmovs %arg0, %arg6 : !csl.dsd<mem1d, f32>, f32
// CHECK-NEXT:       csl.fmovs %arg7, %arg2 : memref<f32>, !csl.dsd<fabin>
// CHECK-NEXT:       csl.fmovs %arg4, %arg2 async : !csl.dsd<fifo, f32>, !csl.dsd<fabin>
// CHECK-NEXT:       csl.fnegs %arg3, %arg4 : !csl.dsd<fabout>, !csl.dsd<fifo, f32>
// CHECK-NEXT:       csl.fabss %arg0, %arg6 : !csl.dsd<mem1d, f32>, f32
// CHECK-NEXT:       csl.fscales %arg7, %arg6, %arg13 : memref<f32>, f32, i16
// CHECK-NEXT:       csl.fnorms %arg7, %arg6 : memref<f32>, f32
// CHECK-NEXT:       csl.mov32 %arg3, %arg0 : !csl.dsd<fabout>, !csl.dsd<mem1d, f32>
// CHECK-NEXT:       csl.mov32 %arg3, %arg6 : !csl.dsd<fabout>, f32
// CHECK-NEXT:       return
// CHECK-NEXT:     }
// CHECK-NEXT:     func.func @float16(%arg0: !csl.dsd<mem1d, f16>, %arg1: !csl.dsd<mem1d, f32>, %arg2: !csl.dsd<fabin>, %arg3: !csl.dsd<fabout>, %arg4: f16, %arg5: memref<f16>, %arg6: !csl.dsd<mem1d, i16>, %arg7: i16, %arg8: memref<i16>, %arg9: f32) {
// CHECK-NEXT:       csl.faddh %arg0, %arg0, %arg4 : !csl.dsd<mem1d, f16>, !csl.dsd<mem1d, f16>, f16
// CHECK-NEXT:       csl.fsubh %arg3, %arg2, %arg0 : !csl.dsd<fabout>, !csl.dsd<fabin>, !csl.dsd<mem1d, f16>
// CHECK-NEXT:       csl.fmulh %arg5, %arg4, %arg0 : memref<f16>, f16, !csl.dsd<mem1d, f16>
// CHECK-NEXT:       csl.fmaxh %arg0, %arg4, %arg2 : !csl.dsd<mem1d, f16>, f16, !csl.dsd<fabin>
// CHECK-NEXT:       csl.fmach %arg0, %arg0, %arg0, %arg4 : !csl.dsd<mem1d, f16>, !csl.dsd<mem1d, f16>, !csl.dsd<mem1d, f16>, f16
// CHECK-NEXT:       csl.fmachs %arg1, %arg1, %arg0, %arg4 : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f16>, f16
// CHECK-NEXT:       csl.fmovh %arg5, %arg0 : memref<f16>, !csl.dsd<mem1d, f16>
// CHECK-NEXT:       csl.fnegh %arg0, %arg2 : !csl.dsd<mem1d, f16>, !csl.dsd<fabin>
// CHECK-NEXT:       csl.fabsh %arg0, %arg0 : !csl.dsd<mem1d, f16>, !csl.dsd<mem1d, f16>
// CHECK-NEXT:       csl.fh2s %arg1, %arg0 : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f16>
// CHECK-NEXT:       csl.fs2h %arg0, %arg9 : !csl.dsd<mem1d, f16>, f32
// CHECK-NEXT:       csl.fh2xp16 %arg8, %arg2 : memref<i16>, !csl.dsd<fabin>
// CHECK-NEXT:       csl.fs2xp16 %arg6, %arg1 : !csl.dsd<mem1d, i16>, !csl.dsd<mem1d, f32>
// CHECK-NEXT:       csl.xp162fh %arg0, %arg6 : !csl.dsd<mem1d, f16>, !csl.dsd<mem1d, i16>
// CHECK-NEXT:       csl.xp162fs %arg1, %arg7 : !csl.dsd<mem1d, f32>, i16
// CHECK-NEXT:       csl.fscaleh %arg5, %arg4, %arg7 : memref<f16>, f16, i16
// CHECK-NEXT:       csl.fnormh %arg5, %arg4 : memref<f16>, f16
// CHECK-NEXT:       return
// CHECK-NEXT:     }
// CHECK-NEXT:     func.func @integer(%arg0: !csl.dsd<mem1d, i16>, %arg1: !csl.dsd<fabin>, %arg2: !csl.dsd<fabout>, %arg3: i16, %arg4: memref<i16>, %arg5: f16) {
// CHECK-NEXT:       csl.mov16 %arg2, %arg3 : !csl.dsd<fabout>, i16
// CHECK-NEXT:       csl.mov16 %arg4, %arg1 : memref<i16>, !csl.dsd<fabin>
// CHECK-NEXT:       csl.mov16 %arg0, %arg5 : !csl.dsd<mem1d, i16>, f16
// CHECK-NEXT:       csl.add16 %arg0, %arg3, %arg1 : !csl.dsd<mem1d, i16>, i16, !csl.dsd<fabin>
// CHECK-NEXT:       csl.addc16 %arg0, %arg0, %arg3 : !csl.dsd<mem1d, i16>, !csl.dsd<mem1d, i16>, i16
// CHECK-NEXT:       csl.sub16 %arg2, %arg1, %arg3 : !csl.dsd<fabout>, !csl.dsd<fabin>, i16
// CHECK-NEXT:       csl.and16 %arg0, %arg0, %arg1 : !csl.dsd<mem1d, i16>, !csl.dsd<mem1d, i16>, !csl.dsd<fabin>
// CHECK-NEXT:       csl.or16 %arg0, %arg3, %arg0 : !csl.dsd<mem1d, i16>, i16, !csl.dsd<mem1d, i16>
// CHECK-NEXT:       csl.xor16 %arg2, %arg0, %arg0 async : !csl.dsd<fabout>, !csl.dsd<mem1d, i16>, !csl.dsd<mem1d, i16>
// CHECK-NEXT:       csl.sll16 %arg0, %arg0, %arg3 : !csl.dsd<mem1d, i16>, !csl.dsd<mem1d, i16>, i16
// CHECK-NEXT:       csl.slr16 %arg0, %arg1, %arg0 : !csl.dsd<mem1d, i16>, !csl.dsd<fabin>, !csl.dsd<mem1d, i16>
// CHECK-NEXT:       csl.sar16 %arg0, %arg3, %arg1 : !csl.dsd<mem1d, i16>, i16, !csl.dsd<fabin>
// CHECK-NEXT:       csl.popcnt %arg0, %arg1 : !csl.dsd<mem1d, i16>, !csl.dsd<fabin>
// CHECK-NEXT:       csl.clz %arg2, %arg3 : !csl.dsd<fabout>, i16
// CHECK-NEXT:       csl.ctz %arg0, %arg0 : !csl.dsd<mem1d, i16>, !csl.dsd<mem1d, i16>
// CHECK-NEXT:       return
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   csl.program @wse2 arch wse2 {
// CHECK-NEXT:     func.func @priority(%arg0: !csl.dsd<mem1d, f32>, %arg1: !csl.dsd<fabin>) {
// CHECK-NEXT:       csl.fadds %arg0, %arg0, %arg1 async priority high : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<fabin>
// CHECK-NEXT:       return
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// GENERIC:      "builtin.module"() ({
// GENERIC-NEXT:   "csl.program"() <{arch = #csl<arch wse3>, sym_name = "wse3"}> ({
// GENERIC-NEXT:     "func.func"() <{function_type = (!csl.dsd<mem1d, f32>, !csl.dsd<mem4d, f32>, !csl.dsd<fabin>, !csl.dsd<fabout>, !csl.dsd<fifo, f32>, !csl.dsd<mem1d, f16>, f32, memref<f32>, !csl.dsr<dest>, !csl.dsr<src0>, !csl.dsr<src1>, !csl.task_id<local>, !csl.ut_id, i16) -> (), sym_name = "float32"}> ({
// GENERIC-NEXT:     ^bb0(%arg18: !csl.dsd<mem1d, f32>, %arg19: !csl.dsd<mem4d, f32>, %arg20: !csl.dsd<fabin>, %arg21: !csl.dsd<fabout>, %arg22: !csl.dsd<fifo, f32>, %arg23: !csl.dsd<mem1d, f16>, %arg24: f32, %arg25: memref<f32>, %arg26: !csl.dsr<dest>, %arg27: !csl.dsr<src0>, %arg28: !csl.dsr<src1>, %arg29: !csl.task_id<local>, %arg30: !csl.ut_id, %arg31: i16):
// GENERIC-NEXT:       "csl.fadds"(%arg18, %arg18, %arg20) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<fabin>) -> ()
// GENERIC-NEXT:       "csl.fadds"(%arg21, %arg24, %arg22, %arg29) <{async, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>}> : (!csl.dsd<fabout>, f32, !csl.dsd<fifo, f32>, !csl.task_id<local>) -> ()
// GENERIC-NEXT:       "csl.fadds"(%arg25, %arg24, %arg18) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (memref<f32>, f32, !csl.dsd<mem1d, f32>) -> ()
// GENERIC-NEXT:       "csl.fsubs"(%arg19, %arg19, %arg24) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem4d, f32>, !csl.dsd<mem4d, f32>, f32) -> ()
// GENERIC-NEXT:       "csl.fmuls"(%arg26, %arg27, %arg28, %arg29, %arg30) <{async, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 0>}> : (!csl.dsr<dest>, !csl.dsr<src0>, !csl.dsr<src1>, !csl.task_id<local>, !csl.ut_id) -> ()
// GENERIC-NEXT:       "csl.fmaxs"(%arg25, %arg24, %arg20) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (memref<f32>, f32, !csl.dsd<fabin>) -> ()
// GENERIC-NEXT:       "csl.fmacs"(%arg18, %arg18, %arg20, %arg24, %arg31) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 1>}> : (!csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<fabin>, f32, i16) -> ()
// GENERIC-NEXT:       "csl.faddhs"(%arg18, %arg18, %arg23) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f16>) -> ()
// GENERIC-NEXT:       "csl.faddhs"(%arg25, %arg24, %arg23) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (memref<f32>, f32, !csl.dsd<mem1d, f16>) -> ()
// GENERIC-NEXT:       "csl.fmovs"(%arg18, %arg24) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, f32>, f32) -> ()
// GENERIC-NEXT:       "csl.fmovs"(%arg25, %arg20) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (memref<f32>, !csl.dsd<fabin>) -> ()
// GENERIC-NEXT:       "csl.fmovs"(%arg22, %arg20) <{async, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<fifo, f32>, !csl.dsd<fabin>) -> ()
// GENERIC-NEXT:       "csl.fnegs"(%arg21, %arg22) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<fabout>, !csl.dsd<fifo, f32>) -> ()
// GENERIC-NEXT:       "csl.fabss"(%arg18, %arg24) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, f32>, f32) -> ()
// GENERIC-NEXT:       "csl.fscales"(%arg25, %arg24, %arg31) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (memref<f32>, f32, i16) -> ()
// GENERIC-NEXT:       "csl.fnorms"(%arg25, %arg24) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (memref<f32>, f32) -> ()
// GENERIC-NEXT:       "csl.mov32"(%arg21, %arg18) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<fabout>, !csl.dsd<mem1d, f32>) -> ()
// GENERIC-NEXT:       "csl.mov32"(%arg21, %arg24) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<fabout>, f32) -> ()
// GENERIC-NEXT:       "func.return"() : () -> ()
// GENERIC-NEXT:     }) : () -> ()
// GENERIC-NEXT:     "func.func"() <{function_type = (!csl.dsd<mem1d, f16>, !csl.dsd<mem1d, f32>, !csl.dsd<fabin>, !csl.dsd<fabout>, f16, memref<f16>, !csl.dsd<mem1d, i16>, i16, memref<i16>, f32) -> (), sym_name = "float16"}> ({
// GENERIC-NEXT:     ^bb0(%arg8: !csl.dsd<mem1d, f16>, %arg9: !csl.dsd<mem1d, f32>, %arg10: !csl.dsd<fabin>, %arg11: !csl.dsd<fabout>, %arg12: f16, %arg13: memref<f16>, %arg14: !csl.dsd<mem1d, i16>, %arg15: i16, %arg16: memref<i16>, %arg17: f32):
// GENERIC-NEXT:       "csl.faddh"(%arg8, %arg8, %arg12) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, f16>, !csl.dsd<mem1d, f16>, f16) -> ()
// GENERIC-NEXT:       "csl.fsubh"(%arg11, %arg10, %arg8) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<fabout>, !csl.dsd<fabin>, !csl.dsd<mem1d, f16>) -> ()
// GENERIC-NEXT:       "csl.fmulh"(%arg13, %arg12, %arg8) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (memref<f16>, f16, !csl.dsd<mem1d, f16>) -> ()
// GENERIC-NEXT:       "csl.fmaxh"(%arg8, %arg12, %arg10) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, f16>, f16, !csl.dsd<fabin>) -> ()
// GENERIC-NEXT:       "csl.fmach"(%arg8, %arg8, %arg8, %arg12) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, f16>, !csl.dsd<mem1d, f16>, !csl.dsd<mem1d, f16>, f16) -> ()
// GENERIC-NEXT:       "csl.fmachs"(%arg9, %arg9, %arg8, %arg12) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f16>, f16) -> ()
// GENERIC-NEXT:       "csl.fmovh"(%arg13, %arg8) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (memref<f16>, !csl.dsd<mem1d, f16>) -> ()
// GENERIC-NEXT:       "csl.fnegh"(%arg8, %arg10) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, f16>, !csl.dsd<fabin>) -> ()
// GENERIC-NEXT:       "csl.fabsh"(%arg8, %arg8) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, f16>, !csl.dsd<mem1d, f16>) -> ()
// GENERIC-NEXT:       "csl.fh2s"(%arg9, %arg8) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f16>) -> ()
// GENERIC-NEXT:       "csl.fs2h"(%arg8, %arg17) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, f16>, f32) -> ()
// GENERIC-NEXT:       "csl.fh2xp16"(%arg16, %arg10) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (memref<i16>, !csl.dsd<fabin>) -> ()
// GENERIC-NEXT:       "csl.fs2xp16"(%arg14, %arg9) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, i16>, !csl.dsd<mem1d, f32>) -> ()
// GENERIC-NEXT:       "csl.xp162fh"(%arg8, %arg14) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, f16>, !csl.dsd<mem1d, i16>) -> ()
// GENERIC-NEXT:       "csl.xp162fs"(%arg9, %arg15) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, f32>, i16) -> ()
// GENERIC-NEXT:       "csl.fscaleh"(%arg13, %arg12, %arg15) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (memref<f16>, f16, i16) -> ()
// GENERIC-NEXT:       "csl.fnormh"(%arg13, %arg12) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (memref<f16>, f16) -> ()
// GENERIC-NEXT:       "func.return"() : () -> ()
// GENERIC-NEXT:     }) : () -> ()
// GENERIC-NEXT:     "func.func"() <{function_type = (!csl.dsd<mem1d, i16>, !csl.dsd<fabin>, !csl.dsd<fabout>, i16, memref<i16>, f16) -> (), sym_name = "integer"}> ({
// GENERIC-NEXT:     ^bb0(%arg2: !csl.dsd<mem1d, i16>, %arg3: !csl.dsd<fabin>, %arg4: !csl.dsd<fabout>, %arg5: i16, %arg6: memref<i16>, %arg7: f16):
// GENERIC-NEXT:       "csl.mov16"(%arg4, %arg5) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<fabout>, i16) -> ()
// GENERIC-NEXT:       "csl.mov16"(%arg6, %arg3) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (memref<i16>, !csl.dsd<fabin>) -> ()
// GENERIC-NEXT:       "csl.mov16"(%arg2, %arg7) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, i16>, f16) -> ()
// GENERIC-NEXT:       "csl.add16"(%arg2, %arg5, %arg3) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, i16>, i16, !csl.dsd<fabin>) -> ()
// GENERIC-NEXT:       "csl.addc16"(%arg2, %arg2, %arg5) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, i16>, !csl.dsd<mem1d, i16>, i16) -> ()
// GENERIC-NEXT:       "csl.sub16"(%arg4, %arg3, %arg5) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<fabout>, !csl.dsd<fabin>, i16) -> ()
// GENERIC-NEXT:       "csl.and16"(%arg2, %arg2, %arg3) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, i16>, !csl.dsd<mem1d, i16>, !csl.dsd<fabin>) -> ()
// GENERIC-NEXT:       "csl.or16"(%arg2, %arg5, %arg2) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, i16>, i16, !csl.dsd<mem1d, i16>) -> ()
// GENERIC-NEXT:       "csl.xor16"(%arg4, %arg2, %arg2) <{async, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<fabout>, !csl.dsd<mem1d, i16>, !csl.dsd<mem1d, i16>) -> ()
// GENERIC-NEXT:       "csl.sll16"(%arg2, %arg2, %arg5) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, i16>, !csl.dsd<mem1d, i16>, i16) -> ()
// GENERIC-NEXT:       "csl.slr16"(%arg2, %arg3, %arg2) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, i16>, !csl.dsd<fabin>, !csl.dsd<mem1d, i16>) -> ()
// GENERIC-NEXT:       "csl.sar16"(%arg2, %arg5, %arg3) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, i16>, i16, !csl.dsd<fabin>) -> ()
// GENERIC-NEXT:       "csl.popcnt"(%arg2, %arg3) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, i16>, !csl.dsd<fabin>) -> ()
// GENERIC-NEXT:       "csl.clz"(%arg4, %arg5) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<fabout>, i16) -> ()
// GENERIC-NEXT:       "csl.ctz"(%arg2, %arg2) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (!csl.dsd<mem1d, i16>, !csl.dsd<mem1d, i16>) -> ()
// GENERIC-NEXT:       "func.return"() : () -> ()
// GENERIC-NEXT:     }) : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "csl.program"() <{arch = #csl<arch wse2>, sym_name = "wse2"}> ({
// GENERIC-NEXT:     "func.func"() <{function_type = (!csl.dsd<mem1d, f32>, !csl.dsd<fabin>) -> (), sym_name = "priority"}> ({
// GENERIC-NEXT:     ^bb0(%arg0: !csl.dsd<mem1d, f32>, %arg1: !csl.dsd<fabin>):
// GENERIC-NEXT:       "csl.fadds"(%arg0, %arg0, %arg1) <{async, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>, priority = #csl<priority high>}> : (!csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<fabin>) -> ()
// GENERIC-NEXT:       "func.return"() : () -> ()
// GENERIC-NEXT:     }) : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

csl.program @wse3 arch wse3 {
  func.func @float32(%m: !csl.dsd<mem1d, f32>, %m4: !csl.dsd<mem4d, f32>, %in: !csl.dsd<fabin>, %out: !csl.dsd<fabout>, %fifo: !csl.dsd<fifo, f32>, %h: !csl.dsd<mem1d, f16>, %x: f32, %p: memref<f32>, %rd: !csl.dsr<dest>, %r0: !csl.dsr<src0>, %r1: !csl.dsr<src1>, %t: !csl.task_id<local>, %ut: !csl.ut_id, %i: i16) {
    csl.fadds %m, %m, %in : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<fabin>
    csl.fadds %out, %x, %fifo async activate %t : !csl.dsd<fabout>, f32, !csl.dsd<fifo, f32>
    csl.fadds %p, %x, %m : memref<f32>, f32, !csl.dsd<mem1d, f32>
    csl.fsubs %m4, %m4, %x : !csl.dsd<mem4d, f32>, !csl.dsd<mem4d, f32>, f32
    csl.fmuls %rd, %r0, %r1 async unblock %t : !csl.task_id<local> ut_id %ut : !csl.dsr<dest>, !csl.dsr<src0>, !csl.dsr<src1>
    csl.fmaxs %p, %x, %in : memref<f32>, f32, !csl.dsd<fabin>
    csl.fmacs %m, %m, %in, %x index %i : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<fabin>, f32
    csl.faddhs %m, %m, %h : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f16>
    csl.faddhs %p, %x, %h : memref<f32>, f32, !csl.dsd<mem1d, f16>
    csl.fmovs %m, %x : !csl.dsd<mem1d, f32>, f32
    csl.fmovs %p, %in : memref<f32>, !csl.dsd<fabin>
    csl.fmovs %fifo, %in async : !csl.dsd<fifo, f32>, !csl.dsd<fabin>
    csl.fnegs %out, %fifo : !csl.dsd<fabout>, !csl.dsd<fifo, f32>
    csl.fabss %m, %x : !csl.dsd<mem1d, f32>, f32
    csl.fscales %p, %x, %i : memref<f32>, f32, i16
    csl.fnorms %p, %x : memref<f32>, f32
    csl.mov32 %out, %m : !csl.dsd<fabout>, !csl.dsd<mem1d, f32>
    csl.mov32 %out, %x : !csl.dsd<fabout>, f32
    return
  }
  func.func @float16(%h: !csl.dsd<mem1d, f16>, %m: !csl.dsd<mem1d, f32>, %in: !csl.dsd<fabin>, %out: !csl.dsd<fabout>, %y: f16, %q: memref<f16>, %w: !csl.dsd<mem1d, i16>, %k: i16, %pk: memref<i16>, %x: f32) {
    csl.faddh %h, %h, %y : !csl.dsd<mem1d, f16>, !csl.dsd<mem1d, f16>, f16
    csl.fsubh %out, %in, %h : !csl.dsd<fabout>, !csl.dsd<fabin>, !csl.dsd<mem1d, f16>
    csl.fmulh %q, %y, %h : memref<f16>, f16, !csl.dsd<mem1d, f16>
    csl.fmaxh %h, %y, %in : !csl.dsd<mem1d, f16>, f16, !csl.dsd<fabin>
    csl.fmach %h, %h, %h, %y : !csl.dsd<mem1d, f16>, !csl.dsd<mem1d, f16>, !csl.dsd<mem1d, f16>, f16
    csl.fmachs %m, %m, %h, %y : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f16>, f16
    csl.fmovh %q, %h : memref<f16>, !csl.dsd<mem1d, f16>
    csl.fnegh %h, %in : !csl.dsd<mem1d, f16>, !csl.dsd<fabin>
    csl.fabsh %h, %h : !csl.dsd<mem1d, f16>, !csl.dsd<mem1d, f16>
    csl.fh2s %m, %h : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f16>
    csl.fs2h %h, %x : !csl.dsd<mem1d, f16>, f32
    csl.fh2xp16 %pk, %in : memref<i16>, !csl.dsd<fabin>
    csl.fs2xp16 %w, %m : !csl.dsd<mem1d, i16>, !csl.dsd<mem1d, f32>
    csl.xp162fh %h, %w : !csl.dsd<mem1d, f16>, !csl.dsd<mem1d, i16>
    csl.xp162fs %m, %k : !csl.dsd<mem1d, f32>, i16
    csl.fscaleh %q, %y, %k : memref<f16>, f16, i16
    csl.fnormh %q, %y : memref<f16>, f16
    return
  }
  func.func @integer(%w: !csl.dsd<mem1d, i16>, %in: !csl.dsd<fabin>, %out: !csl.dsd<fabout>, %k: i16, %pk: memref<i16>, %f16: f16) {
    csl.mov16 %out, %k : !csl.dsd<fabout>, i16
    csl.mov16 %pk, %in : memref<i16>, !csl.dsd<fabin>
    csl.mov16 %w, %f16 : !csl.dsd<mem1d, i16>, f16
    csl.add16 %w, %k, %in : !csl.dsd<mem1d, i16>, i16, !csl.dsd<fabin>
    csl.addc16 %w, %w, %k : !csl.dsd<mem1d, i16>, !csl.dsd<mem1d, i16>, i16
    csl.sub16 %out, %in, %k : !csl.dsd<fabout>, !csl.dsd<fabin>, i16
    csl.and16 %w, %w, %in : !csl.dsd<mem1d, i16>, !csl.dsd<mem1d, i16>, !csl.dsd<fabin>
    csl.or16 %w, %k, %w : !csl.dsd<mem1d, i16>, i16, !csl.dsd<mem1d, i16>
    csl.xor16 %out, %w, %w async : !csl.dsd<fabout>, !csl.dsd<mem1d, i16>, !csl.dsd<mem1d, i16>
    csl.sll16 %w, %w, %k : !csl.dsd<mem1d, i16>, !csl.dsd<mem1d, i16>, i16
    csl.slr16 %w, %in, %w : !csl.dsd<mem1d, i16>, !csl.dsd<fabin>, !csl.dsd<mem1d, i16>
    csl.sar16 %w, %k, %in : !csl.dsd<mem1d, i16>, i16, !csl.dsd<fabin>
    csl.popcnt %w, %in : !csl.dsd<mem1d, i16>, !csl.dsd<fabin>
    csl.clz %out, %k : !csl.dsd<fabout>, i16
    csl.ctz %w, %w : !csl.dsd<mem1d, i16>, !csl.dsd<mem1d, i16>
    return
  }
}

// WSE-2 carries the priority on the operation.
csl.program @wse2 arch wse2 {
  func.func @priority(%m: !csl.dsd<mem1d, f32>, %in: !csl.dsd<fabin>) {
    csl.fadds %m, %m, %in async priority high : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<fabin>
    return
  }
}
