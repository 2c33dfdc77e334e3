// RUN: tessera-opt %s -tessera-verify-routes 2>&1 | FileCheck %s --implicit-check-not=warning --implicit-check-not=error
// pop_mode without switch positions is accepted without a diagnostic: a
// router without positions still pops the commands of control wavelets for
// the routers after it (fft-1d-2d's sending PEs, docs/Emulator.md).

// CHECK:      fabric.fabric arch wse3 dims [4, 2] offsets [0, 0] {
// CHECK-NEXT:   fabric.rectangle size [4, 2]
// CHECK-NEXT:   fabric.color_config color 4 at [0, 0] rx [ramp] tx [east] pop_mode always_pop
// CHECK-NEXT:   fabric.color_config color 4 at [1, 0] size [2, 1] rx [west] tx [east] pos1 tx ramp pop_mode always_pop
// CHECK-NEXT:   fabric.color_config color 4 at [3, 0] rx [west] tx [ramp]
// CHECK-NEXT: }

fabric.fabric arch wse3 dims [4, 2] offsets [0, 0] {
  fabric.rectangle size [4, 2]
  fabric.color_config color 4 at [0, 0] rx [ramp] tx [east] pop_mode always_pop
  fabric.color_config color 4 at [1, 0] size [2, 1] rx [west] tx [east] pos1 tx ramp pop_mode always_pop
  fabric.color_config color 4 at [3, 0] rx [west] tx [ramp]
}
