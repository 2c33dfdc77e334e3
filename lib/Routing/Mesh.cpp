//===- Mesh.cpp - lookups into a routing problem's mesh -------------------===//

#include "tessera/Routing/Mesh.h"

namespace tessera::routing {

Mesh::Mesh(const RoutingProblem &problem)
    : width(problem.width), height(problem.height),
      defaultLinkCapacity(problem.linkCapacity.value_or(
          static_cast<int>(problem.colors.size()))),
      peCapacity(
          problem.peCapacity.value_or(static_cast<int>(problem.colors.size()))),
      blocked(getNumPEs(), false),
      linkCapacity(getNumPEs() * NumMeshPorts, defaultLinkCapacity) {
  for (PE pe : problem.blockedPEs)
    if (contains(pe))
      blocked[getIndex(pe)] = true;
  for (const LinkCapacity &link : problem.linkCapacities)
    if (contains(link.from) && link.direction != Port::Ramp)
      linkCapacity[getIndex(link.from) * NumMeshPorts +
                   getPortIndex(link.direction)] = link.capacity;
}

bool Mesh::facesEdge(PE pe, Port port) const {
  if (port == Port::Ramp)
    return false;
  return !contains(getNeighbour(pe, port));
}

} // namespace tessera::routing
