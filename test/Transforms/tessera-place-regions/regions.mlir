// RUN: tessera-opt %s -split-input-file --tessera-place-regions -verify-diagnostics | FileCheck %s
// RUN: tessera-opt %s -split-input-file --tessera-place-regions --tessera-route-flows --tessera-assign-colors -verify-diagnostics | FileCheck %s --check-prefix=ROUTED
// tessera-place-regions gives code regions without a position one
// (docs/Placement.md, "Code regions"); routing then follows them.

// @src is fixed at the west edge and PE (2, 2) is taken by a program
// placed outside any region. @mid connects to @src, @dst to @mid. @mid
// cannot sit at (2, 1), beside @src's sender (1, 1), as it would cover
// (2, 2); (2, 0) and (3, 1) both put its receiver 2 away, and the
// north-west-most wins. @dst's receiver (0, 1) then goes right beside
// @mid's sender, (2, 1) of @mid = (4, 1): at (5, 0).
// CHECK-LABEL: fabric.fabric
// CHECK: fabric.code_region @src size [2, 2] at [0, 1]
// CHECK: fabric.code_region @mid size [3, 2] at [2, 0]
// CHECK: fabric.code_region @dst size [2, 2] at [5, 0]
// The places and flows keep their region coordinates.
// CHECK: fabric.place @pe in @mid at [0, 0] size [3, 2]
// CHECK: fabric.flow @a color 1 : i64 from [1, 0] to [0, 0] in [@src, @mid]

// Routed and colored, the flows run between the regions' PEs where they
// now are: (1, 1) east to (2, 1), north to (2, 0); (4, 1) east to (5, 1).
// ROUTED-LABEL: fabric.fabric
// ROUTED-DAG: fabric.color_config color 1 at [1, 1] rx [ramp] tx [east]
// ROUTED-DAG: fabric.color_config color 1 at [2, 1] rx [west] tx [north]
// ROUTED-DAG: fabric.color_config color 1 at [2, 0] rx [south] tx [ramp]
// ROUTED-DAG: fabric.color_config color 2 at [4, 1] rx [ramp] tx [east]
// ROUTED-DAG: fabric.color_config color 2 at [5, 1] rx [west] tx [ramp]
// ROUTED-NOT: fabric.flow
fabric.fabric arch wse3 dims [10, 4] offsets [0, 0] {
  fabric.rectangle size [10, 4]
  fabric.instance @pe file "pe.csl"
  fabric.code_region @src size [2, 2] at [0, 1]
  fabric.code_region @mid size [3, 2]
  fabric.code_region @dst size [2, 2]
  fabric.place @pe in @src at [0, 0] size [2, 2]
  fabric.place @pe in @mid at [0, 0] size [3, 2]
  fabric.place @pe in @dst at [0, 0] size [2, 2]
  fabric.place @pe at [2, 2]
  fabric.flow @a color 1 from [1, 0] to [0, 0] in [@src, @mid]
  fabric.flow @b color 2 from [2, 1] to [0, 1] in [@mid, @dst]
}

// -----

// A multicast from the middle of @hub, (0, 1), to two regions: each
// settles against @hub, the more connected (two sinks) first. Every region
// here is placed by the pass; the first goes to the north-west corner.
// @east's sinks are 1 and 2 away at (1, 1); @south's one sink is 2 away at
// (1, 0), (1, 2) or (0, 3), and the north-west-most wins.
// CHECK-LABEL: fabric.fabric
// CHECK: fabric.code_region @hub size [1, 3] at [0, 0]
// CHECK: fabric.code_region @east size [2, 1] at [1, 1]
// CHECK: fabric.code_region @south size [1, 1] at [1, 0]
fabric.fabric arch wse3 dims [4, 4] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  fabric.code_region @hub size [1, 3]
  fabric.code_region @east size [2, 1]
  fabric.code_region @south size [1, 1]
  fabric.flow @m color 3 from [0, 1] to [0, 0, 1, 0, 0, 0] in [@hub, @east, @east, @south]
}

// -----

// Nothing to place: the pass leaves the fabric as it is.
// CHECK-LABEL: fabric.fabric
// CHECK: fabric.code_region @r size [2, 2] at [1, 1]
fabric.fabric arch wse3 dims [4, 4] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  fabric.code_region @r size [2, 2] at [1, 1]
}
