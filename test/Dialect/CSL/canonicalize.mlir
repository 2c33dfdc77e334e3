// RUN: tessera-opt %s --canonicalize | FileCheck %s
// get_color is pure: unused colors fold away, used ones stay.

// CHECK:      module {
// CHECK-NEXT: }
%unused = csl.get_color 5 : !csl.color
