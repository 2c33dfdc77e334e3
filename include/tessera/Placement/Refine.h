//===- Refine.h - detailed placement after the rows -------------*- C++ -*-===//
//
// The rows fix every kernel's band; the space they leave (the ends of short
// rows, the room above and below kernels lower than their band, the whole
// grid when utilisation is low) goes unused. refinePlacement is a greedy
// local search on the final rectangles: a kernel may move anywhere it fits,
// taking any of its shapes in either orientation, and two kernels may trade
// places, whenever that shortens the wires. It accepts strict improvements
// only and visits kernels in a fixed order, so it never lengthens the wires,
// never makes rectangles overlap and is deterministic.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLACEMENT_REFINE_H
#define TESSERA_PLACEMENT_REFINE_H

#include "tessera/Placement/Variants.h"
#include "tessera/Placement/WireLength.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace tessera::placement {

struct RefineKernel {
  std::vector<Shape> shapes; ///< What the kernel may take, R0 or R90.
  int shape = 0;             ///< The one it has.
  bool rotated = false;      ///< R90: the shape's width runs along y.
  Rect rect;                 ///< Where it is; sizes match the shape.
};

struct RefineOptions {
  int64_t gridWidth = 0, gridHeight = 0;
  /// Shapes slower than this are never taken, so δT cannot grow.
  int64_t maxTime = 0;
  /// Rounds over all kernels; each stops early once nothing improves.
  int passes = 4;
};

/// Improves `kernels` in place and returns twice the wire length of
/// `wires` (pairs of indices into `kernels`) afterwards. The rectangles
/// must start inside the grid and disjoint; they stay so.
int64_t refinePlacement(std::vector<RefineKernel> &kernels,
                        const std::vector<std::pair<int, int>> &wires,
                        const RefineOptions &options);

} // namespace tessera::placement

#endif // TESSERA_PLACEMENT_REFINE_H
