//===- StripPacker.cpp - kernels in rows by dynamic programming -----------===//

#include "tessera/Placement/StripPacker.h"

#include <algorithm>

namespace tessera::placement {

KernelMenu::KernelMenu(std::vector<Shape> shapesIn, int64_t gridWidth,
                       int64_t gridHeight)
    : shapes(std::move(shapesIn)) {
  size_t rows = static_cast<size_t>(gridHeight) + 1;
  extent.assign(rows, gridWidth + 1);
  shape.assign(rows, -1);
  rotated.assign(rows, false);
  auto offer = [&](int64_t vertical, int64_t horizontal, int index,
                   bool isRotated) {
    if (vertical > gridHeight || horizontal > gridWidth)
      return;
    size_t at = static_cast<size_t>(vertical);
    if (horizontal < extent[at]) {
      extent[at] = horizontal;
      shape[at] = index;
      rotated[at] = isRotated;
    }
  };
  for (int i = 0, e = static_cast<int>(shapes.size()); i < e; ++i) {
    offer(shapes[i].height, shapes[i].width, i, false);
    offer(shapes[i].width, shapes[i].height, i, true);
  }
  for (size_t h = 1; h < rows; ++h)
    if (extent[h - 1] <= extent[h]) {
      extent[h] = extent[h - 1];
      shape[h] = shape[h - 1];
      rotated[h] = rotated[h - 1];
    }
}

int64_t KernelMenu::getVerticalExtent(int64_t rowHeight) const {
  const Shape &chosen = shapes[shape[rowHeight]];
  return rotated[rowHeight] ? chosen.width : chosen.height;
}

const StackedPair &StackCache::get(const KernelMenu *topMenu,
                                   const KernelMenu *bottomMenu) {
  auto [it, inserted] = pairs.try_emplace({topMenu, bottomMenu});
  StackedPair &pair = it->second;
  if (!inserted)
    return pair;
  size_t rows = static_cast<size_t>(gridHeight) + 1;
  pair.extent.assign(rows, gridWidth + 1);
  pair.split.assign(rows, 0);
  const std::vector<int64_t> &top = topMenu->extent;
  const std::vector<int64_t> &bottom = bottomMenu->extent;
  for (int64_t h = 2; h <= gridHeight; ++h) {
    // max(top[s], bottom[h - s]) is least where the falling top extent
    // meets the rising bottom one: the first s with top[s] <= bottom[h - s],
    // or the one before it.
    int64_t low = 1, high = h - 1;
    while (low < high) {
      int64_t middle = (low + high) / 2;
      if (top[middle] <= bottom[h - middle])
        high = middle;
      else
        low = middle + 1;
    }
    for (int64_t s : {low - 1, low}) {
      if (s < 1 || s > h - 1)
        continue;
      int64_t width = std::max(top[s], bottom[h - s]);
      if (width < pair.extent[h]) {
        pair.extent[h] = width;
        pair.split[h] = static_cast<int>(s);
      }
    }
  }
  return pair;
}

StripPacker::StripPacker(std::vector<const KernelMenu *> menusIn,
                         int64_t gridWidth, int64_t gridHeight,
                         StackCache *stacks)
    : menus(std::move(menusIn)), gridWidth(gridWidth), gridHeight(gridHeight) {
  if (stacks)
    for (size_t k = 0; k + 1 < menus.size(); ++k)
      pairs.push_back(&stacks->get(menus[k], menus[k + 1]));
}

int64_t StripPacker::getRowWidth(int begin, int end, int64_t height) const {
  // width[k - begin]: the narrowest slots for [begin, k).
  const int64_t infinity = int64_t(1) << 60;
  int64_t beforePrevious = infinity, previous = 0;
  for (int k = begin; k < end; ++k) {
    int64_t alone = previous + menus[k]->extent[height];
    int64_t paired = infinity;
    if (!pairs.empty() && k > begin)
      paired = beforePrevious + pairs[k - 1]->extent[height];
    int64_t best = std::min(alone, paired);
    beforePrevious = previous;
    previous = std::min(best, infinity);
  }
  return previous;
}

int64_t StripPacker::getRowHeight(int begin, int end) const {
  if (getRowWidth(begin, end, gridHeight) > gridWidth)
    return gridHeight + 1;
  int64_t low = 1, high = gridHeight;
  while (low < high) {
    int64_t middle = (low + high) / 2;
    if (getRowWidth(begin, end, middle) <= gridWidth)
      high = middle;
    else
      low = middle + 1;
  }
  return high;
}

std::vector<RowItem> StripPacker::layoutRow(int begin, int end,
                                            int64_t height) const {
  // narrowest[k][s]: the narrowest slots for [begin, begin + k) with s
  // stacked slots; the row takes the fewest stacks that fit.
  int n = end - begin;
  const int64_t infinity = int64_t(1) << 60;
  int maxStacks = pairs.empty() ? 0 : n / 2;
  std::vector<std::vector<int64_t>> narrowest(
      n + 1, std::vector<int64_t>(maxStacks + 1, infinity));
  narrowest[0][0] = 0;
  for (int k = 1; k <= n; ++k)
    for (int s = 0; s <= maxStacks; ++s) {
      int64_t best = narrowest[k - 1][s] + menus[begin + k - 1]->extent[height];
      if (k >= 2 && s >= 1)
        best = std::min(best, narrowest[k - 2][s - 1] +
                                  pairs[begin + k - 2]->extent[height]);
      narrowest[k][s] = std::min(best, infinity);
    }
  int stacks = 0;
  while (stacks < maxStacks && narrowest[n][stacks] > gridWidth)
    ++stacks;
  // Walk back to find the slots, then lay them out left to right.
  std::vector<std::pair<int, int>> slots; // (first position, count)
  for (int k = n, s = stacks; k > 0;) {
    int64_t alone = narrowest[k - 1][s] + menus[begin + k - 1]->extent[height];
    if (alone == narrowest[k][s]) {
      slots.emplace_back(begin + k - 1, 1);
      k -= 1;
    } else {
      slots.emplace_back(begin + k - 2, 2);
      k -= 2;
      s -= 1;
    }
  }
  std::reverse(slots.begin(), slots.end());
  std::vector<RowItem> items(end - begin);
  int64_t cursor = 0;
  for (size_t s = 0; s < slots.size(); ++s) {
    auto [first, count] = slots[s];
    int64_t bands[2][2] = {{0, height}, {0, 0}}; // (top, height)
    if (count == 2) {
      int64_t split = pairs[first]->split[height];
      bands[0][1] = split;
      bands[1][0] = split;
      bands[1][1] = height - split;
    }
    int64_t slotWidth = 0;
    for (int i = 0; i < count; ++i) {
      const KernelMenu &menu = *menus[first + i];
      RowItem &item = items[first + i - begin];
      item.bandTop = bands[i][0];
      item.bandHeight = bands[i][1];
      item.sizeX = menu.extent[item.bandHeight];
      item.sizeY = menu.getVerticalExtent(item.bandHeight);
      item.x = cursor;
      item.y = item.bandTop + (item.bandHeight - item.sizeY) / 2;
      item.slot = static_cast<int>(s);
      slotWidth = std::max(slotWidth, item.sizeX);
    }
    cursor += slotWidth;
  }
  return items;
}

std::optional<std::vector<Row>> StripPacker::packLowest() const {
  int n = static_cast<int>(menus.size());
  const int64_t infinity = int64_t(1) << 60;
  std::vector<int64_t> lowest(n + 1, infinity);
  std::vector<int> cut(n + 1, 0);
  lowest[0] = 0;
  for (int end = 1; end <= n; ++end)
    for (int begin = end - 1; begin >= 0; --begin) {
      int64_t height = getRowHeight(begin, end);
      if (height > gridHeight)
        break;
      if (lowest[begin] + height < lowest[end]) {
        lowest[end] = lowest[begin] + height;
        cut[end] = begin;
      }
    }
  if (lowest[n] > gridHeight)
    return std::nullopt;
  std::vector<Row> rows;
  for (int end = n; end > 0; end = cut[end])
    rows.push_back({cut[end], end, getRowHeight(cut[end], end)});
  std::reverse(rows.begin(), rows.end());
  return rows;
}

} // namespace tessera::placement
