//===- CapRowBuilder.h - one row of columns with towers ---------*- C++ -*-===//
//
// Internal to TesseraPlacement: lays out one row of full-height columns
// with a tower of flat kernels at either end (CapRow.h) for one order and
// one pair of towers, and keeps the shortest layout that fits over every
// order and tower it is asked about. layoutCapRow searches the towers of
// one order; annealCapRow (CapRowSearch.h) also changes the order.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_LIB_PLACEMENT_CAPROWBUILDER_H
#define TESSERA_LIB_PLACEMENT_CAPROWBUILDER_H

#include "tessera/Placement/CapRow.h"

#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace tessera::placement {

/// The end kernels stacked flat at one end of the row: how many, and the
/// widest any of them may be (each takes its lowest shape that narrow).
struct Tower {
  int count = 0;
  int64_t width = 0;
};

/// What a layout needs and costs; `used` may exceed the grid's width.
struct Outcome {
  int64_t used = 0, length = 0;
};

class CapRowBuilder {
public:
  CapRowBuilder(const std::vector<KernelMenu> &menus, std::vector<int> order,
                const std::vector<std::pair<int, int>> &wires,
                int64_t gridWidth, int64_t gridHeight, int maxTower);

  /// Replaces the order (the same kernels, rearranged or not).
  void setOrder(const std::vector<int> &newOrder);
  const std::vector<int> &getOrder() const { return order; }

  /// Lays out every tower of one end alone and the most promising pairs,
  /// for the present order.
  void searchTowers();

  /// Lays out the row with `first` over the left end's columns and `last`
  /// under the right end's (count 0: no tower); nullopt if a kernel finds
  /// no shape or too few columns lie under a tower. Remembers the layout
  /// if it fits and is the shortest so far.
  std::optional<Outcome> evaluate(Tower first, Tower last);

  /// The shortest layout that fitted so far, with its order and towers.
  std::optional<CapRowLayout> getBest() const;
  std::pair<Tower, Tower> getBestTowers() const { return bestTowers; }
  int getMaxTower() const { return maxTower; }

private:
  /// A kernel's shape and rectangle; RefineKernel without the menu's
  /// shapes, which would be copied for every one of the layouts tried.
  struct Placed {
    int shape = -1;
    bool rotated = false;
    Rect rect;
  };

  void addWidths(int position, std::set<int64_t> &widths) const;
  int64_t getLowestBand(int position, int64_t width) const;
  bool place(int position, int64_t band, int64_t top, int64_t x,
             Placed &item) const;
  int64_t stackTower(int begin, int end, int64_t width, bool fromBottom,
                     std::vector<Placed> &items, int64_t &widest) const;
  static std::vector<std::pair<Tower, Outcome>>
  getFront(std::vector<std::pair<Tower, Outcome>> towers);
  void combine(const Outcome &plain,
               const std::vector<std::pair<Tower, Outcome>> &firsts,
               const std::vector<std::pair<Tower, Outcome>> &lasts);

  const std::vector<KernelMenu> &menus;
  std::vector<int> order;
  /// Wires between kernels of the order, by kernel number, and every
  /// kernel's position in the order (-1 if absent).
  std::vector<std::pair<int, int>> kernelWires;
  std::vector<int> positionOf;
  int64_t gridWidth, gridHeight;
  int maxTower;
  std::vector<Placed> scratch, best;
  std::vector<int> bestOrder;
  std::pair<Tower, Tower> bestTowers;
  int64_t bestLength = 0;
};

} // namespace tessera::placement

#endif // TESSERA_LIB_PLACEMENT_CAPROWBUILDER_H
