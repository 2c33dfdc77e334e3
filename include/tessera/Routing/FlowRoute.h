//===- FlowRoute.h - the tree a routed flow takes ---------------*- C++ -*-===//
//
// A routed flow is a tree of PEs: each PE of it receives the flow through
// exactly one port and copies it to one or more. At the source PE that port
// is the source's (RAMP or the edge port); at a sink PE the tx set holds
// RAMP, or the edge port of an edge sink.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_ROUTING_FLOWROUTE_H
#define TESSERA_ROUTING_FLOWROUTE_H

#include "tessera/Routing/Port.h"

#include <vector>

namespace tessera::routing {

/// One PE of a routed flow.
struct RouteHop {
  PE pe;
  Port rx = Port::Ramp;
  PortMask tx = 0;

  bool operator==(const RouteHop &) const = default;
};

/// A directed link between two neighbouring PEs.
struct Link {
  PE from;
  Port direction = Port::East;

  bool operator==(const Link &) const = default;
  bool operator<(const Link &other) const {
    return from == other.from ? direction < other.direction : from < other.from;
  }
};

struct FlowRoute {
  /// One hop per PE of the tree, sorted by (y, x).
  std::vector<RouteHop> hops;

  bool operator==(const FlowRoute &) const = default;
};

/// The links between PEs the route uses, sorted; edge ports are not links
/// between PEs and are left out.
std::vector<Link> getLinks(const FlowRoute &route, int width, int height);

} // namespace tessera::routing

#endif // TESSERA_ROUTING_FLOWROUTE_H
