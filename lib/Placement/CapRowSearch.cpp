//===- CapRowSearch.cpp - annealing the order of one row with towers ------===//

#include "tessera/Placement/CapRowSearch.h"
#include "CapRowBuilder.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace tessera::placement {
namespace {

class CapRowAnnealer {
public:
  CapRowAnnealer(CapRowBuilder &builder, int64_t gridWidth, int64_t gridHeight,
                 const std::vector<KernelMenu> &menus, uint64_t seed)
      : builder(builder), menus(menus), gridWidth(gridWidth),
        gridHeight(gridHeight), random(seed) {}

  void run(int steps) {
    current = builder.getOrder();
    int n = static_cast<int>(current.size());
    auto [first, last] = builder.getBestTowers();
    std::optional<int64_t> cost = getCost(first, last);
    if (!cost) {
      first = last = Tower();
      if (!(cost = getCost(first, last)))
        return;
    }
    double hot = std::max(1.0, 0.05 * double(*cost)), cold = 0.5;
    std::vector<int> saved;
    for (int step = 0; step < steps && n >= 3; ++step) {
      double temperature = hot * std::pow(cold / hot, double(step) / steps);
      saved = current;
      Tower newFirst = first, newLast = last;
      if (draw(8) == 0)
        moveTower(draw(2) ? newFirst : newLast, draw(2) == 0, newFirst.count,
                  newLast.count);
      else
        moveOrder();
      builder.setOrder(current);
      std::optional<int64_t> newCost = getCost(newFirst, newLast);
      double worse = newCost ? double(*newCost - *cost) : 0;
      if (newCost && (worse <= 0 || double(draw(1 << 30)) / double(1 << 30) <
                                        std::exp(-worse / temperature))) {
        cost = newCost;
        first = newFirst;
        last = newLast;
      } else {
        current.swap(saved);
      }
    }
  }

private:
  /// Doubled wire length charged per tile of width beyond the grid: a
  /// little over a fold of the row, so the search passes through rows too
  /// wide but does not end in one.
  int64_t getOverflowCharge() const { return 2 * gridHeight; }

  std::optional<int64_t> getCost(Tower first, Tower last) {
    std::optional<Outcome> outcome = builder.evaluate(first, last);
    if (!outcome)
      return std::nullopt;
    return outcome->length +
           getOverflowCharge() *
               std::max<int64_t>(0, outcome->used - gridWidth);
  }

  int draw(int bound) { return static_cast<int>(random() % uint64_t(bound)); }

  /// Moves one kernel, swaps two, reverses a stretch or moves a stretch.
  void moveOrder() {
    int n = static_cast<int>(current.size());
    int p = draw(n), q = draw(n);
    if (p == q)
      return;
    switch (draw(4)) {
    case 0: {
      int item = current[p];
      current.erase(current.begin() + p);
      current.insert(current.begin() + q, item);
      break;
    }
    case 1:
      std::swap(current[p], current[q]);
      break;
    case 2:
      std::reverse(current.begin() + std::min(p, q),
                   current.begin() + std::max(p, q) + 1);
      break;
    default: {
      // The stretch [p, q] moves by up to its own length either way.
      int low = std::min(p, q), high = std::max(p, q) + 1;
      int shift = draw(2 * (high - low) + 1) - (high - low);
      if (shift < 0)
        shift = std::max(shift, -low);
      else
        shift = std::min(shift, n - high);
      if (shift < 0)
        std::rotate(current.begin() + low + shift, current.begin() + low,
                    current.begin() + high);
      else if (shift > 0)
        std::rotate(current.begin() + low, current.begin() + high,
                    current.begin() + high + shift);
      break;
    }
    }
  }

  /// Grows or shrinks a tower by one kernel or gives it a new width: the
  /// extent of one of its kernels in a band of random height.
  void moveTower(Tower &tower, bool isFirst, int firstCount, int lastCount) {
    int n = static_cast<int>(current.size());
    switch (draw(3)) {
    case 0:
      if (firstCount + lastCount + 1 < n && tower.count < builder.getMaxTower())
        ++tower.count;
      break;
    case 1:
      tower.count = std::max(0, tower.count - 1);
      break;
    default:
      break;
    }
    if (tower.count == 0) {
      tower.width = 0;
      return;
    }
    if (tower.width > 0 && draw(2) == 0)
      return;
    int offset = draw(tower.count);
    int position = isFirst ? offset : n - 1 - offset;
    const KernelMenu &menu = menus[current[position]];
    int64_t width = menu.extent[1 + draw(int(gridHeight) - 1)];
    if (width <= gridWidth)
      tower.width = width;
  }

  CapRowBuilder &builder;
  const std::vector<KernelMenu> &menus;
  int64_t gridWidth, gridHeight;
  std::mt19937_64 random;
  std::vector<int> current;
};

} // namespace

std::optional<CapRowLayout>
annealCapRow(const std::vector<KernelMenu> &menus,
             const std::vector<int> &start,
             const std::vector<std::pair<int, int>> &wires, int64_t gridWidth,
             int64_t gridHeight, int steps, uint64_t seed, int maxTower) {
  CapRowBuilder builder(menus, start, wires, gridWidth, gridHeight, maxTower);
  builder.searchTowers();
  CapRowAnnealer(builder, gridWidth, gridHeight, menus, seed).run(steps);
  // Every tower for the best order met, which was laid out for one pair.
  if (std::optional<CapRowLayout> found = builder.getBest()) {
    builder.setOrder(found->order);
    builder.searchTowers();
  }
  return builder.getBest();
}

} // namespace tessera::placement
