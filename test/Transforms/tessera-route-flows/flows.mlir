// RUN: tessera-opt %s -split-input-file --tessera-route-flows -verify-diagnostics | FileCheck %s
// tessera-route-flows: each fabric.flow gets its path (docs/FlowRouting.md).

// A straight flow along row 1; a multicast tree down column 1 and along
// row 2; a pinned flow westward along row 0. Routes are (x, y, rx, tx)
// with west 1, east 2, south 4, north 8, ramp 16.
// CHECK-LABEL: fabric.fabric
// CHECK: fabric.flow @ab color @a from [0, 1] to [3, 1] route [0, 1, 16, 2, 1, 1, 1, 2, 2, 1, 1, 2, 3, 1, 1, 16]
// CHECK: fabric.flow @bc color @b from [1, 0] to [1, 2, 3, 2] route [1, 0, 16, 4, 1, 1, 8, 4, 1, 2, 8, 18, 2, 2, 1, 2, 3, 2, 1, 16]
// CHECK: fabric.flow @pinned color 5 : i64 from [3, 0] to [0, 0] route [0, 0, 2, 16, 1, 0, 2, 1, 2, 0, 2, 1, 3, 0, 16, 1]
// A flow that has a route keeps it.
// CHECK: fabric.flow @given color 7 : i64 from [0, 2] to [0, 1] route [0, 2, 16, 8, 0, 1, 4, 16]
fabric.fabric arch wse3 dims [4, 3] offsets [0, 0] {
  fabric.rectangle size [4, 3]
  fabric.color_symbol @a
  fabric.color_symbol @b
  fabric.flow @ab color @a from [0, 1] to [3, 1]
  fabric.flow @bc color @b from [1, 0] to [1, 2, 3, 2]
  fabric.flow @pinned color 5 from [3, 0] to [0, 0]
  fabric.flow @given color 7 from [0, 2] to [0, 1] route [0, 2, 16, 8, 0, 1, 4, 16]
}

// -----

// Two flows pinned to one color cannot share a router, and in one row
// they must.
fabric.fabric arch wse3 dims [3, 1] offsets [0, 0] {
  fabric.rectangle size [3, 1]
  // expected-error @+1 {{cannot route flows 'first' and 'second': PE (0, 0) is crossed by 2 flows pinned to color 5 but holds 1; PE (1, 0) is crossed by 2 flows pinned to color 5 but holds 1; PE (2, 0) is crossed by 2 flows pinned to color 5 but holds 1}}
  fabric.flow @first color 5 from [0, 0] to [2, 0]
  fabric.flow @second color 5 from [2, 0] to [0, 0]
}

// -----

// Ends in a code region with a position lie where the region is; ends in
// one without wait for tessera-place-regions.
// CHECK-LABEL: fabric.fabric
// CHECK: fabric.flow @fixed color 1 : i64 from [0, 0] to [1, 0] in [@placed, @placed] route [2, 1, 16, 2, 3, 1, 1, 16]
fabric.fabric arch wse3 dims [4, 3] offsets [0, 0] {
  fabric.rectangle size [4, 3]
  fabric.code_region @placed size [2, 1] at [2, 1]
  fabric.flow @fixed color 1 from [0, 0] to [1, 0] in [@placed, @placed]
}

// -----

fabric.fabric arch wse3 dims [4, 3] offsets [0, 0] {
  fabric.rectangle size [4, 3]
  fabric.code_region @placed size [2, 1] at [2, 1]
  fabric.code_region @loose size [2, 1]
  // expected-error @+1 {{flow has an end in a code region without a position: run tessera-place-regions first}}
  fabric.flow @open color 2 from [0, 0] to [1, 0] in [@placed, @loose]
}
