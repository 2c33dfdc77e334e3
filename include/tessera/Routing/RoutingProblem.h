//===- RoutingProblem.h - the mesh and the flows to route -------*- C++ -*-===//
//
// What the router, the color assigner and the verifier are given: a
// width x height mesh of PEs, PEs no flow may cross (memcpy's margins, for
// example), the colors flows may get, how many flows a link and a router
// can carry, and the flows. A flow has one source and one or more sinks;
// each is a PE's CE (RAMP) or a port on the fabric edge through which
// wavelets enter or leave the mesh. docs/FlowRouting.md describes the model.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_ROUTING_ROUTINGPROBLEM_H
#define TESSERA_ROUTING_ROUTINGPROBLEM_H

#include "tessera/Routing/Port.h"

#include <optional>
#include <string>
#include <vector>

namespace tessera::routing {

/// Where a flow enters or leaves the routers: the CE of `pe` (Port::Ramp),
/// or the mesh port of an edge PE that faces off the fabric.
struct Endpoint {
  PE pe;
  Port port = Port::Ramp;

  bool operator==(const Endpoint &) const = default;
};

struct Flow {
  std::string name;
  /// A source on an edge port enters `pe` from beyond the edge.
  Endpoint source;
  /// A sink on an edge port leaves `pe` through that port.
  std::vector<Endpoint> sinks;
  /// A color the flow must have; it must be one of the problem's colors.
  std::optional<unsigned> pinnedColor;
  /// Mesh ports the flow must use, where a layout configured its color by
  /// hand: the one it leaves its source by, and per sink (empty, or one
  /// entry per sink) the one it enters by.
  std::optional<Port> sourceVia = std::nullopt;
  std::vector<std::optional<Port>> sinkVias = {};
};

/// The capacity of the directed link leaving `from` through `direction`
/// (a mesh port); at the fabric edge, the link off the fabric.
struct LinkCapacity {
  PE from;
  Port direction = Port::East;
  int capacity = 0;
};

struct RoutingProblem {
  int width = 0, height = 0;
  std::vector<PE> blockedPEs;
  /// The colors flows may get, most preferred first: the target's routable
  /// colors without the reserved ones (the caller asks TargetModel).
  std::vector<unsigned> colors;
  /// How many flows each directed link carries at most; unset: as many as
  /// there are colors. 0 closes a link.
  std::optional<int> linkCapacity;
  /// Per-link exceptions to `linkCapacity`.
  std::vector<LinkCapacity> linkCapacities;
  /// How many flows one router carries at most; unset: as many as there
  /// are colors, since flows crossing one router need distinct colors.
  std::optional<int> peCapacity;
  std::vector<Flow> flows;
};

/// Every problem with `problem` as a message; empty if it can be routed.
std::vector<std::string> validateProblem(const RoutingProblem &problem);

/// "PE (2, 0)" for a CE, "PE (4, 0) east" for an edge port.
std::string formatEndpoint(const Endpoint &endpoint);

} // namespace tessera::routing

#endif // TESSERA_ROUTING_ROUTINGPROBLEM_H
