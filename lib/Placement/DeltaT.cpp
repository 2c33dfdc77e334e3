//===- DeltaT.cpp - the target time per sample ----------------------------===//

#include "tessera/Placement/DeltaT.h"

#include <algorithm>

namespace tessera::placement {

std::vector<VariantEnumerator> makeEnumerators(const KernelGraph &graph) {
  int64_t maxSide = std::max(graph.gridWidth, graph.gridHeight);
  std::vector<VariantEnumerator> enumerators;
  for (int index : graph.kernels())
    enumerators.emplace_back(graph.nodes[index], graph.memLimit, maxSide);
  return enumerators;
}

bool fitsGrid(const KernelGraph &graph, int64_t height, int64_t width) {
  return (height <= graph.gridHeight && width <= graph.gridWidth) ||
         (width <= graph.gridHeight && height <= graph.gridWidth);
}

int64_t getSlowestDeltaT(const std::vector<VariantEnumerator> &enumerators) {
  int64_t slowest = 1;
  for (const VariantEnumerator &enumerator : enumerators)
    slowest = std::max(slowest, enumerator.getSlowestTime());
  return slowest;
}

std::optional<int64_t>
findSmallestDeltaT(int64_t low, int64_t high,
                   const std::function<bool(int64_t)> &holds) {
  if (low > high || !holds(high))
    return std::nullopt;
  while (low < high) {
    int64_t middle = low + (high - low) / 2;
    if (holds(middle))
      high = middle;
    else
      low = middle + 1;
  }
  return high;
}

std::optional<int64_t>
getDeltaTLowerBound(const KernelGraph &graph,
                    const std::vector<VariantEnumerator> &enumerators) {
  if (enumerators.empty())
    return 0;
  int64_t gridArea = graph.gridWidth * graph.gridHeight;
  auto fits = [&](int64_t deltaT) {
    int64_t totalArea = 0;
    for (const VariantEnumerator &enumerator : enumerators) {
      int64_t smallest = -1;
      for (const Shape &shape : enumerator.getShapes(deltaT))
        if (fitsGrid(graph, shape.height, shape.width) &&
            (smallest < 0 || shape.area() < smallest))
          smallest = shape.area();
      if (smallest < 0)
        return false;
      totalArea += smallest;
      if (totalArea > gridArea)
        return false;
    }
    return true;
  };
  return findSmallestDeltaT(1, getSlowestDeltaT(enumerators), fits);
}

} // namespace tessera::placement
