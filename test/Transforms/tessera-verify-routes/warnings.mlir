// RUN: tessera-opt %s -tessera-verify-routes -verify-diagnostics
// RUN: tessera-opt %s -tessera-verify-routes 2>&1 | FileCheck %s
// A warning alone does not fail the pass: the fabric is printed after it.

// CHECK:      warning: PE (1, 0) color 4 sets pop_mode but has no switch positions, so it has no effect (and 1 other PE of this range)
// CHECK:      fabric.fabric arch wse3 dims [4, 2] offsets [0, 0] {
// CHECK-NEXT:   fabric.rectangle size [4, 2]
// CHECK-NEXT:   fabric.color_config color 4 at [0, 0] rx [ramp] tx [east]
// CHECK-NEXT:   fabric.color_config color 4 at [1, 0] size [2, 1] rx [west] tx [east] pop_mode always_pop
// CHECK-NEXT:   fabric.color_config color 4 at [3, 0] rx [west] tx [ramp]
// CHECK-NEXT: }

// The fft-1d-2d example sets pop_mode with no switch positions, which the
// SDK accepts.
fabric.fabric arch wse3 dims [4, 2] offsets [0, 0] {
  fabric.rectangle size [4, 2]
  fabric.color_config color 4 at [0, 0] rx [ramp] tx [east]
  // expected-warning @+1 {{PE (1, 0) color 4 sets pop_mode but has no switch positions, so it has no effect (and 1 other PE of this range)}}
  fabric.color_config color 4 at [1, 0] size [2, 1] rx [west] tx [east] pop_mode always_pop
  fabric.color_config color 4 at [3, 0] rx [west] tx [ramp]
}
