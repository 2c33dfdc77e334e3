//===- Layout.cpp - rectangles for planned rows ---------------------------===//

#include "tessera/Placement/Layout.h"

#include <algorithm>
#include <cstdlib>

namespace tessera::placement {
namespace {

/// Places `items` (a row laid out left to right from 0) running left to
/// right, or mirrored, from column `offset` and row `top`.
void placeRow(const std::vector<RowItem> &items, const Row &row, int64_t top,
              int64_t width, bool leftToRight, int64_t offset,
              RowsLayout &layout) {
  for (size_t k = 0; k < items.size(); ++k) {
    const RowItem &item = items[k];
    Rect &rect = layout.rects[row.begin + k];
    rect.sizeX = item.sizeX;
    rect.sizeY = item.sizeY;
    rect.x = offset + (leftToRight ? item.x : width - item.x - item.sizeX);
    rect.y = top + item.y;
  }
}

/// The corner coordinate in [low, high] that puts the centre (2 * corner +
/// size, doubled) nearest, in L1, to the doubled centres `targets`.
int64_t getBestCorner(std::vector<int64_t> &targets, int64_t size, int64_t low,
                      int64_t high, int64_t current) {
  if (targets.empty() || low >= high)
    return current;
  auto cost = [&](int64_t corner) {
    int64_t total = 0;
    for (int64_t target : targets)
      total += std::llabs(2 * corner + size - target);
    return total;
  };
  std::nth_element(targets.begin(), targets.begin() + targets.size() / 2,
                   targets.end());
  int64_t median = targets[targets.size() / 2];
  int64_t best = current, bestCost = cost(current);
  for (int64_t corner : {(median - size) / 2, (median - size) / 2 + 1,
                         (median - size) / 2 - 1}) {
    corner = std::clamp(corner, low, high);
    int64_t candidate = cost(corner);
    if (candidate < bestCost) {
      best = corner;
      bestCost = candidate;
    }
  }
  return best;
}

} // namespace

RowsLayout layoutRows(const StripPacker &packer, const std::vector<Row> &rows,
                      const std::vector<std::pair<int, int>> &wires) {
  size_t n = static_cast<size_t>(packer.size());
  RowsLayout layout;
  layout.rects.resize(n);
  layout.bandTop.resize(n);
  layout.bandHeight.resize(n);
  layout.slot.resize(n);
  std::vector<std::vector<RowItem>> items(rows.size());
  std::vector<int64_t> tops, widths;
  std::vector<int> rowOf(n, 0);
  int64_t y = 0;
  int slots = 0;
  for (size_t r = 0; r < rows.size(); ++r) {
    const Row &row = rows[r];
    items[r] = packer.layoutRow(row.begin, row.end, row.height);
    int64_t width = 0;
    int rowSlots = 0;
    for (size_t k = 0; k < items[r].size(); ++k) {
      const RowItem &item = items[r][k];
      width = std::max(width, item.x + item.sizeX);
      rowSlots = std::max(rowSlots, item.slot + 1);
      int position = row.begin + static_cast<int>(k);
      layout.bandTop[position] = y + item.bandTop;
      layout.bandHeight[position] = item.bandHeight;
      rowOf[position] = static_cast<int>(r);
    }
    // Slots count from the left of the grid, whichever way the row runs.
    bool leftToRight = r % 2 == 0;
    for (size_t k = 0; k < items[r].size(); ++k)
      layout.slot[row.begin + k] =
          slots +
          (leftToRight ? items[r][k].slot : rowSlots - 1 - items[r][k].slot);
    slots += rowSlots;
    tops.push_back(y);
    widths.push_back(width);
    int64_t slack = packer.getGridWidth() - width;
    placeRow(items[r], row, y, width, leftToRight, leftToRight ? 0 : slack,
             layout);
    y += row.height;
  }
  // The wires that leave each row, as (inside, outside) positions.
  std::vector<std::vector<std::pair<int, int>>> leaving(rows.size());
  for (auto [a, b] : wires)
    if (rowOf[a] != rowOf[b]) {
      leaving[rowOf[a]].emplace_back(a, b);
      leaving[rowOf[b]].emplace_back(b, a);
    }
  // Coordinate descent: each row in turn takes the direction and start
  // column that make its wires to the other rows shortest. Along x, those
  // wires' lengths add up to a convex function of the start column, least
  // at the median of what each wire asks for.
  std::vector<int64_t> wishes;
  std::vector<Rect> kept;
  for (int pass = 0; pass < 4; ++pass) {
    bool changed = false;
    for (size_t r = 0; r < rows.size(); ++r) {
      const Row &row = rows[r];
      if (leaving[r].empty())
        continue;
      int64_t slack = packer.getGridWidth() - widths[r];
      auto cost = [&]() {
        int64_t total = 0;
        for (auto [inside, outside] : leaving[r])
          total += std::llabs(layout.rects[inside].doubledCentreX() -
                              layout.rects[outside].doubledCentreX());
        return total;
      };
      int64_t best = cost();
      kept.assign(layout.rects.begin() + row.begin,
                  layout.rects.begin() + row.end);
      bool keptLeftToRight = true, improved = false;
      for (int direction = 0; direction < 2; ++direction) {
        bool leftToRight = direction == 0;
        placeRow(items[r], row, tops[r], widths[r], leftToRight, 0, layout);
        wishes.clear();
        for (auto [inside, outside] : leaving[r])
          wishes.push_back(layout.rects[outside].doubledCentreX() -
                           layout.rects[inside].doubledCentreX());
        std::nth_element(wishes.begin(), wishes.begin() + wishes.size() / 2,
                         wishes.end());
        int64_t median = wishes[wishes.size() / 2];
        for (int64_t offset : {median / 2, median / 2 + 1}) {
          offset = std::clamp<int64_t>(offset, 0, slack);
          placeRow(items[r], row, tops[r], widths[r], leftToRight, offset,
                   layout);
          int64_t length = cost();
          if (length < best) {
            best = length;
            std::copy(layout.rects.begin() + row.begin,
                      layout.rects.begin() + row.end, kept.begin());
            keptLeftToRight = leftToRight;
            improved = true;
          }
        }
      }
      std::copy(kept.begin(), kept.end(), layout.rects.begin() + row.begin);
      if (improved) {
        // Renumber the row's slots for its new direction.
        int first = layout.slot[row.begin];
        for (int k = row.begin; k < row.end; ++k)
          first = std::min(first, layout.slot[k]);
        int rowSlots = 0;
        for (const RowItem &item : items[r])
          rowSlots = std::max(rowSlots, item.slot + 1);
        for (size_t k = 0; k < items[r].size(); ++k)
          layout.slot[row.begin + k] =
              first + (keptLeftToRight ? items[r][k].slot
                                       : rowSlots - 1 - items[r][k].slot);
      }
      changed = changed || improved;
    }
    if (!changed)
      break;
  }
  return layout;
}

void shiftKernels(const StripPacker &packer, const std::vector<Row> &rows,
                  const std::vector<std::pair<int, int>> &wires,
                  RowsLayout &layout) {
  std::vector<Rect> &rects = layout.rects;
  std::vector<std::vector<int>> neighbours(rects.size());
  for (auto [a, b] : wires)
    if (a != b) {
      neighbours[a].push_back(b);
      neighbours[b].push_back(a);
    }
  // The kernels of each slot, to find the room between slots.
  int slots = 0;
  for (int slot : layout.slot)
    slots = std::max(slots, slot + 1);
  std::vector<std::vector<int>> members(slots);
  std::vector<bool> rowStart(slots + 1, false), rowEnd(slots + 1, false);
  for (size_t i = 0; i < rects.size(); ++i)
    members[layout.slot[i]].push_back(static_cast<int>(i));
  for (const Row &row : rows) {
    int first = slots, last = -1;
    for (int i = row.begin; i < row.end; ++i) {
      first = std::min(first, layout.slot[i]);
      last = std::max(last, layout.slot[i]);
    }
    if (last >= 0) {
      rowStart[first] = true;
      rowEnd[last] = true;
    }
  }
  std::vector<int64_t> targets;
  for (int pass = 0; pass < 8; ++pass) {
    bool changed = false;
    for (int s = 0; s < slots; ++s)
      for (int i : members[s]) {
        Rect &rect = rects[i];
        targets.clear();
        for (int other : neighbours[i])
          targets.push_back(rects[other].doubledCentreY());
        int64_t newY = getBestCorner(
            targets, rect.sizeY, layout.bandTop[i],
            layout.bandTop[i] + layout.bandHeight[i] - rect.sizeY, rect.y);
        targets.clear();
        for (int other : neighbours[i])
          targets.push_back(rects[other].doubledCentreX());
        int64_t low = 0, high = packer.getGridWidth();
        if (!rowStart[s])
          for (int other : members[s - 1])
            low = std::max(low, rects[other].x + rects[other].sizeX);
        if (!rowEnd[s])
          for (int other : members[s + 1])
            high = std::min(high, rects[other].x);
        int64_t newX =
            getBestCorner(targets, rect.sizeX, low, high - rect.sizeX, rect.x);
        if (newX != rect.x || newY != rect.y) {
          rect.x = newX;
          rect.y = newY;
          changed = true;
        }
      }
    if (!changed)
      break;
  }
}

} // namespace tessera::placement
