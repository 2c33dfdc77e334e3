//===- Passes.td - passes over the fabric -----------------*- tablegen -*-===//
//
// The fabric half of the backend pipeline (docs/Passes.md).
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_FABRIC_TRANSFORMS_PASSES
#define TESSERA_FABRIC_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def VerifyRoutes : Pass<"tessera-verify-routes", "::tessera::fabric::FabricOp"> {
  let summary = "Check every PE's router configuration";
  let description = [{
    Expands each `fabric.color_config` to the PEs it covers and checks the
    per-PE router tables: no color enters a PE from two directions at once,
    no route leaves the fabric, no user route uses a color the memcpy
    infrastructure reserves, and switch settings come with positions. Each
    error names the PE, the color and the source line of the route.
  }];
}

#endif // TESSERA_FABRIC_TRANSFORMS_PASSES
