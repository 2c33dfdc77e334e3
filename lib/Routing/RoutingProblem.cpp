//===- RoutingProblem.cpp - checking the mesh and the flows ---------------===//

#include "tessera/Routing/RoutingProblem.h"
#include "tessera/Routing/ColorAssigner.h"

#include "Format.h"

#include <algorithm>
#include <set>

namespace tessera::routing {
namespace {

class ProblemValidator {
public:
  explicit ProblemValidator(const RoutingProblem &problem) : problem(problem) {}

  std::vector<std::string> run() {
    if (problem.width < 1 || problem.height < 1) {
      // Nothing else can be checked against a mesh that does not exist.
      errors.push_back("the mesh must be at least 1x1, got " +
                       std::to_string(problem.width) + "x" +
                       std::to_string(problem.height));
      return errors;
    }
    for (PE pe : problem.blockedPEs)
      if (!contains(pe))
        errors.push_back("blocked " + formatPE(pe) + " is outside " + mesh());
    checkColors();
    checkCapacities();
    std::set<std::string> names;
    for (size_t i = 0; i < problem.flows.size(); ++i) {
      const Flow &flow = problem.flows[i];
      if (flow.name.empty())
        errors.push_back("flow " + std::to_string(i) + " has no name");
      else if (!names.insert(flow.name).second)
        errors.push_back("flow '" + flow.name + "' is declared twice");
      checkFlow(flow);
    }
    return errors;
  }

private:
  std::string mesh() const { return formatMesh(problem.width, problem.height); }

  bool contains(PE pe) const {
    return pe.x >= 0 && pe.y >= 0 && pe.x < problem.width &&
           pe.y < problem.height;
  }

  bool isBlocked(PE pe) const {
    return std::find(problem.blockedPEs.begin(), problem.blockedPEs.end(),
                     pe) != problem.blockedPEs.end();
  }

  bool facesEdge(PE pe, Port port) const {
    switch (port) {
    case Port::West:
      return pe.x == 0;
    case Port::East:
      return pe.x == problem.width - 1;
    case Port::North:
      return pe.y == 0;
    case Port::South:
      return pe.y == problem.height - 1;
    case Port::Ramp:
      break;
    }
    return false;
  }

  void checkColors() {
    std::set<unsigned> seen;
    for (unsigned color : problem.colors)
      if (!seen.insert(color).second)
        errors.push_back("color " + std::to_string(color) + " is listed twice");
    if (problem.colors.empty() && !problem.flows.empty())
      errors.push_back("no colors are allowed");
  }

  void checkCapacities() {
    if (problem.linkCapacity && *problem.linkCapacity < 0)
      errors.push_back("link capacity " +
                       std::to_string(*problem.linkCapacity) + " is negative");
    if (problem.peCapacity && *problem.peCapacity < 0)
      errors.push_back("router capacity " +
                       std::to_string(*problem.peCapacity) + " is negative");
    std::set<std::pair<PE, Port>> seen;
    for (const LinkCapacity &link : problem.linkCapacities) {
      std::string what = "link capacity for " + formatPE(link.from) + " " +
                         std::string(getPortName(link.direction)) + ": ";
      if (!contains(link.from))
        errors.push_back(what + "the PE is outside " + mesh());
      else if (link.direction == Port::Ramp)
        errors.push_back(what + "only mesh ports have links");
      else if (link.capacity < 0)
        errors.push_back(what + std::to_string(link.capacity) + " is negative");
      else if (!seen.insert({link.from, link.direction}).second)
        errors.push_back(what + "given twice");
    }
  }

  /// Checks a source or sink; `role` is "source" or "sink".
  void checkEndpoint(const Flow &flow, const Endpoint &endpoint,
                     const std::string &role,
                     std::optional<Port> via = std::nullopt) {
    std::string what =
        "flow '" + flow.name + "': " + role + " " + formatEndpoint(endpoint);
    if (!contains(endpoint.pe))
      errors.push_back(what + " is outside " + mesh());
    else if (isBlocked(endpoint.pe))
      errors.push_back(what + " is blocked");
    else if (endpoint.port != Port::Ramp &&
             !facesEdge(endpoint.pe, endpoint.port))
      errors.push_back(what + " is not on the fabric edge");
    else if (via && (*via == Port::Ramp || facesEdge(endpoint.pe, *via)))
      errors.push_back(what + " must use its " +
                       std::string(getPortName(*via)) +
                       " port, which leads to no neighbour");
    else if (via && endpoint.port != Port::Ramp)
      errors.push_back(what + " is on the fabric edge and cannot require a "
                              "port");
  }

  void checkFlow(const Flow &flow) {
    checkEndpoint(flow, flow.source, "source", flow.sourceVia);
    if (!flow.sinkVias.empty() && flow.sinkVias.size() != flow.sinks.size())
      errors.push_back("flow '" + flow.name + "' has " +
                       std::to_string(flow.sinkVias.size()) +
                       " required sink ports for " +
                       std::to_string(flow.sinks.size()) + " sinks");
    if (flow.sinks.empty())
      errors.push_back("flow '" + flow.name + "' has no sinks");
    for (size_t i = 0; i < flow.sinks.size(); ++i) {
      const Endpoint &sink = flow.sinks[i];
      if (std::find(flow.sinks.begin(), flow.sinks.begin() + i, sink) !=
          flow.sinks.begin() + i) {
        errors.push_back("flow '" + flow.name + "': sink " +
                         formatEndpoint(sink) + " is listed twice");
        continue;
      }
      checkEndpoint(flow, sink, "sink",
                    i < flow.sinkVias.size() ? flow.sinkVias[i]
                                             : std::nullopt);
    }
    if (flow.pinnedColor &&
        std::find(problem.colors.begin(), problem.colors.end(),
                  *flow.pinnedColor) == problem.colors.end()) {
      std::string allowed =
          problem.colors.empty() ? "none" : formatColorList(problem.colors);
      errors.push_back("flow '" + flow.name + "' is pinned to color " +
                       std::to_string(*flow.pinnedColor) +
                       ", which is not among the allowed colors (" + allowed +
                       ")");
    }
  }

  const RoutingProblem &problem;
  std::vector<std::string> errors;
};

} // namespace

std::vector<std::string> validateProblem(const RoutingProblem &problem) {
  return ProblemValidator(problem).run();
}

std::string formatEndpoint(const Endpoint &endpoint) {
  std::string text = formatPE(endpoint.pe);
  if (endpoint.port != Port::Ramp)
    text += " " + std::string(getPortName(endpoint.port));
  return text;
}

} // namespace tessera::routing
