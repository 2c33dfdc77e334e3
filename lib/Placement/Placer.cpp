//===- Placer.cpp - execution parameters and positions for a kgraph -------===//

#include "tessera/Placement/Placer.h"
#include "tessera/Placement/DeltaT.h"
#include "tessera/Placement/Layout.h"
#include "tessera/Placement/LinearArrangement.h"
#include "tessera/Placement/RowPlanner.h"
#include "tessera/Placement/RowSearch.h"
#include "tessera/Placement/StripPacker.h"
#include "tessera/Placement/Traversal.h"
#include "tessera/Placement/Variants.h"
#include "tessera/Placement/WireLength.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace tessera::placement {
namespace {

using Clock = std::chrono::steady_clock;

/// A plan at one target δT and how it scores.
struct Attempt {
  int64_t targetDeltaT = 0;
  std::vector<KernelMenu> menus; ///< By kernel number.
  bool stacking = false;         ///< Whether the plan stacks kernels.
  RowPlan plan;
  PlanEvaluation evaluation;
};

std::vector<const KernelMenu *>
getOrderedMenus(const std::vector<KernelMenu> &menus,
                const std::vector<int> &order) {
  std::vector<const KernelMenu *> result;
  for (int kernel : order)
    result.push_back(&menus[kernel]);
  return result;
}

class PlacerRun {
public:
  PlacerRun(const KernelGraph &graph, const PlacerOptions &options)
      : graph(graph), options(options), start(Clock::now()),
        enumerators(makeEnumerators(graph)), kernels(graph.kernels()) {
    std::vector<int> kernelOf(graph.nodes.size(), -1);
    for (size_t i = 0; i < kernels.size(); ++i)
      kernelOf[kernels[i]] = static_cast<int>(i);
    for (auto [from, to] : getKernelWires(graph))
      wires.emplace_back(kernelOf[from], kernelOf[to]);
    for (int node : getTraversalOrder(graph))
      traversal.push_back(kernelOf[node]);
    deadline =
        start +
        std::chrono::duration_cast<Clock::duration>(
            std::chrono::duration<double>(SearchShare * options.timeLimit));
  }

  PlacerResult run();

private:
  /// The share of the time limit the search may use; the rest is margin for
  /// writing the solution.
  static constexpr double SearchShare = 0.8;
  static constexpr int TargetSteps = 16;
  static constexpr size_t SearchedTargets = 5;
  static constexpr int AnnealSteps = 50000;
  static constexpr int ArrangeSteps = 30000;

  double getElapsed() const {
    return std::chrono::duration<double>(Clock::now() - start).count();
  }
  void log(const std::string &message) const {
    if (options.log)
      *options.log << "[" << getElapsed() << " s] " << message << "\n";
  }

  std::vector<KernelMenu> getMenus(int64_t deltaT) const {
    std::vector<KernelMenu> menus;
    for (const VariantEnumerator &enumerator : enumerators)
      menus.emplace_back(enumerator.getShapes(deltaT), graph.gridWidth,
                         graph.gridHeight);
    return menus;
  }
  RowSearch getSearch(const Attempt &attempt, bool stacking) const {
    return RowSearch(attempt.menus, wires, graph.gridWidth, graph.gridHeight,
                     graph.weightDeltaT, graph.weightLength, stacking);
  }
  /// The DP rows for the traversal order at `deltaT`, evaluated.
  std::optional<Attempt> plan(int64_t deltaT) const;
  /// Evaluates `plan` at its lowest heights and stretched; keeps the better
  /// in `attempt` if it beats what is there.
  void finish(Attempt &attempt, RowPlan plan, bool stacking) const;
  PlacerResult getResult(const Attempt &attempt) const;

  const KernelGraph &graph;
  const PlacerOptions &options;
  Clock::time_point start, deadline;
  std::vector<VariantEnumerator> enumerators;
  std::vector<int> kernels; ///< Node index of each kernel number.
  std::vector<std::pair<int, int>> wires;
  std::vector<int> traversal;
};

std::optional<Attempt> PlacerRun::plan(int64_t deltaT) const {
  Attempt attempt;
  attempt.targetDeltaT = deltaT;
  attempt.menus = getMenus(deltaT);
  attempt.evaluation.score = std::numeric_limits<double>::infinity();
  // Both estimates of the wires between rows, for the traversal order and
  // for a folded order (for graphs whose skip connections the traversal
  // stretches), with and without stacked slots; the best plan by exact
  // evaluation wins. Stacking makes rows narrower but puts a tall wire
  // between the stacked kernels, so it rarely wins; it is tried on the
  // traversal order only.
  size_t rowCount = 0;
  auto tryOrder = [&](const std::vector<int> &order, bool stacking) {
    RowSearch search = getSearch(attempt, stacking);
    StripPacker packer = search.getPacker(order);
    for (bool chargeTurns : {false, true}) {
      std::optional<std::vector<Row>> rows =
          planRows(packer, search.getPositionWires(order), chargeTurns);
      if (!rows)
        return false;
      rowCount = std::max(rowCount, rows->size());
      finish(attempt, RowPlan{order, *rows}, stacking);
    }
    return true;
  };
  bool fits = tryOrder(traversal, false);
  fits = tryOrder(traversal, true) || fits;
  if (!fits)
    return std::nullopt;
  // The folded order's widths are those in rows as tall as the plans'.
  int64_t rowHeight = graph.gridHeight / std::max<int64_t>(1, rowCount);
  std::vector<int64_t> widths;
  for (const KernelMenu &menu : attempt.menus)
    widths.push_back(menu.extent[rowHeight]);
  tryOrder(arrangeLinearly(traversal, widths, wires, ArrangeSteps,
                           /*seed=*/1),
           false);
  return attempt;
}

void PlacerRun::finish(Attempt &attempt, RowPlan plan, bool stacking) const {
  RowSearch search = getSearch(attempt, stacking);
  StripPacker packer = search.getPacker(plan.order);
  for (Row &row : plan.rows)
    row.height = packer.getRowHeight(row.begin, row.end);
  RowPlan stretched = plan;
  stretchRows(packer, search.getPositionWires(plan.order), stretched.rows);
  for (const RowPlan *candidate : {&plan, &stretched}) {
    std::optional<PlanEvaluation> evaluation =
        search.evaluate(*candidate, true);
    if (evaluation && evaluation->score < attempt.evaluation.score) {
      attempt.plan = *candidate;
      attempt.stacking = stacking;
      attempt.evaluation = std::move(*evaluation);
    }
  }
}

PlacerResult PlacerRun::getResult(const Attempt &attempt) const {
  PlacerResult result;
  Solution solution;
  int64_t area = 0;
  const RowsLayout &layout = attempt.evaluation.layout;
  for (size_t i = 0; i < attempt.plan.order.size(); ++i) {
    int kernel = attempt.plan.order[i];
    const KernelMenu &menu = attempt.menus[kernel];
    int64_t band = layout.bandHeight[i];
    const Shape &shape = menu.shapes[menu.shape[band]];
    KernelPlacement placement;
    placement.node = kernels[kernel];
    placement.params =
        enumerators[kernel].getParams(shape, attempt.targetDeltaT);
    placement.x = layout.rects[i].x;
    placement.y = layout.rects[i].y;
    placement.rotated = menu.rotated[band];
    KernelCost cost =
        getKernelCost(graph.nodes[placement.node], placement.params);
    result.deltaT = std::max(result.deltaT, cost.time);
    area += cost.height * cost.width;
    solution.kernels.push_back(std::move(placement));
  }
  std::sort(solution.kernels.begin(), solution.kernels.end(),
            [](const KernelPlacement &a, const KernelPlacement &b) {
              return a.node < b.node;
            });
  result.solution = std::move(solution);
  result.doubledWireLength = attempt.evaluation.doubledLength;
  result.score = graph.weightDeltaT * double(result.deltaT) +
                 graph.weightLength * double(result.doubledWireLength) / 2;
  result.utilisation =
      double(area) / double(graph.gridWidth * graph.gridHeight);
  return result;
}

PlacerResult PlacerRun::run() {
  PlacerResult failure;
  std::optional<int64_t> bound = getDeltaTLowerBound(graph, enumerators);
  if (!bound) {
    failure.error = "no time per sample lets every kernel fit the grid and "
                    "the memory limit";
    return failure;
  }
  log("lower bound on deltaT " + std::to_string(*bound));

  auto packs = [&](int64_t deltaT) {
    std::vector<KernelMenu> menus = getMenus(deltaT);
    StackCache stacks(graph.gridWidth, graph.gridHeight);
    return StripPacker(getOrderedMenus(menus, traversal), graph.gridWidth,
                       graph.gridHeight, &stacks)
        .packLowest()
        .has_value();
  };
  std::optional<int64_t> smallest =
      findSmallestDeltaT(*bound, getSlowestDeltaT(enumerators), packs);
  if (!smallest) {
    failure.error = "the kernels do not fit the grid in rows at any time per "
                    "sample";
    failure.deltaTBound = *bound;
    return failure;
  }
  log("rows fit from deltaT " + std::to_string(*smallest));

  // Larger targets allow smaller, narrower kernels and so shorter wires;
  // plan two geometric series of them: a fine one just above the smallest
  // (where the weights usually make the best trade) and one up to the cap.
  int64_t cap = std::max<int64_t>(
      *smallest, static_cast<int64_t>(options.maxDeltaTRatio * double(*bound)));
  std::vector<int64_t> targets = {*smallest};
  // The coarse series steps by at most about 3 % (at most 64 steps).
  int coarseSteps = std::clamp(
      static_cast<int>(std::ceil(std::log(double(cap) / double(*smallest)) /
                                 std::log(1.03))),
      TargetSteps, 4 * TargetSteps);
  for (auto [end, steps] :
       {std::pair{std::min<int64_t>(cap, *smallest + *smallest / 10),
                  TargetSteps},
        std::pair{cap, coarseSteps}})
    for (int step = 1; step <= steps; ++step) {
      double fraction = double(step) / steps;
      targets.push_back(static_cast<int64_t>(
          std::floor(double(*smallest) *
                     std::pow(double(end) / double(*smallest), fraction))));
    }
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  std::vector<Attempt> attempts;
  for (int64_t target : targets) {
    // The smallest target is always planned; the others only in time.
    if (!attempts.empty() && Clock::now() > deadline)
      break;
    std::optional<Attempt> attempt = plan(target);
    if (!attempt)
      continue;
    log("target " + std::to_string(target) + ": deltaT " +
        std::to_string(attempt->evaluation.deltaT) + ", wire length " +
        std::to_string(double(attempt->evaluation.doubledLength) / 2) + ", " +
        std::to_string(attempt->plan.rows.size()) + " rows");
    attempts.push_back(std::move(*attempt));
  }
  std::sort(attempts.begin(), attempts.end(),
            [](const Attempt &a, const Attempt &b) {
              return a.evaluation.score < b.evaluation.score;
            });
  if (attempts.empty()) {
    failure.error = "the kernels do not fit the grid in rows at any time per "
                    "sample";
    failure.deltaTBound = *bound;
    return failure;
  }

  // Anneal the most promising targets, one per δT reached (neighbouring
  // targets often choose the same variants); each gets an equal share of
  // what is left of the time.
  std::vector<Attempt *> chosen;
  for (Attempt &attempt : attempts)
    if (chosen.size() < SearchedTargets &&
        std::none_of(chosen.begin(), chosen.end(), [&](const Attempt *other) {
          return other->evaluation.deltaT == attempt.evaluation.deltaT;
        }))
      chosen.push_back(&attempt);
  size_t searched = chosen.size();
  for (size_t i = 0; i < searched; ++i) {
    Attempt &attempt = *chosen[i];
    auto now = Clock::now();
    auto share = (deadline - now) / int(searched - i);
    RowPlan annealed = getSearch(attempt, attempt.stacking)
                           .anneal(attempt.plan, AnnealSteps, now + share,
                                   /*seed=*/i + 1);
    finish(attempt, std::move(annealed), attempt.stacking);
    log("annealed target " + std::to_string(attempt.targetDeltaT) +
        ": deltaT " + std::to_string(attempt.evaluation.deltaT) +
        ", wire length " +
        std::to_string(double(attempt.evaluation.doubledLength) / 2) + ", " +
        std::to_string(attempt.plan.rows.size()) + " rows");
  }
  const Attempt &best = *std::min_element(
      attempts.begin(), attempts.end(), [](const Attempt &a, const Attempt &b) {
        return a.evaluation.score < b.evaluation.score;
      });
  PlacerResult result = getResult(best);
  result.deltaTBound = *bound;
  return result;
}

} // namespace

PlacerResult placeKernelGraph(const KernelGraph &graph,
                              const PlacerOptions &options) {
  return PlacerRun(graph, options).run();
}

} // namespace tessera::placement
