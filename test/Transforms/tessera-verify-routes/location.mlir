// RUN: not tessera-opt %s -tessera-verify-routes --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --implicit-check-not=error
// Errors point at the op's location, which MLIRGen sets to the
// @set_color_config call in the layout file.

// CHECK: layout.csl:12:5: error: PE (0, 0) color 2 is sent west, off the fabric edge
// CHECK-NEXT: layout.csl:13:5: error: PE (1, 1) color 21 is received from west and north at once
fabric.fabric arch wse3 dims [4, 4] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  fabric.color_config color 2 at [0, 0] rx [ramp] tx [west] loc("layout.csl":12:5)
  fabric.color_config color 21 at [1, 1] rx [west, north] tx [ramp] loc("layout.csl":13:5)
  fabric.color_config color 21 at [0, 1] rx [ramp] tx [east] loc("layout.csl":14:5)
  fabric.color_config color 21 at [1, 0] rx [ramp] tx [south] loc("layout.csl":15:5)
}
