//===- WireLength.cpp - the placer's view of rectangles and wires ---------===//

#include "tessera/Placement/WireLength.h"

#include <cstdlib>

namespace tessera::placement {

std::vector<std::pair<int, int>> getKernelWires(const KernelGraph &graph) {
  std::vector<std::pair<int, int>> wires;
  for (const Connection &connection : graph.connections)
    if (isPlaceable(graph.nodes[connection.from].kind) &&
        isPlaceable(graph.nodes[connection.to].kind))
      wires.emplace_back(connection.from, connection.to);
  return wires;
}

int64_t getDoubledWireLength(const std::vector<std::pair<int, int>> &wires,
                             const std::vector<Rect> &rects) {
  int64_t total = 0;
  for (auto [from, to] : wires)
    total +=
        std::llabs(rects[from].doubledCentreX() - rects[to].doubledCentreX()) +
        std::llabs(rects[from].doubledCentreY() - rects[to].doubledCentreY());
  return total;
}

} // namespace tessera::placement
