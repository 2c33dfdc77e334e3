//===- RowSearch.h - annealing over the order and the rows ------*- C++ -*-===//
//
// The row planner's estimate ignores how far apart wires between rows run
// sideways, and the traversal order is only one of many. This local search
// starts from a plan and moves kernels in the order (swaps, short moves) and
// row boundaries (shift, split, merge), evaluating every candidate exactly:
// rows at their lowest heights, laid out by layoutRows, scored as the
// contest scores. Worse plans are accepted with the usual annealing
// probability, which falls as the search goes on.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLACEMENT_ROWSEARCH_H
#define TESSERA_PLACEMENT_ROWSEARCH_H

#include "tessera/Placement/Layout.h"
#include "tessera/Placement/StripPacker.h"
#include "tessera/Placement/WireLength.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace tessera::placement {

/// Kernels are numbered 0..n-1 here; `order` is a permutation of them and
/// the rows cut it into consecutive groups.
struct RowPlan {
  std::vector<int> order;
  std::vector<Row> rows;
};

struct PlanEvaluation {
  RowsLayout layout; ///< By position in the order.
  int64_t deltaT = 0;
  int64_t doubledLength = 0;
  double score = 0;
};

class RowSearch {
public:
  /// `menus` and `wires` use kernel numbers; the weights are the score's.
  /// With `stacking`, a row's slot may hold two kernels (StripPacker).
  RowSearch(const std::vector<KernelMenu> &menus,
            std::vector<std::pair<int, int>> wires, int64_t gridWidth,
            int64_t gridHeight, double weightDeltaT, double weightLength,
            bool stacking);

  /// Lays out `plan` with its rows at the given heights (taller than the
  /// lowest if they were stretched); nullopt if a row or the rows together
  /// do not fit.
  std::optional<PlanEvaluation> evaluate(const RowPlan &plan, bool shift) const;

  /// Anneals from `start` for at most `iterations` steps or until
  /// `deadline`; returns the best plan seen (rows at their lowest heights).
  /// With `keepRows`, only the order changes, never the row boundaries.
  RowPlan anneal(RowPlan start, int iterations,
                 std::chrono::steady_clock::time_point deadline, uint64_t seed,
                 bool keepRows = false) const;

  /// The packer for an order (menus by position).
  StripPacker getPacker(const std::vector<int> &order) const;
  /// The wires as pairs of positions in `order`.
  std::vector<std::pair<int, int>>
  getPositionWires(const std::vector<int> &order) const;

private:
  /// Sets every row to its lowest height; false if they do not fit.
  bool setLowestHeights(const StripPacker &packer,
                        std::vector<Row> &rows) const;

  const std::vector<KernelMenu> &menus;
  std::unique_ptr<StackCache> stacks;
  std::vector<std::pair<int, int>> wires;
  int64_t gridWidth, gridHeight;
  double weightDeltaT, weightLength;
};

} // namespace tessera::placement

#endif // TESSERA_PLACEMENT_ROWSEARCH_H
