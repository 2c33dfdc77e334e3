//===- RowPlanner.h - rows that keep the wires short ------------*- C++ -*-===//
//
// A second dynamic program over the same rows as StripPacker, which
// minimises an estimate of the wire length instead of the height: within a
// row the exact distances of the wires between its kernels; for a wire
// between rows its vertical distance (with kernels centred in their rows,
// half of each end row's height plus the heights of the rows in between)
// and optionally a bound on its horizontal length. The state is (kernels
// placed, height used); each row takes the lowest height that holds it, and
// stretchRows can then share out the height left over.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLACEMENT_ROWPLANNER_H
#define TESSERA_PLACEMENT_ROWPLANNER_H

#include "tessera/Placement/StripPacker.h"

#include <optional>
#include <utility>
#include <vector>

namespace tessera::placement {

/// Rows of least estimated wire length for `packer`'s kernels, each at its
/// lowest height; `wires` are pairs of positions in the order. nullopt if
/// the kernels do not fit. With `chargeTurns`, a wire between rows is also
/// charged its ends' distances from the ends of the rows where serpentine
/// rows turn (an upper bound on its horizontal length); without, nothing.
std::optional<std::vector<Row>>
planRows(const StripPacker &packer,
         const std::vector<std::pair<int, int>> &wires, bool chargeTurns);

/// Shares the height the rows leave free among them where, by the same
/// estimate, it shortens the wires most (a knapsack over the rows).
void stretchRows(const StripPacker &packer,
                 const std::vector<std::pair<int, int>> &wires,
                 std::vector<Row> &rows);

} // namespace tessera::placement

#endif // TESSERA_PLACEMENT_ROWPLANNER_H
