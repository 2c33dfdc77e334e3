//===- RowPlanner.cpp - rows that keep the wires short --------------------===//

#include "tessera/Placement/RowPlanner.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

namespace tessera::placement {
namespace {

constexpr int64_t Infinity = std::numeric_limits<int64_t>::max() / 4;

class Planner {
public:
  Planner(const StripPacker &packer,
          const std::vector<std::pair<int, int>> &wiresIn, bool chargeTurns)
      : packer(packer), n(packer.size()), gridHeight(packer.getGridHeight()),
        chargeTurns(chargeTurns) {
    for (auto [a, b] : wiresIn)
      if (a != b)
        wires.emplace_back(std::min(a, b), std::max(a, b));
    std::sort(wires.begin(), wires.end());
  }

  /// Twice the estimated wire length charged to row [begin, end) at
  /// `height`: its inner wires' horizontal lengths, and the share of the
  /// vertical length of the wires that leave or pass it.
  int64_t getRowCost(int begin, int end, int64_t height) const {
    std::vector<RowItem> items = packer.layoutRow(begin, end, height);
    int64_t width = 0;
    for (const RowItem &item : items)
      width = std::max(width, item.x + item.sizeX);
    // Doubled centre of position p along the row's running direction.
    auto along = [&](int p) {
      return 2 * items[p - begin].x + items[p - begin].sizeX;
    };
    int64_t cost = 0, crossing = 0;
    for (auto [p, q] : wires) {
      bool pInside = p >= begin && p < end, qInside = q >= begin && q < end;
      if (pInside && qInside) {
        const RowItem &a = items[p - begin], &b = items[q - begin];
        cost += std::llabs(along(p) - along(q)) +
                std::llabs(2 * (a.y - b.y) + a.sizeY - b.sizeY);
      } else if (pInside) {
        // Serpentine rows turn at their ends: a wire to a later row leaves
        // near this row's end, one from an earlier row arrives near its
        // start.
        if (chargeTurns)
          cost += 2 * width - along(p);
        crossing += 1;
      } else if (qInside) {
        if (chargeTurns)
          cost += along(q);
        crossing += 1;
      } else if (p < begin && q >= end) {
        crossing += 2;
      }
    }
    return cost + crossing * height;
  }

  std::optional<std::vector<Row>> plan() {
    size_t columns = static_cast<size_t>(gridHeight) + 1;
    std::vector<int64_t> best((n + 1) * columns, Infinity);
    std::vector<int> from((n + 1) * columns, -1);
    best[0] = 0;
    for (int end = 1; end <= n; ++end)
      for (int begin = end - 1; begin >= 0; --begin) {
        int64_t height = packer.getRowHeight(begin, end);
        if (height > gridHeight)
          break;
        int64_t cost = getRowCost(begin, end, height);
        const int64_t *previous = &best[begin * columns];
        int64_t *current = &best[end * columns];
        int *source = &from[end * columns];
        for (int64_t used = height; used <= gridHeight; ++used) {
          int64_t candidate = previous[used - height] + cost;
          if (candidate < current[used]) {
            current[used] = candidate;
            source[used] = begin;
          }
        }
      }
    int64_t used = -1;
    for (int64_t h = 0; h <= gridHeight; ++h)
      if (best[n * columns + h] < Infinity &&
          (used < 0 || best[n * columns + h] < best[n * columns + used]))
        used = h;
    if (used < 0)
      return std::nullopt;
    std::vector<Row> rows;
    for (int end = n; end > 0;) {
      int begin = from[end * columns + used];
      int64_t height = packer.getRowHeight(begin, end);
      rows.push_back({begin, end, height});
      used -= height;
      end = begin;
    }
    std::reverse(rows.begin(), rows.end());
    return rows;
  }

  /// Gives the height the rows leave free to the rows whose wires it
  /// shortens most, by a knapsack over the rows.
  void stretch(std::vector<Row> &rows) const {
    int64_t total = 0;
    for (const Row &row : rows)
      total += row.height;
    int64_t slack = gridHeight - total;
    if (slack <= 0 || rows.empty())
      return;
    size_t columns = static_cast<size_t>(slack) + 1;
    std::vector<int64_t> best(columns, Infinity), next(columns);
    std::vector<std::vector<int64_t>> extra(rows.size(),
                                            std::vector<int64_t>(columns, 0));
    best[0] = 0;
    for (size_t r = 0; r < rows.size(); ++r) {
      const Row &row = rows[r];
      std::vector<int64_t> cost(columns);
      for (int64_t add = 0; add <= slack; ++add)
        cost[add] = getRowCost(row.begin, row.end, row.height + add);
      std::fill(next.begin(), next.end(), Infinity);
      for (int64_t used = 0; used <= slack; ++used) {
        if (best[used] >= Infinity)
          continue;
        for (int64_t add = 0; used + add <= slack; ++add)
          if (best[used] + cost[add] < next[used + add]) {
            next[used + add] = best[used] + cost[add];
            extra[r][used + add] = add;
          }
      }
      best.swap(next);
    }
    int64_t used = std::min_element(best.begin(), best.end()) - best.begin();
    for (size_t r = rows.size(); r-- > 0;) {
      int64_t add = extra[r][used];
      rows[r].height += add;
      used -= add;
    }
  }

private:
  const StripPacker &packer;
  int n;
  int64_t gridHeight;
  bool chargeTurns;
  std::vector<std::pair<int, int>> wires;
};

} // namespace

std::optional<std::vector<Row>>
planRows(const StripPacker &packer,
         const std::vector<std::pair<int, int>> &wires, bool chargeTurns) {
  return Planner(packer, wires, chargeTurns).plan();
}

void stretchRows(const StripPacker &packer,
                 const std::vector<std::pair<int, int>> &wires,
                 std::vector<Row> &rows) {
  Planner(packer, wires, /*chargeTurns=*/false).stretch(rows);
}

} // namespace tessera::placement
