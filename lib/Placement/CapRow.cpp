//===- CapRow.cpp - one row of full-height columns with a cap -------------===//

#include "tessera/Placement/CapRow.h"
#include "tessera/Placement/WireLength.h"

#include <algorithm>
#include <cstdlib>

namespace tessera::placement {
namespace {

/// A kernel's shape and rectangle; RefineKernel without the menu's shapes,
/// which would be copied for every one of the thousand layouts tried.
struct Placed {
  int shape = -1;
  bool rotated = false;
  Rect rect;
};

class CapRowBuilder {
public:
  CapRowBuilder(const std::vector<KernelMenu> &menus,
                const std::vector<int> &order,
                const std::vector<std::pair<int, int>> &wires,
                int64_t gridWidth, int64_t gridHeight)
      : menus(menus), order(order), gridWidth(gridWidth),
        gridHeight(gridHeight) {
    std::vector<int> positionOf(menus.size(), -1);
    for (size_t i = 0; i < order.size(); ++i)
      positionOf[order[i]] = static_cast<int>(i);
    for (auto [a, b] : wires)
      if (positionOf[a] >= 0 && positionOf[b] >= 0)
        positionWires.emplace_back(positionOf[a], positionOf[b]);
  }

  std::optional<CapRowLayout> run() {
    int n = static_cast<int>(order.size());
    if (n == 0)
      return std::nullopt;
    tryLayout(0, 0);
    std::vector<int64_t> firstHeights = getCapHeights(0);
    std::vector<int64_t> lastHeights = getCapHeights(n - 1);
    if (n >= 2) {
      for (int64_t height : firstHeights)
        tryLayout(height, 0);
      for (int64_t height : lastHeights)
        tryLayout(0, height);
    }
    if (n >= 3)
      for (int64_t first : firstHeights)
        for (int64_t last : lastHeights)
          tryLayout(first, last);
    if (best.empty())
      return std::nullopt;
    CapRowLayout layout;
    layout.doubledLength = bestLength;
    for (size_t i = 0; i < order.size(); ++i)
      layout.kernels.push_back({menus[order[i]].shapes, best[i].shape,
                                best[i].rotated, best[i].rect});
    return layout;
  }

private:
  /// The heights kernel `position` reaches exactly with its narrowest
  /// shape no taller, so that no layout is tried twice.
  std::vector<int64_t> getCapHeights(int position) const {
    std::vector<int64_t> heights;
    const KernelMenu &menu = menus[order[position]];
    if (menu.empty())
      return heights;
    for (int64_t height = 1; height < gridHeight; ++height)
      if (menu.shape[height] >= 0 && menu.extent[height] <= gridWidth &&
          menu.getVerticalExtent(height) == height)
        heights.push_back(height);
    return heights;
  }

  /// Kernel `position` in its narrowest shape no taller than `band`, at
  /// column x, centred in the band from `top`; false if none fits.
  bool place(int position, int64_t band, int64_t top, int64_t x,
             Placed &item) const {
    const KernelMenu &menu = menus[order[position]];
    if (band < 1 || menu.empty() || menu.shape[band] < 0 ||
        menu.extent[band] > gridWidth)
      return false;
    int64_t sizeY = menu.getVerticalExtent(band);
    item = {menu.shape[band], menu.rotated[band],
            Rect{x, top + (band - sizeY) / 2, menu.extent[band], sizeY}};
    return true;
  }

  /// The row with a cap on the first kernel `firstHeight` tall over the
  /// left end's columns and one on the last kernel `lastHeight` tall under
  /// the right end's (0: no cap). The columns under one cap and those
  /// under the other must differ.
  void tryLayout(int64_t firstHeight, int64_t lastHeight) {
    int n = static_cast<int>(order.size());
    std::vector<Placed> &items = scratch;
    items.assign(n, Placed());
    int begin = firstHeight ? 1 : 0, end = lastHeight ? n - 1 : n;
    int64_t firstWidth = firstHeight ? menus[order[0]].extent[firstHeight] : 0;
    int64_t lastWidth = lastHeight ? menus[order[n - 1]].extent[lastHeight] : 0;
    // The columns under the last cap, from the right, then the others
    // from the left: low ones until they span the first cap, then
    // full-height ones.
    int64_t span = 0;
    int lastRun = end;
    while (span < lastWidth && lastRun > begin) {
      --lastRun;
      if (!place(lastRun, gridHeight - lastHeight, 0, 0, items[lastRun]))
        return;
      span += items[lastRun].rect.sizeX;
    }
    if (span < lastWidth)
      return;
    int64_t used = 0;
    span = 0;
    for (int position = begin; position < lastRun; ++position) {
      bool under = span < firstWidth;
      int64_t band = under ? gridHeight - firstHeight : gridHeight;
      if (!place(position, band, under ? firstHeight : 0, used,
                 items[position]))
        return;
      used += items[position].rect.sizeX;
      if (under)
        span = used;
    }
    if (span < firstWidth)
      return;
    for (int position = lastRun; position < end; ++position) {
      items[position].rect.x = used;
      used += items[position].rect.sizeX;
    }
    if (used > gridWidth)
      return;
    if (firstHeight)
      place(0, firstHeight, 0, 0, items[0]);
    if (lastHeight)
      place(n - 1, lastHeight, gridHeight - lastHeight, used - lastWidth,
            items[n - 1]);
    int64_t length = 0;
    for (auto [a, b] : positionWires)
      length += std::llabs(items[a].rect.doubledCentreX() -
                           items[b].rect.doubledCentreX()) +
                std::llabs(items[a].rect.doubledCentreY() -
                           items[b].rect.doubledCentreY());
    if (best.empty() || length < bestLength) {
      best = items;
      bestLength = length;
    }
  }

  const std::vector<KernelMenu> &menus;
  const std::vector<int> &order;
  std::vector<std::pair<int, int>> positionWires;
  int64_t gridWidth, gridHeight;
  std::vector<Placed> best, scratch;
  int64_t bestLength = 0;
};

} // namespace

std::optional<CapRowLayout>
layoutCapRow(const std::vector<KernelMenu> &menus,
             const std::vector<int> &order,
             const std::vector<std::pair<int, int>> &wires, int64_t gridWidth,
             int64_t gridHeight) {
  return CapRowBuilder(menus, order, wires, gridWidth, gridHeight).run();
}

} // namespace tessera::placement
