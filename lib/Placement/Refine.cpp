//===- Refine.cpp - detailed placement after the rows ---------------------===//

#include "tessera/Placement/Refine.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace tessera::placement {
namespace {

/// Bounds the work per kernel and shape: in a dense layout most good
/// positions overlap something.
constexpr int MaxFitChecks = 4096;
/// Grids up to this many tiles get a table of occupied tiles, which answers
/// whether a rectangle is free in O(1); larger ones are scanned kernel by
/// kernel.
constexpr int64_t MaxTableTiles = int64_t(1) << 22;

bool overlaps(const Rect &a, const Rect &b) {
  return a.x < b.x + b.sizeX && b.x < a.x + a.sizeX && a.y < b.y + b.sizeY &&
         b.y < a.y + a.sizeY;
}

int64_t getOverlapArea(const Rect &a, const Rect &b) {
  int64_t x = std::min(a.x + a.sizeX, b.x + b.sizeX) - std::max(a.x, b.x);
  int64_t y = std::min(a.y + a.sizeY, b.y + b.sizeY) - std::max(a.y, b.y);
  return x > 0 && y > 0 ? x * y : 0;
}

class Refiner {
public:
  Refiner(std::vector<RefineKernel> &kernels,
          const std::vector<std::pair<int, int>> &wires,
          const RefineOptions &options)
      : kernels(kernels), options(options), neighbours(kernels.size()) {
    for (auto [a, b] : wires)
      if (a != b) {
        neighbours[a].push_back(b);
        neighbours[b].push_back(a);
      }
  }

  void run() {
    useTable = options.gridWidth * options.gridHeight <= MaxTableTiles;
    updateTable();
    for (int pass = 0; pass < options.passes; ++pass) {
      bool improved = false;
      for (size_t i = 0; i < kernels.size(); ++i)
        improved = moveKernel(static_cast<int>(i)) || improved;
      for (size_t i = 0; i < kernels.size(); ++i)
        for (size_t j = i + 1; j < kernels.size(); ++j)
          improved =
              swapKernels(static_cast<int>(i), static_cast<int>(j)) || improved;
      if (!improved)
        break;
    }
  }

private:
  /// Twice the length of i's wires with i at `rect`; a wire to `skip`
  /// counts as if it went to `skipRect`.
  int64_t getCost(int i, const Rect &rect, int skip = -1,
                  const Rect *skipRect = nullptr) const {
    int64_t total = 0;
    for (int other : neighbours[i]) {
      const Rect &to = other == skip ? *skipRect : kernels[other].rect;
      total += std::llabs(rect.doubledCentreX() - to.doubledCentreX()) +
               std::llabs(rect.doubledCentreY() - to.doubledCentreY());
    }
    return total;
  }

  /// Sums of occupied tiles over every rectangle from the grid's corner;
  /// rebuilt after each change (changes are rare next to queries).
  void updateTable() {
    if (!useTable)
      return;
    int64_t width = options.gridWidth + 1;
    occupied.assign(width * (options.gridHeight + 1), 0);
    for (const RefineKernel &kernel : kernels) {
      const Rect &r = kernel.rect;
      for (int64_t y = r.y; y < r.y + r.sizeY; ++y)
        for (int64_t x = r.x; x < r.x + r.sizeX; ++x)
          occupied[(y + 1) * width + x + 1] = 1;
    }
    for (int64_t y = 1; y <= options.gridHeight; ++y)
      for (int64_t x = 1; x < width; ++x)
        occupied[y * width + x] += occupied[(y - 1) * width + x] +
                                   occupied[y * width + x - 1] -
                                   occupied[(y - 1) * width + x - 1];
  }

  /// Whether `rect` lies in the grid and overlaps no kernel but `a`, `b`.
  bool fits(const Rect &rect, int a, int b = -1) const {
    if (rect.x < 0 || rect.y < 0 || rect.x + rect.sizeX > options.gridWidth ||
        rect.y + rect.sizeY > options.gridHeight)
      return false;
    if (useTable) {
      // Kernels are disjoint: the tiles taken under `rect` are the sum of
      // its overlaps with each, and those of a and b do not count.
      int64_t width = options.gridWidth + 1;
      int64_t x0 = rect.x, y0 = rect.y, x1 = rect.x + rect.sizeX,
              y1 = rect.y + rect.sizeY;
      int64_t taken = occupied[y1 * width + x1] - occupied[y0 * width + x1] -
                      occupied[y1 * width + x0] + occupied[y0 * width + x0];
      for (int skip : {a, b})
        if (skip >= 0)
          taken -= getOverlapArea(rect, kernels[skip].rect);
      return taken == 0;
    }
    for (size_t k = 0; k < kernels.size(); ++k)
      if (int(k) != a && int(k) != b && overlaps(rect, kernels[k].rect))
        return false;
    return true;
  }

  /// Corner values worth trying along one axis for a side of `size`, with
  /// the doubled cost of each: the best place for the wires alone, the
  /// grid's edges and abutting every other kernel. By increasing cost.
  std::vector<std::pair<int64_t, int64_t>> getCandidates(int i, int64_t size,
                                                         bool alongX) const {
    int64_t limit = (alongX ? options.gridWidth : options.gridHeight) - size;
    std::vector<int64_t> targets;
    for (int other : neighbours[i]) {
      const Rect &r = kernels[other].rect;
      targets.push_back(alongX ? r.doubledCentreX() : r.doubledCentreY());
    }
    std::vector<int64_t> corners = {0, limit};
    if (!targets.empty()) {
      std::nth_element(targets.begin(), targets.begin() + targets.size() / 2,
                       targets.end());
      int64_t median = targets[targets.size() / 2];
      corners.push_back((median - size) / 2);
      corners.push_back((median - size) / 2 + 1);
    }
    for (size_t k = 0; k < kernels.size(); ++k) {
      if (int(k) == i)
        continue;
      const Rect &r = kernels[k].rect;
      int64_t low = alongX ? r.x : r.y;
      int64_t high = low + (alongX ? r.sizeX : r.sizeY);
      corners.push_back(high);
      corners.push_back(low - size);
    }
    std::vector<std::pair<int64_t, int64_t>> result;
    for (int64_t corner : corners) {
      if (corner < 0 || corner > limit)
        continue;
      int64_t cost = 0;
      for (int64_t target : targets)
        cost += std::llabs(2 * corner + size - target);
      result.emplace_back(cost, corner);
    }
    std::sort(result.begin(), result.end());
    result.erase(std::unique(result.begin(), result.end()), result.end());
    return result;
  }

  /// Moves kernel i, in any of its shapes, to where its wires are
  /// shortest; true if that is shorter than where it is.
  bool moveKernel(int i) {
    RefineKernel &kernel = kernels[i];
    if (neighbours[i].empty())
      return false;
    int64_t best = getCost(i, kernel.rect);
    Rect bestRect = kernel.rect;
    int bestShape = kernel.shape;
    bool bestRotated = kernel.rotated, found = false;
    for (size_t s = 0; s < kernel.shapes.size(); ++s) {
      const Shape &shape = kernel.shapes[s];
      if (shape.time > options.maxTime)
        continue;
      for (bool rotated : {false, true}) {
        int64_t sizeX = rotated ? shape.height : shape.width;
        int64_t sizeY = rotated ? shape.width : shape.height;
        if (sizeX > options.gridWidth || sizeY > options.gridHeight)
          continue;
        auto xs = getCandidates(i, sizeX, true);
        auto ys = getCandidates(i, sizeY, false);
        int checks = 0;
        for (auto [costX, x] : xs) {
          if (ys.empty() || costX + ys.front().first >= best ||
              checks > MaxFitChecks)
            break;
          for (auto [costY, y] : ys) {
            if (costX + costY >= best || ++checks > MaxFitChecks)
              break;
            Rect rect{x, y, sizeX, sizeY};
            if (!fits(rect, i))
              continue;
            best = costX + costY;
            bestRect = rect;
            bestShape = static_cast<int>(s);
            bestRotated = rotated;
            found = true;
            break; // The ys that follow cost more.
          }
        }
      }
    }
    if (!found)
      return false;
    kernel.rect = bestRect;
    kernel.shape = bestShape;
    kernel.rotated = bestRotated;
    updateTable();
    return true;
  }

  /// Trades the places of kernels i and j (centre for centre, as near as
  /// the grid allows) if both fit and the wires get shorter.
  bool swapKernels(int i, int j) {
    Rect &a = kernels[i].rect, &b = kernels[j].rect;
    if (neighbours[i].empty() && neighbours[j].empty())
      return false;
    auto centredAt = [&](const Rect &rect, const Rect &at) {
      Rect moved = rect;
      moved.x = std::clamp<int64_t>((at.doubledCentreX() - rect.sizeX) / 2, 0,
                                    options.gridWidth - rect.sizeX);
      moved.y = std::clamp<int64_t>((at.doubledCentreY() - rect.sizeY) / 2, 0,
                                    options.gridHeight - rect.sizeY);
      return moved;
    };
    Rect newA = centredAt(a, b), newB = centredAt(b, a);
    // A wire between i and j is counted once in each cost.
    int64_t before = getCost(i, a) + getCost(j, b);
    int64_t after = getCost(i, newA, j, &newB) + getCost(j, newB, i, &newA);
    if (after >= before || overlaps(newA, newB) || !fits(newA, i, j) ||
        !fits(newB, i, j))
      return false;
    a = newA;
    b = newB;
    updateTable();
    return true;
  }

  std::vector<RefineKernel> &kernels;
  const RefineOptions &options;
  std::vector<std::vector<int>> neighbours;
  bool useTable = false;
  std::vector<int32_t> occupied; ///< (gridWidth + 1) x (gridHeight + 1).
};

} // namespace

int64_t refinePlacement(std::vector<RefineKernel> &kernels,
                        const std::vector<std::pair<int, int>> &wires,
                        const RefineOptions &options) {
  Refiner(kernels, wires, options).run();
  std::vector<Rect> rects;
  for (const RefineKernel &kernel : kernels)
    rects.push_back(kernel.rect);
  return getDoubledWireLength(wires, rects);
}

} // namespace tessera::placement
