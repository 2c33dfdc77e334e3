//===- CapRowSearch.h - an order for one row of columns ---------*- C++ -*-===//
//
// layoutCapRow lays out one order. The order decides which kernels stand
// side by side and which end kernels can be lifted into a tower, and the
// orders the row planner produces are folded for rows, not for one row.
// annealCapRow anneals the order and the two towers together, laying out
// each candidate for its towers alone (O(n), against thousands of layouts
// for a full tower search) and charging the width beyond the grid, then
// searches every tower for the best order it met.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLACEMENT_CAPROWSEARCH_H
#define TESSERA_PLACEMENT_CAPROWSEARCH_H

#include "tessera/Placement/CapRow.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace tessera::placement {

/// The shortest one-row layout (CapRow.h) met while annealing `start` and
/// its towers for `steps` steps from `seed`, or nullopt if none fits.
/// Deterministic for a seed.
std::optional<CapRowLayout> annealCapRow(
    const std::vector<KernelMenu> &menus, const std::vector<int> &start,
    const std::vector<std::pair<int, int>> &wires, int64_t gridWidth,
    int64_t gridHeight, int steps, uint64_t seed, int maxTower = 1 << 30);

} // namespace tessera::placement

#endif // TESSERA_PLACEMENT_CAPROWSEARCH_H
