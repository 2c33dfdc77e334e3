// RUN: tessera-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// Flows and color symbols: what the compiler routes and colors
// (docs/FlowRouting.md); their verifiers.

// CHECK-LABEL: fabric.fabric
// CHECK: fabric.color_symbol @c
// CHECK: fabric.flow @ab color @c from [0, 0] to [2, 0, 2, 1]
// CHECK: fabric.flow @pinned color 5 : i64 from [1, 1] to [0, 0] route [1, 1, 16, 1, 0, 1, 2, 8, 0, 0, 4, 16]
fabric.fabric arch wse3 dims [4, 4] offsets [0, 0] {
  fabric.rectangle size [3, 2]
  fabric.color_symbol @c
  fabric.instance @pe file "pe.csl" params {c = @c}
  fabric.flow @ab color @c from [0, 0] to [2, 0, 2, 1]
  fabric.flow @pinned color 5 from [1, 1] to [0, 0] route [1, 1, 16, 1, 0, 1, 2, 8, 0, 0, 4, 16]
}

// -----

fabric.fabric arch wse3 dims [4, 4] offsets [0, 0] {
  fabric.rectangle size [3, 2]
  // expected-error @+1 {{'fabric.flow' op 'to' must list (x, y) pairs of sink PEs, got 3 numbers}}
  fabric.flow @f color 1 from [0, 0] to [1, 0, 2]
}

// -----

fabric.fabric arch wse3 dims [4, 4] offsets [0, 0] {
  fabric.rectangle size [3, 2]
  // expected-error @+1 {{'fabric.flow' op color 24 is not routable on wse3 (0..23)}}
  fabric.flow @f color 24 from [0, 0] to [1, 0]
}

// -----

fabric.fabric arch wse3 dims [4, 4] offsets [0, 0] {
  fabric.rectangle size [3, 2]
  // expected-error @+1 {{'fabric.flow' op 'nosuch' does not name a fabric.color_symbol}}
  fabric.flow @f color @nosuch from [0, 0] to [1, 0]
}

// -----

fabric.fabric arch wse3 dims [4, 4] offsets [0, 0] {
  fabric.rectangle size [3, 2]
  // expected-error @+1 {{'fabric.flow' op sink PE (3, 0) is outside the 3x2 rectangle}}
  fabric.flow @f color 1 from [0, 0] to [3, 0]
}

// -----

fabric.fabric arch wse3 dims [4, 4] offsets [0, 0] {
  fabric.rectangle size [3, 2]
  // expected-error @+1 {{'fabric.flow' op source PE (0, 2) is outside the 3x2 rectangle}}
  fabric.flow @f color 1 from [0, 2] to [1, 0]
}

// -----

fabric.fabric arch wse3 dims [4, 4] offsets [0, 0] {
  fabric.rectangle size [3, 2]
  // expected-error @+1 {{'fabric.flow' op 'route' must list (x, y, rx, tx) quadruples, got 3 numbers}}
  fabric.flow @f color 1 from [0, 0] to [1, 0] route [0, 0, 16]
}

// -----

fabric.fabric arch wse3 dims [4, 4] offsets [0, 0] {
  fabric.rectangle size [3, 2]
  // expected-error @+1 {{'fabric.flow' op route entry 1 is not a PE with two port masks (0..31)}}
  fabric.flow @f color 1 from [0, 0] to [1, 0] route [0, 0, 16, 2, 1, 0, 1, 32]
}
