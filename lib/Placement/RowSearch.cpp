//===- RowSearch.cpp - annealing over the order and the rows --------------===//

#include "tessera/Placement/RowSearch.h"
#include "tessera/Placement/Layout.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace tessera::placement {

RowSearch::RowSearch(const std::vector<KernelMenu> &menus,
                     std::vector<std::pair<int, int>> wires, int64_t gridWidth,
                     int64_t gridHeight, double weightDeltaT,
                     double weightLength, bool stacking)
    : menus(menus),
      stacks(stacking ? std::make_unique<StackCache>(gridWidth, gridHeight)
                      : nullptr),
      wires(std::move(wires)), gridWidth(gridWidth), gridHeight(gridHeight),
      weightDeltaT(weightDeltaT), weightLength(weightLength) {}

StripPacker RowSearch::getPacker(const std::vector<int> &order) const {
  std::vector<const KernelMenu *> ordered;
  for (int kernel : order)
    ordered.push_back(&menus[kernel]);
  return StripPacker(std::move(ordered), gridWidth, gridHeight, stacks.get());
}

std::vector<std::pair<int, int>>
RowSearch::getPositionWires(const std::vector<int> &order) const {
  std::vector<int> positionOf(order.size());
  for (size_t i = 0; i < order.size(); ++i)
    positionOf[order[i]] = static_cast<int>(i);
  std::vector<std::pair<int, int>> result;
  for (auto [a, b] : wires)
    result.emplace_back(positionOf[a], positionOf[b]);
  return result;
}

bool RowSearch::setLowestHeights(const StripPacker &packer,
                                 std::vector<Row> &rows) const {
  int64_t total = 0;
  for (Row &row : rows) {
    row.height = packer.getRowHeight(row.begin, row.end);
    total += row.height;
    if (total > gridHeight)
      return false;
  }
  return true;
}

std::optional<PlanEvaluation> RowSearch::evaluate(const RowPlan &plan,
                                                  bool shift) const {
  StripPacker packer = getPacker(plan.order);
  int64_t total = 0;
  for (const Row &row : plan.rows) {
    if (row.height > gridHeight ||
        packer.getRowWidth(row.begin, row.end, row.height) > gridWidth)
      return std::nullopt;
    total += row.height;
  }
  if (total > gridHeight)
    return std::nullopt;
  std::vector<std::pair<int, int>> positionWires = getPositionWires(plan.order);
  PlanEvaluation result;
  result.layout = layoutRows(packer, plan.rows, positionWires);
  if (shift)
    shiftKernels(packer, plan.rows, positionWires, result.layout);
  for (int i = 0; i < packer.size(); ++i) {
    const KernelMenu &menu = packer.getMenu(i);
    result.deltaT =
        std::max(result.deltaT,
                 menu.shapes[menu.shape[result.layout.bandHeight[i]]].time);
  }
  result.doubledLength =
      getDoubledWireLength(positionWires, result.layout.rects);
  result.score = weightDeltaT * double(result.deltaT) +
                 weightLength * double(result.doubledLength) / 2;
  return result;
}

RowPlan RowSearch::anneal(RowPlan current, int iterations,
                          std::chrono::steady_clock::time_point deadline,
                          uint64_t seed, bool keepRows) const {
  std::mt19937_64 random(seed);
  auto uniform = [&](int low, int high) { // Inclusive.
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  auto score = [&](RowPlan &plan) -> std::optional<double> {
    if (!setLowestHeights(getPacker(plan.order), plan.rows))
      return std::nullopt;
    std::optional<PlanEvaluation> evaluation = evaluate(plan, false);
    if (!evaluation)
      return std::nullopt;
    return evaluation->score;
  };
  std::optional<double> currentScore = score(current);
  if (!currentScore)
    return current;
  RowPlan best = current;
  double bestScore = *currentScore;
  int n = static_cast<int>(current.order.size());
  if (n < 2)
    return best;
  // Temperatures in score units: a few per cent of the score's wire part
  // at first, a thousandth of that at the end.
  std::optional<PlanEvaluation> initial = evaluate(current, false);
  double first =
      std::max(1.0, 0.03 * weightLength * double(initial->doubledLength) / 2);
  double last = first * 1e-3;
  for (int step = 0; step < iterations; ++step) {
    if ((step & 15) == 0 && std::chrono::steady_clock::now() > deadline)
      break;
    double temperature =
        first * std::pow(last / first, double(step) / iterations);
    RowPlan candidate = current;
    std::vector<Row> &rows = candidate.rows;
    std::vector<int> &order = candidate.order;
    int rowCount = static_cast<int>(rows.size());
    switch (uniform(keepRows ? 3 : 0, 7)) {
    case 0: { // Move a row boundary by one kernel.
      if (rowCount < 2)
        continue;
      int b = uniform(0, rowCount - 2);
      int delta = uniform(0, 1) ? 1 : -1;
      rows[b].end += delta;
      rows[b + 1].begin += delta;
      if (rows[b].end <= rows[b].begin || rows[b + 1].end <= rows[b + 1].begin)
        continue;
      break;
    }
    case 1: { // Split a row.
      int r = uniform(0, rowCount - 1);
      if (rows[r].end - rows[r].begin < 2)
        continue;
      int cut = uniform(rows[r].begin + 1, rows[r].end - 1);
      Row second = {cut, rows[r].end, 0};
      rows[r].end = cut;
      rows.insert(rows.begin() + r + 1, second);
      break;
    }
    case 2: { // Merge two rows.
      if (rowCount < 2)
        continue;
      int b = uniform(0, rowCount - 2);
      rows[b].end = rows[b + 1].end;
      rows.erase(rows.begin() + b + 1);
      break;
    }
    case 3: { // Swap two kernels close in the order.
      int p = uniform(0, n - 1);
      int q = std::clamp(p + uniform(-4, 4), 0, n - 1);
      if (p == q)
        continue;
      std::swap(order[p], order[q]);
      break;
    }
    case 4: { // Move a kernel a few places.
      int p = uniform(0, n - 1);
      int q = std::clamp(p + uniform(-6, 6), 0, n - 1);
      if (p == q)
        continue;
      int kernel = order[p];
      order.erase(order.begin() + p);
      order.insert(order.begin() + q, kernel);
      break;
    }
    case 5: { // Move a kernel anywhere.
      int p = uniform(0, n - 1), q = uniform(0, n - 1);
      if (p == q)
        continue;
      int kernel = order[p];
      order.erase(order.begin() + p);
      order.insert(order.begin() + q, kernel);
      break;
    }
    case 6: { // Swap any two kernels.
      int p = uniform(0, n - 1), q = uniform(0, n - 1);
      if (p == q)
        continue;
      std::swap(order[p], order[q]);
      break;
    }
    default: { // Reverse a short stretch.
      int p = uniform(0, n - 2);
      int q = std::min(n - 1, p + uniform(1, 6));
      std::reverse(order.begin() + p, order.begin() + q + 1);
      break;
    }
    }
    std::optional<double> candidateScore = score(candidate);
    if (!candidateScore)
      continue;
    double worse = *candidateScore - *currentScore;
    if (worse <= 0 || std::uniform_real_distribution<double>(0, 1)(random) <
                          std::exp(-worse / temperature)) {
      current = std::move(candidate);
      currentScore = candidateScore;
      if (*currentScore < bestScore) {
        bestScore = *currentScore;
        best = current;
      }
    }
  }
  return best;
}

} // namespace tessera::placement
