//===- StripPacker.h - kernels in rows by dynamic programming ---*- C++ -*-===//
//
// The DP-strips packing: kernels in a fixed order are cut into consecutive
// groups, one horizontal row (strip) each. A row of height H holds its
// kernels side by side in slots; a slot holds one kernel in its narrowest
// rectangle of height at most H (R0 or R90), or two consecutive kernels
// stacked, whose heights share H. The dynamic programs pick the slots of a
// row (narrowest row) and the cuts and heights of the rows (lowest total).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLACEMENT_STRIPPACKER_H
#define TESSERA_PLACEMENT_STRIPPACKER_H

#include "tessera/Placement/Variants.h"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace tessera::placement {

/// A kernel's shapes at one δT, indexed by the height of the band it gets.
struct KernelMenu {
  std::vector<Shape> shapes;
  /// For each band height H in [0, gridHeight]: the narrowest horizontal
  /// extent of a rectangle with vertical extent <= H (gridWidth + 1 if
  /// none), the shape it comes from (-1 if none) and whether it is R90.
  std::vector<int64_t> extent;
  std::vector<int> shape;
  std::vector<bool> rotated;

  KernelMenu(std::vector<Shape> shapes, int64_t gridWidth, int64_t gridHeight);
  int64_t getVerticalExtent(int64_t bandHeight) const;
  bool empty() const { return shapes.empty(); }
};

struct Row {
  int begin = 0, end = 0; ///< Positions in the order.
  int64_t height = 0;
};

/// Where a kernel sits in its row, relative to the row's left end and top
/// when the row runs left to right.
struct RowItem {
  int64_t x = 0, y = 0, sizeX = 0, sizeY = 0;
  /// The band of the row the kernel owns: all of it, or its share of a
  /// stacked slot. Its rectangle is the menu's choice for bandHeight.
  int64_t bandTop = 0, bandHeight = 0;
  int slot = 0; ///< Slots stand side by side, numbered from the left.
};

/// The narrowest slot of each height holding two kernels stacked, the
/// first on top in a band of `split[H]` rows.
struct StackedPair {
  std::vector<int64_t> extent;
  std::vector<int> split;
};

/// Stacked pairs by the two menus, computed once and shared by the packers
/// of every order a search tries. Not thread-safe.
class StackCache {
public:
  StackCache(int64_t gridWidth, int64_t gridHeight)
      : gridWidth(gridWidth), gridHeight(gridHeight) {}
  const StackedPair &get(const KernelMenu *top, const KernelMenu *bottom);

private:
  int64_t gridWidth, gridHeight;
  std::map<std::pair<const KernelMenu *, const KernelMenu *>, StackedPair>
      pairs;
};

class StripPacker {
public:
  /// `menus` in the order the rows take the kernels. With a cache, slots
  /// may hold two kernels stacked; without, one.
  StripPacker(std::vector<const KernelMenu *> menus, int64_t gridWidth,
              int64_t gridHeight, StackCache *stacks = nullptr);

  /// The width of the narrowest row of height H holding [begin, end).
  int64_t getRowWidth(int begin, int end, int64_t height) const;
  /// The lowest row height that holds kernels [begin, end) in the grid's
  /// width, or gridHeight + 1 if none does.
  int64_t getRowHeight(int begin, int end) const;
  /// The kernels of a row of height H, left to right: with as few stacked
  /// slots as fit the grid's width (stacking two kernels puts a tall wire
  /// between them), the narrowest such row. The row must fit.
  std::vector<RowItem> layoutRow(int begin, int end, int64_t height) const;

  /// The rows of least total height; nullopt if they exceed the grid.
  std::optional<std::vector<Row>> packLowest() const;

  int size() const { return static_cast<int>(menus.size()); }
  const KernelMenu &getMenu(int position) const { return *menus[position]; }
  int64_t getGridWidth() const { return gridWidth; }
  int64_t getGridHeight() const { return gridHeight; }

private:
  std::vector<const KernelMenu *> menus;
  int64_t gridWidth, gridHeight;
  /// pairs[k]: kernels k and k + 1 stacked; empty without stacking.
  std::vector<const StackedPair *> pairs;
};

} // namespace tessera::placement

#endif // TESSERA_PLACEMENT_STRIPPACKER_H
