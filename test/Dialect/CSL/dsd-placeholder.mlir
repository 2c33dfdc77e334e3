// RUN: tessera-opt %s | FileCheck %s
// Memory DSDs are descriptors of raw memory, as in CSL: accesses past the
// base verify (programs build placeholder DSDs and set their length before
// use; MLIRGen warns), a DSD may be rebased onto another element type, and
// an operation reads memory DSDs with its own width.

// CHECK-LABEL: func.func @placeholder
// CHECK: csl.tensor_access_dsd %{{.*}} sizes [42] map #{{.*}} : memref<1xi16> -> !csl.dsd<mem1d, i16>
func.func @placeholder(%a: memref<1xi16>) {
  %d = csl.tensor_access_dsd %a sizes [42] map affine_map<(i) -> (i)> : memref<1xi16> -> !csl.dsd<mem1d, i16>
  return
}

// CHECK-LABEL: func.func @rebase
// CHECK: csl.set_dsd_base_addr %{{.*}}, %{{.*}} : !csl.dsd<mem1d, i16>, memref<?xf32>
func.func @rebase(%d: !csl.dsd<mem1d, i16>, %p: memref<?xf32>) {
  %e = csl.set_dsd_base_addr %d, %p : !csl.dsd<mem1d, i16>, memref<?xf32>
  return
}

// CHECK-LABEL: func.func @reinterpret
// CHECK: csl.mov16 %{{.*}}, %{{.*}} : !csl.dsd<mem1d, i16>, !csl.dsd<mem1d, i32>
func.func @reinterpret(%out: !csl.dsd<mem1d, i16>, %words: !csl.dsd<mem1d, i32>) {
  csl.mov16 %out, %words : !csl.dsd<mem1d, i16>, !csl.dsd<mem1d, i32>
  return
}
