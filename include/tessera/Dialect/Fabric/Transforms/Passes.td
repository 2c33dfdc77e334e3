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
    Checks each `fabric.color_config` on every PE it covers: no two
    neighbours stream a color into one PE at once (both send it toward the
    PE in their base routes and the PE receives from both), no port sends
    off the fabric or receives from beyond its edge, no route uses a color
    the memcpy infrastructure reserves when the fabric has `memcpy`, and
    `current_switch_pos` and `ring_mode` come with switch positions
    (`pop_mode` alone is a warning: it has no effect). Each diagnostic is
    at the op (the `@set_color_config` call), names the first PE and the
    color, and counts the other PEs of the range with the same problem.
    docs/Routing.md lists the messages.
  }];
}

#endif // TESSERA_FABRIC_TRANSFORMS_PASSES
