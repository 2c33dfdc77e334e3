// RUN: tessera-opt %s --tessera-assign-colors -verify-diagnostics
// tessera-assign-colors needs routed flows.

fabric.fabric arch wse3 dims [2, 1] offsets [0, 0] {
  fabric.rectangle size [2, 1]
  fabric.color_symbol @x
  // expected-error @+1 {{flow has no route: run tessera-route-flows first}}
  fabric.flow @fx color @x from [0, 0] to [1, 0]
}
