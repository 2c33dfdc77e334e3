//===- CapRow.h - one row of full-height columns with towers -*- C++ -*-===//
//
// On a chain of kernels the wires are shortest when every kernel is a column
// as tall as the grid and the chain runs along one row: each wire is then
// half the two columns' widths. At the δT cap that row is often a few tiles
// too wide, and the DP rows fold the chain instead, paying a turn of half
// the grid per fold (benchmarks A, I, N). A tower saves the width: the
// order's first (or last) few kernels are lifted out of the row and laid
// flat, stacked, across the top (bottom) of the columns at that end, which
// are made low enough to leave them room. The wires inside the tower are
// short (flat kernels stacked) and only the wires leaving it run about half
// the grid's height, less than a fold. A tower of one kernel is a cap; one
// of many full-width kernels is the strips-over-a-tall-row layout of the
// rows (J), but a tower may also be narrower and leave the columns beside
// it their full height (B).
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
  /// The order the row follows (kernel numbers).
  std::vector<int> order;
  /// Every kernel's shape and rectangle, by position in the order.
  std::vector<RefineKernel> kernels;
  int64_t doubledLength = 0;
};

/// Lays `order` (kernel numbers, indices into `menus`) out as one row of
/// columns as tall as the grid, with no tower or with a tower of at most
/// `maxTower` kernels at either end or both, whichever fits with the
/// shortest wires; `wires` are pairs of kernel numbers. nullopt if no
/// variant fits the grid. Every tower of one end alone is laid out (all
/// counts, every width at which a kernel's lowest flat shape changes);
/// towers at both ends are tried for the pairs whose widths, measured
/// alone, add up to a row that fits, shortest estimate first.
std::optional<CapRowLayout>
layoutCapRow(const std::vector<KernelMenu> &menus,
             const std::vector<int> &order,
             const std::vector<std::pair<int, int>> &wires, int64_t gridWidth,
             int64_t gridHeight, int maxTower = 1 << 30);

} // namespace tessera::placement

#endif // TESSERA_PLACEMENT_CAPROW_H
