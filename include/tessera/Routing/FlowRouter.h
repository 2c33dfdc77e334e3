//===- FlowRouter.h - negotiated-congestion routing of flows ----*- C++ -*-===//
//
// PathFinder over a graph of router ports: every iteration rips up and
// reroutes every flow, in the problem's order, at a cost that grows with
// the links' and routers' present overuse and with their history of it,
// until nothing is over capacity. Multicast flows grow a tree sink by sink,
// each from the whole tree so far, nearest sink first. Results depend only
// on the problem: ties are broken by a fixed order, so two runs give the
// same routes. docs/FlowRouting.md gives the costs and the messages.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_ROUTING_FLOWROUTER_H
#define TESSERA_ROUTING_FLOWROUTER_H

#include "tessera/Routing/FlowRoute.h"
#include "tessera/Routing/RoutingProblem.h"

#include <string>
#include <vector>

namespace tessera::routing {

struct RouterOptions {
  /// After this many iterations with an overused resource, routing fails.
  int maxIterations = 40;
  /// The weight of present overuse in the first iteration, and its growth
  /// per iteration.
  double initialPresentFactor = 0.5;
  double presentFactorGrowth = 1.5;
  /// How much each iteration's overuse adds to a resource's history cost.
  double historyFactor = 1.0;
};

/// A resource more flows need than it holds, when routing gives up.
struct Overuse {
  enum class Kind {
    Link,      ///< The link leaving `pe` through `port` (maybe off the edge).
    EdgeEntry, ///< The link entering `pe` through `port` from beyond the edge.
    Router,    ///< The router of `pe`.
    PinnedColor, ///< The router of `pe`, for the flows pinned to `color`.
  };
  Kind kind = Kind::Link;
  PE pe;
  Port port = Port::Ramp;
  unsigned color = 0;
  int flows = 0;
  int capacity = 0;

  bool operator==(const Overuse &) const = default;
};

struct RoutingResult {
  /// One route per flow, in the problem's order; empty on failure.
  std::vector<FlowRoute> routes;
  /// Empty on success; otherwise the invalid input or the one reason the
  /// flows cannot be routed.
  std::vector<std::string> errors;
  /// On failure: the flows (indices into the problem's flows) that cannot
  /// be routed, and what they overuse.
  std::vector<int> unroutedFlows;
  std::vector<Overuse> overuses;
  int iterations = 0;

  bool succeeded() const { return errors.empty(); }
};

RoutingResult routeFlows(const RoutingProblem &problem,
                         const RouterOptions &options = {});

} // namespace tessera::routing

#endif // TESSERA_ROUTING_FLOWROUTER_H
