//===- CapRow.h - one row of full-height columns with a cap -*- C++ -*-===//
//
// On a chain of kernels the wires are shortest when every kernel is a column
// as tall as the grid and the chain runs along one row: each wire is then
// half the two columns' widths. At the δT cap that row is often a few tiles
// too wide, and the DP rows fold the chain instead, paying a turn of half
// the grid per fold (benchmarks A, I, N). A cap saves the width: the
// order's first (or last) kernel is lifted out of the row and laid flat
// across the top (bottom) of the columns at that end, which are made low
// enough to leave it room. Its one wire then runs about half the grid's
// height, less than a fold.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLACEMENT_CAPROW_H
#define TESSERA_PLACEMENT_CAPROW_H

#include "tessera/Placement/Refine.h"
#include "tessera/Placement/StripPacker.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace tessera::placement {

struct CapRowLayout {
  /// Every kernel's shape and rectangle, by position in the order.
  std::vector<RefineKernel> kernels;
  int64_t doubledLength = 0;
};

/// Lays `order` (kernel numbers, indices into `menus`) out as one row of
/// columns as tall as the grid, with no cap or with the first or the last
/// kernel as a cap, whichever fits with the shortest wires; `wires` are
/// pairs of kernel numbers. nullopt if no variant fits the grid.
std::optional<CapRowLayout>
layoutCapRow(const std::vector<KernelMenu> &menus,
             const std::vector<int> &order,
             const std::vector<std::pair<int, int>> &wires, int64_t gridWidth,
             int64_t gridHeight);

} // namespace tessera::placement

#endif // TESSERA_PLACEMENT_CAPROW_H
