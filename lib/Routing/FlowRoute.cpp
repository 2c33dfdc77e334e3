//===- FlowRoute.cpp - the tree a routed flow takes -----------------------===//

#include "tessera/Routing/FlowRoute.h"

#include <algorithm>

namespace tessera::routing {

std::vector<Link> getLinks(const FlowRoute &route, int width, int height) {
  std::vector<Link> links;
  for (const RouteHop &hop : route.hops)
    for (int i = 0; i < NumMeshPorts; ++i) {
      Port port = getPort(i);
      PE next = getNeighbour(hop.pe, port);
      bool inside =
          next.x >= 0 && next.y >= 0 && next.x < width && next.y < height;
      if (containsPort(hop.tx, port) && inside)
        links.push_back({hop.pe, port});
    }
  std::sort(links.begin(), links.end());
  return links;
}

} // namespace tessera::routing
