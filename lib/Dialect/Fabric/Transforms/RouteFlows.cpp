//===- RouteFlows.cpp - tessera-route-flows -------------------------------===//
//
// A thin adapter over TesseraRouting's PathFinder router: every fabric.flow
// without a route becomes a flow of one routing problem, and each gets its
// route back as the `route` attribute. Flows that already have one are left
// as they are (and do not count against capacity).
//
//===----------------------------------------------------------------------===//

#include "tessera/Dialect/Fabric/Transforms/Passes.h"

#include "FlowProblem.h"

#include "tessera/Routing/FlowRouter.h"

#include "mlir/IR/Builders.h"

namespace tessera::fabric {
#define GEN_PASS_DEF_ROUTEFLOWS
#include "tessera/Dialect/Fabric/Transforms/Passes.h.inc"
} // namespace tessera::fabric

using namespace tessera;
using namespace tessera::fabric;

namespace {

struct RouteFlowsPass : tessera::fabric::impl::RouteFlowsBase<RouteFlowsPass> {
  void runOnOperation() override {
    FabricOp fabric = getOperation();
    routing::RoutingProblem problem = getMeshProblem(fabric);
    std::vector<FlowOp> flows;
    for (FlowOp flow : fabric.getBody().front().getOps<FlowOp>()) {
      if (flow.getRoute())
        continue;
      std::optional<routing::Flow> routed = getFlow(flow);
      if (!routed) {
        flow.emitError("flow has an end in a code region without a position: "
                       "run tessera-place-regions first");
        return signalPassFailure();
      }
      flows.push_back(flow);
      problem.flows.push_back(std::move(*routed));
    }
    if (flows.empty())
      return;
    routing::RoutingResult result = routing::routeFlows(problem);
    if (!result.succeeded()) {
      FlowOp at = result.unroutedFlows.empty()
                      ? flows.front()
                      : flows[result.unroutedFlows.front()];
      mlir::InFlightDiagnostic diag = at.emitError(result.errors.front());
      for (size_t i = 1; i < result.errors.size(); ++i)
        diag.attachNote() << result.errors[i];
      signalPassFailure();
      return;
    }
    mlir::Builder builder(&getContext());
    for (auto [flow, route] : llvm::zip(flows, result.routes))
      flow.setRouteAttr(builder.getDenseI64ArrayAttr(encodeRoute(route)));
  }
};

} // namespace
