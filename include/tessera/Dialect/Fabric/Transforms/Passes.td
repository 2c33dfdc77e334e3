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

def PlaceRegions : Pass<"tessera-place-regions", "::tessera::fabric::FabricOp"> {
  let summary = "Give every fabric.code_region without a position one";
  let description = [{
    Places the code regions that have no `at` inside the rectangle with
    TesseraPlacement's `placeRegions` (docs/Placement.md, "Code regions"):
    without overlapping each other, the regions the user fixed or the PEs
    that `fabric.place` ops outside regions take, most connected first,
    each where the flows between its PEs and those of regions already
    placed are shortest. Each region gets its origin as `at`; the places
    and flows given in its coordinates then lie where it does. When a
    region fits nowhere (or fixed ones overlap), the error is at the
    region and names it.
  }];
}

def RouteFlows : Pass<"tessera-route-flows", "::tessera::fabric::FabricOp"> {
  let summary = "Find a path for every fabric.flow";
  let description = [{
    Routes every `fabric.flow` that has no `route` through the rectangle
    by negotiated congestion (PathFinder, TesseraRouting's `routeFlows`):
    a tree from the source's CE to each sink's CE, at most as many flows
    per link and router as there are colors, in a deterministic order.
    Each flow gets its path as `route` (x, y, rx, tx quadruples). When the
    flows cannot all be routed, the error is at the first flow that
    cannot be and names the flows and resources involved
    (docs/FlowRouting.md lists the messages).
  }];
}

def AssignColors : Pass<"tessera-assign-colors", "::tessera::fabric::FabricOp"> {
  let summary = "Give every color symbol a physical color and write the routes";
  let description = [{
    Colors routed flows with TesseraRouting's DSatur assigner: all flows
    of one `fabric.color_symbol` (and all flows pinned to one number) are
    one color; two such colors that share a PE get distinct physical
    colors, also against colors a `fabric.color_config` configures where
    the flows pass; the fewest colors, memcpy's excluded. Then each flow
    becomes one `fabric.color_config` per PE of its route, instance params
    naming a symbol get `{csl.color = N}`, and the symbols are erased.
    When colors run out, the error names the PE and the competing colors.
  }];
}

#endif // TESSERA_FABRIC_TRANSFORMS_PASSES
