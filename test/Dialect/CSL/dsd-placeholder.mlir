// RUN: tessera-opt %s | FileCheck %s
// Accesses past the base verify: CSL programs build placeholder DSDs and set
// their length before use (MLIRGen warns about them).

// CHECK-LABEL: func.func @placeholder
// CHECK: csl.tensor_access_dsd %{{.*}} sizes [42] map #{{.*}} : memref<1xi16> -> !csl.dsd<mem1d, i16>
func.func @placeholder(%a: memref<1xi16>) {
  %d = csl.tensor_access_dsd %a sizes [42] map affine_map<(i) -> (i)> : memref<1xi16> -> !csl.dsd<mem1d, i16>
  return
}
