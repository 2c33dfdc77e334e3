//===- CapRow.cpp - one row of full-height columns with capping towers ----===//

#include "tessera/Placement/CapRow.h"
#include "CapRowBuilder.h"

#include <algorithm>
#include <cstdlib>
#include <tuple>

namespace tessera::placement {
namespace {

/// Pairs of towers laid out exactly, by estimated wire length.
constexpr size_t PairsTried = 24;

} // namespace

CapRowBuilder::CapRowBuilder(const std::vector<KernelMenu> &menus,
                             std::vector<int> order,
                             const std::vector<std::pair<int, int>> &wires,
                             int64_t gridWidth, int64_t gridHeight,
                             int maxTower)
    : menus(menus), order(std::move(order)), gridWidth(gridWidth),
      gridHeight(gridHeight), maxTower(maxTower) {
  positionOf.assign(menus.size(), -1);
  for (size_t i = 0; i < this->order.size(); ++i)
    positionOf[this->order[i]] = static_cast<int>(i);
  for (auto [a, b] : wires)
    if (positionOf[a] >= 0 && positionOf[b] >= 0)
      kernelWires.emplace_back(a, b);
}

void CapRowBuilder::setOrder(const std::vector<int> &newOrder) {
  order = newOrder;
  for (size_t i = 0; i < order.size(); ++i)
    positionOf[order[i]] = static_cast<int>(i);
}

void CapRowBuilder::searchTowers() {
  int n = static_cast<int>(order.size());
  if (n == 0)
    return;
  std::optional<Outcome> plain = evaluate({}, {});
  // Each end alone, every tower; then the pairs of the two ends' best
  // trade-offs between width and wire length.
  std::vector<std::pair<Tower, Outcome>> firsts, lasts;
  std::set<int64_t> firstWidths, lastWidths;
  for (int count = 1; count < n && count <= maxTower; ++count) {
    addWidths(count - 1, firstWidths);
    addWidths(n - count, lastWidths);
    for (int64_t width : firstWidths)
      if (std::optional<Outcome> outcome = evaluate({count, width}, {}))
        firsts.push_back({{count, width}, *outcome});
    for (int64_t width : lastWidths)
      if (std::optional<Outcome> outcome = evaluate({}, {count, width}))
        lasts.push_back({{count, width}, *outcome});
  }
  if (plain && n >= 3)
    combine(*plain, getFront(firsts), getFront(lasts));
}

std::optional<CapRowLayout> CapRowBuilder::getBest() const {
  if (best.empty())
    return std::nullopt;
  CapRowLayout layout;
  layout.order = bestOrder;
  layout.doubledLength = bestLength;
  for (size_t i = 0; i < bestOrder.size(); ++i)
    layout.kernels.push_back({menus[bestOrder[i]].shapes, best[i].shape,
                              best[i].rotated, best[i].rect});
  return layout;
}

/// Adds the widths at which kernel `position`'s lowest shape changes.
void CapRowBuilder::addWidths(int position, std::set<int64_t> &widths) const {
  const KernelMenu &menu = menus[order[position]];
  for (int64_t height = 1; height < gridHeight; ++height)
    if (menu.extent[height] <= gridWidth)
      widths.insert(menu.extent[height]);
}

/// The lowest band in which kernel `position` is at most `width` wide, or
/// -1; the menu's narrowest extent falls as the band grows.
int64_t CapRowBuilder::getLowestBand(int position, int64_t width) const {
  const std::vector<int64_t> &extent = menus[order[position]].extent;
  auto it =
      std::partition_point(extent.begin() + 1, extent.end(),
                           [&](int64_t extentAt) { return extentAt > width; });
  return it == extent.end() ? -1 : it - extent.begin();
}

/// Kernel `position` in its narrowest shape no taller than `band`, at
/// column x, centred in the band from `top`; false if none fits.
bool CapRowBuilder::place(int position, int64_t band, int64_t top, int64_t x,
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

/// Stacks kernels [begin, end) flat, each in its lowest shape at most
/// `width` wide, downwards from row 0 (or upwards from the bottom row when
/// `fromBottom`, the last kernel lowest); x is set later. Returns the
/// tower's height and sets its widest kernel, or -1 if one does not fit.
int64_t CapRowBuilder::stackTower(int begin, int end, int64_t width,
                                  bool fromBottom, std::vector<Placed> &items,
                                  int64_t &widest) const {
  int64_t height = 0;
  widest = 0;
  for (int i = 0; i < end - begin; ++i) {
    int position = fromBottom ? end - 1 - i : begin + i;
    int64_t band = getLowestBand(position, width);
    if (band < 1 || !place(position, band, 0, 0, items[position]))
      return -1;
    Rect &rect = items[position].rect;
    if (height + rect.sizeY >= gridHeight)
      return -1;
    rect.y = fromBottom ? gridHeight - height - rect.sizeY : height;
    height += rect.sizeY;
    widest = std::max(widest, rect.sizeX);
  }
  return height;
}

std::optional<Outcome> CapRowBuilder::evaluate(Tower first, Tower last) {
  int n = static_cast<int>(order.size());
  std::vector<Placed> &items = scratch;
  items.assign(n, Placed());
  int begin = first.count, end = n - last.count;
  if (begin >= end)
    return std::nullopt;
  int64_t firstWidth = 0, lastWidth = 0, firstHeight = 0, lastHeight = 0;
  if (first.count && (firstHeight = stackTower(0, begin, first.width, false,
                                               items, firstWidth)) < 0)
    return std::nullopt;
  if (last.count &&
      (lastHeight = stackTower(end, n, last.width, true, items, lastWidth)) < 0)
    return std::nullopt;
  // The columns over the last tower, from the right, then the others from
  // the left: low ones until they span the first tower, then full-height
  // ones.
  int64_t span = 0;
  int lastRun = end;
  while (span < lastWidth && lastRun > begin) {
    --lastRun;
    if (!place(lastRun, gridHeight - lastHeight, 0, 0, items[lastRun]))
      return std::nullopt;
    span += items[lastRun].rect.sizeX;
  }
  if (span < lastWidth)
    return std::nullopt;
  int64_t used = 0;
  span = 0;
  for (int position = begin; position < lastRun; ++position) {
    bool under = span < firstWidth;
    int64_t band = under ? gridHeight - firstHeight : gridHeight;
    if (!place(position, band, under ? firstHeight : 0, used, items[position]))
      return std::nullopt;
    used += items[position].rect.sizeX;
    if (under)
      span = used;
  }
  if (span < firstWidth)
    return std::nullopt;
  for (int position = lastRun; position < end; ++position) {
    items[position].rect.x = used;
    used += items[position].rect.sizeX;
  }
  // The towers hug the row's ends.
  for (int position = end; position < n; ++position)
    items[position].rect.x = used - items[position].rect.sizeX;
  Outcome outcome{used, 0};
  for (auto [a, b] : kernelWires) {
    const Rect &ra = items[positionOf[a]].rect, &rb = items[positionOf[b]].rect;
    outcome.length += std::llabs(ra.doubledCentreX() - rb.doubledCentreX()) +
                      std::llabs(ra.doubledCentreY() - rb.doubledCentreY());
  }
  if (used <= gridWidth && (best.empty() || outcome.length < bestLength)) {
    best = items;
    bestOrder = order;
    bestTowers = {first, last};
    bestLength = outcome.length;
  }
  return outcome;
}

/// The towers no other beats in both width and wire length, narrowest row
/// first.
std::vector<std::pair<Tower, Outcome>>
CapRowBuilder::getFront(std::vector<std::pair<Tower, Outcome>> towers) {
  auto key = [](const std::pair<Tower, Outcome> &tower) {
    return std::tuple{tower.second.used, tower.second.length, tower.first.count,
                      tower.first.width};
  };
  std::sort(towers.begin(), towers.end(),
            [&](const auto &a, const auto &b) { return key(a) < key(b); });
  std::vector<std::pair<Tower, Outcome>> front;
  for (const auto &tower : towers)
    if (front.empty() || tower.second.length < front.back().second.length)
      front.push_back(tower);
  return front;
}

/// Lays out the pairs of a tower at each end whose widths, added up from
/// each alone, fit the grid, by the wire length they add up to.
void CapRowBuilder::combine(
    const Outcome &plain, const std::vector<std::pair<Tower, Outcome>> &firsts,
    const std::vector<std::pair<Tower, Outcome>> &lasts) {
  struct Pair {
    int64_t length;
    size_t first, last;
  };
  std::vector<Pair> pairs;
  for (size_t i = 0; i < firsts.size(); ++i)
    for (size_t j = 0; j < lasts.size(); ++j) {
      const Outcome &a = firsts[i].second, &b = lasts[j].second;
      if (a.used + b.used - plain.used <= gridWidth)
        pairs.push_back({a.length + b.length - plain.length, i, j});
    }
  std::sort(pairs.begin(), pairs.end(), [](const Pair &a, const Pair &b) {
    return std::tuple{a.length, a.first, a.last} <
           std::tuple{b.length, b.first, b.last};
  });
  for (size_t k = 0; k < std::min(pairs.size(), PairsTried); ++k)
    evaluate(firsts[pairs[k].first].first, lasts[pairs[k].last].first);
}

std::optional<CapRowLayout>
layoutCapRow(const std::vector<KernelMenu> &menus,
             const std::vector<int> &order,
             const std::vector<std::pair<int, int>> &wires, int64_t gridWidth,
             int64_t gridHeight, int maxTower) {
  CapRowBuilder builder(menus, order, wires, gridWidth, gridHeight, maxTower);
  builder.searchTowers();
  return builder.getBest();
}

} // namespace tessera::placement
