// RUN: tessera-opt %s -split-input-file --tessera-route-flows --tessera-assign-colors -verify-diagnostics | FileCheck %s
// tessera-assign-colors: every color symbol gets a physical color, the
// routes become color configs and params get the numbers.

// @a crosses (2, 1), where color 0 is configured by hand, so it gets 1;
// @b shares (1, 1) with @a but not (2, 1), so it gets 0. The pinned flow
// keeps 5.
// CHECK-LABEL: fabric.fabric
// CHECK-NOT: fabric.color_symbol
// CHECK: fabric.instance @pe file "pe.csl" params {n = 3 : i64, rx = {csl.color = 1 : i64}, tx = {csl.color = 0 : i64}}
// CHECK-NEXT: fabric.place @pe at [0, 0] size [4, 3]
// CHECK-NEXT: fabric.color_config color 0 at [2, 1] rx [west] tx [ramp]
// CHECK-NEXT: fabric.color_config color 1 at [0, 1] rx [ramp] tx [east]
// CHECK-NEXT: fabric.color_config color 1 at [1, 1] rx [west] tx [east]
// CHECK-NEXT: fabric.color_config color 1 at [2, 1] rx [west] tx [east]
// CHECK-NEXT: fabric.color_config color 1 at [3, 1] rx [west] tx [ramp]
// CHECK-NEXT: fabric.color_config color 0 at [1, 0] rx [ramp] tx [south]
// CHECK-NEXT: fabric.color_config color 0 at [1, 1] rx [north] tx [south]
// CHECK-NEXT: fabric.color_config color 0 at [1, 2] rx [north] tx [ramp, east]
// CHECK-NEXT: fabric.color_config color 0 at [2, 2] rx [west] tx [east]
// CHECK-NEXT: fabric.color_config color 0 at [3, 2] rx [west] tx [ramp]
// CHECK-NEXT: fabric.color_config color 5 at [0, 0] rx [east] tx [ramp]
// CHECK-NOT: fabric.flow
fabric.fabric arch wse3 dims [4, 3] offsets [0, 0] {
  fabric.rectangle size [4, 3]
  fabric.color_symbol @a
  fabric.color_symbol @b
  fabric.instance @pe file "pe.csl" params {rx = @a, tx = @b, n = 3 : i64}
  fabric.place @pe at [0, 0] size [4, 3]
  fabric.color_config color 0 at [2, 1] rx [west] tx [ramp]
  fabric.flow @ab color @a from [0, 1] to [3, 1]
  fabric.flow @bc color @b from [1, 0] to [1, 2, 3, 2]
  fabric.flow @pinned color 5 from [3, 0] to [0, 0]
}

// -----

// Colors 0..22 are configured by hand at (0, 0): the two symbols crossing
// it share the one color left.
// expected-error @+1 {{out of colors at PE (0, 0): flows '@x', '@y', 'color 0', 'color 1',}}
fabric.fabric arch wse3 dims [2, 1] offsets [0, 0] {
  fabric.rectangle size [2, 1]
  fabric.color_symbol @x
  fabric.color_symbol @y
  fabric.color_config color 0 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 1 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 2 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 3 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 4 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 5 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 6 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 7 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 8 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 9 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 10 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 11 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 12 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 13 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 14 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 15 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 16 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 17 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 18 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 19 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 20 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 21 at [0, 0] rx [ramp] tx [ramp]
  fabric.color_config color 22 at [0, 0] rx [ramp] tx [ramp]
  fabric.flow @fx color @x from [0, 0] to [1, 0]
  fabric.flow @fy color @y from [0, 0] to [1, 0]
}
