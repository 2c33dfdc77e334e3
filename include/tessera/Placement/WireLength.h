//===- WireLength.h - the placer's view of rectangles and wires -*- C++ -*-===//
//
// Wire length is the sum over connections between two placed kernels of the
// L1 distance between the centres of their rectangles. Connections to input
// and output nodes count nothing: those nodes have no position on the grid.
// Centres lie on half tiles, so lengths are kept doubled, in integers.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLACEMENT_WIRELENGTH_H
#define TESSERA_PLACEMENT_WIRELENGTH_H

#include "tessera/Placement/KernelGraph.h"

#include <cstdint>
#include <vector>

namespace tessera::placement {

/// A placed rectangle: corner (x, y) and its extents along x and y.
struct Rect {
  int64_t x = 0, y = 0, sizeX = 0, sizeY = 0;
  int64_t doubledCentreX() const { return 2 * x + sizeX; }
  int64_t doubledCentreY() const { return 2 * y + sizeY; }
};

/// The connections between placeable kernels as pairs of node indices.
std::vector<std::pair<int, int>> getKernelWires(const KernelGraph &graph);

/// Twice the wire length of `wires` for rectangles indexed by node.
int64_t getDoubledWireLength(const std::vector<std::pair<int, int>> &wires,
                             const std::vector<Rect> &rects);

} // namespace tessera::placement

#endif // TESSERA_PLACEMENT_WIRELENGTH_H
