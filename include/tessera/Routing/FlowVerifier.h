//===- FlowVerifier.h - follow each flow through router tables --*- C++ -*-===//
//
// An independent check of what the router, the color assigner and the
// table builder produce, sharing none of their algorithms: it sends each
// flow's color from its source through the tables, as the routers would,
// and reports every place where the flow does not do exactly what it says.
// Tables may also be written by hand (entries name their flow), so broken
// tables can be checked too.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_ROUTING_FLOWVERIFIER_H
#define TESSERA_ROUTING_FLOWVERIFIER_H

#include "tessera/Routing/RouterTables.h"
#include "tessera/Routing/RoutingProblem.h"

#include <string>
#include <vector>

namespace tessera::routing {

enum class FindingKind {
  InvalidInput,     ///< The problem or the colors are malformed.
  OutsideMesh,      ///< An entry lies outside the mesh.
  DuplicateConfig,  ///< A PE configures one color twice.
  UnknownOwner,     ///< An entry names no flow.
  NotConfigured,    ///< The flow reaches a PE that does not route its color.
  NotAccepted,      ///< The flow arrives on a port outside the rx set.
  Meet,             ///< Two flows of one color reach one router.
  Loop,             ///< The flow comes back to a PE on its own path.
  ReceivedTwice,    ///< A PE receives the flow on two ports at once.
  BlockedPE,        ///< The flow crosses a blocked PE.
  MissedSink,       ///< A sink never gets the flow.
  StrayDelivery,    ///< A CE that is no sink gets the flow.
  StrayExit,        ///< The flow leaves the fabric where it has no sink.
  UnreachedConfig,  ///< An entry of the flow its wavelets never reach.
  LinkOverCapacity, ///< A link carries more flows than it holds.
};

struct Finding {
  FindingKind kind = FindingKind::InvalidInput;
  /// The flows involved, by name (a link's: those on it); empty for
  /// malformed input.
  std::vector<std::string> flows;
  /// Where it happens (a link's: the PE it leaves or enters).
  PE pe;
  /// The flows' color (0 for input and link findings).
  unsigned color = 0;
  std::string message;
};

/// Checks `tables` against the flows of `problem` with `colors` (one per
/// flow). Findings come in a fixed order: input, table entries, then flow by
/// flow, then unreached entries and links.
std::vector<Finding> verifyFlows(const RoutingProblem &problem,
                                 const std::vector<unsigned> &colors,
                                 const RouterTables &tables);

} // namespace tessera::routing

#endif // TESSERA_ROUTING_FLOWVERIFIER_H
