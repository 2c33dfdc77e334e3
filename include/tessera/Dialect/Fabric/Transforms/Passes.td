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
    Checks each `fabric.color_config` on every PE it covers: no color is
    received from more than one port at once (in the base route or any
    switch position), no port sends off the fabric or receives from beyond
    its edge, no route uses a color the memcpy infrastructure reserves when
    the fabric has `memcpy`, and switch settings (`current_switch_pos`,
    `ring_mode`, `pop_mode`) come with switch positions. Each error is
    reported at the op (the `@set_color_config` call), names the first PE
    and the color, and counts the other PEs of the range with the same
    problem. The checks reason per range, not per PE. docs/Routing.md lists
    the messages.
  }];
}

#endif // TESSERA_FABRIC_TRANSFORMS_PASSES
