//===- RouterTables.h - per-PE, per-color rx and tx sets --------*- C++ -*-===//
//
// What the routers must be told: for each PE and color a flow uses, the
// ports the color is accepted from and copied to, and which flow that is.
// A later pass turns each entry into a `fabric.color_config`.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_ROUTING_ROUTERTABLES_H
#define TESSERA_ROUTING_ROUTERTABLES_H

#include "tessera/Routing/FlowRoute.h"
#include "tessera/Routing/RoutingProblem.h"

#include <string>
#include <vector>

namespace tessera::routing {

/// How the router of `pe` handles `color`, on behalf of the flow `owner`.
struct ColorConfig {
  PE pe;
  unsigned color = 0;
  PortMask rx = 0, tx = 0;
  std::string owner;

  bool operator==(const ColorConfig &) const = default;
};

struct RouterTables {
  /// Sorted by (y, x, color) when built here; hand-written tables may be in
  /// any order.
  std::vector<ColorConfig> configs;
};

struct TablesResult {
  RouterTables tables;
  std::vector<std::string> errors;

  bool succeeded() const { return errors.empty(); }
};

/// The tables for the flows of `problem` routed as `routes` with `colors`
/// (one of each per flow).
TablesResult buildRouterTables(const RoutingProblem &problem,
                               const std::vector<FlowRoute> &routes,
                               const std::vector<unsigned> &colors);

} // namespace tessera::routing

#endif // TESSERA_ROUTING_ROUTERTABLES_H
