//===- FlowProblem.h - fabric.flow ops as a routing problem -----*- C++ -*-===//
//
// What tessera-route-flows and tessera-assign-colors share: the rectangle,
// the colors the target lets flows have, and each flow's ends, read from a
// fabric.fabric for TesseraRouting (docs/FlowRouting.md).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_LIB_DIALECT_FABRIC_TRANSFORMS_FLOWPROBLEM_H
#define TESSERA_LIB_DIALECT_FABRIC_TRANSFORMS_FLOWPROBLEM_H

#include "tessera/Dialect/Fabric/IR/FabricOps.h"
#include "tessera/Routing/FlowRoute.h"
#include "tessera/Routing/RoutingProblem.h"

#include <optional>
#include <vector>

namespace tessera::fabric {

/// The mesh of `fabric`'s rectangle with its allowed colors (memcpy's
/// taken out when the fabric has memcpy), and no flows.
routing::RoutingProblem getMeshProblem(FabricOp fabric);

/// The flow `flow` describes (pinned when its color is a number); none
/// while one of its ends lies in a code region without a position.
std::optional<routing::Flow> getFlow(FlowOp flow);

/// The route attribute of a routed flow, and back.
std::vector<int64_t> encodeRoute(const routing::FlowRoute &route);
routing::FlowRoute decodeRoute(llvm::ArrayRef<int64_t> route);

} // namespace tessera::fabric

#endif // TESSERA_LIB_DIALECT_FABRIC_TRANSFORMS_FLOWPROBLEM_H
