// RUN: tessera-opt %s -split-input-file --tessera-place-regions -verify-diagnostics
// tessera-place-regions' errors (docs/Placement.md, "Code regions").

fabric.fabric arch wse3 dims [4, 2] offsets [0, 0] {
  fabric.rectangle size [4, 2]
  fabric.code_region @fixed size [2, 2] at [1, 0]
  // expected-error @+1 {{cannot place the code regions: region 'wide' (3x1) fits nowhere in the 4x2 rectangle beside the others}}
  fabric.code_region @wide size [3, 1]
}

// -----

fabric.fabric arch wse3 dims [4, 2] offsets [0, 0] {
  fabric.rectangle size [4, 2]
  fabric.instance @pe file "pe.csl"
  fabric.place @pe at [1, 1]
  // expected-error @+1 {{cannot place the code regions: region 'r' at (0, 0) covers PE (1, 1), which is taken}}
  fabric.code_region @r size [2, 2] at [0, 0]
  fabric.code_region @s size [1, 1]
}
