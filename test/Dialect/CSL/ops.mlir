// RUN: tessera-opt %s | FileCheck %s
// Round trip: the printed form parses back to the same IR.
// RUN: tessera-opt %s | tessera-opt | FileCheck %s
// RUN: tessera-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tessera-opt %s --mlir-print-op-generic | tessera-opt | FileCheck %s

// CHECK:      module {
// CHECK-NEXT:   %{{.*}} = csl.get_color 0 : !csl.color
// CHECK-NEXT:   %{{.*}} = csl.get_color 23 : !csl.color
// CHECK-NEXT: }
// GENERIC: "csl.get_color"() <{id = 0 : i64}> : () -> !csl.color
// GENERIC: "csl.get_color"() <{id = 23 : i64}> : () -> !csl.color
%a = csl.get_color 0 : !csl.color
%b = csl.get_color 23 : !csl.color
