//===- Placer.cpp - execution parameters and positions for a kgraph -------===//

#include "tessera/Placement/Placer.h"
#include "tessera/Placement/CapRow.h"
#include "tessera/Placement/CapRowSearch.h"
#include "tessera/Placement/DeltaT.h"
#include "tessera/Placement/Layout.h"
#include "tessera/Placement/LinearArrangement.h"
#include "tessera/Placement/Refine.h"
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
  /// After refine: every kernel's shape and rectangle, by position in the
  /// order; empty before.
  std::vector<RefineKernel> refined;
  /// The plan finish saw that is best by the other measure (the wire length
  /// alone, or the score when the objective is the wire length): it is
  /// annealed too, and sometimes ends better by the objective (benchmark O).
  std::optional<RowPlan> other;
  bool otherStacking = false;
  double otherValue = std::numeric_limits<double>::infinity();
  int64_t otherLength = 0, otherDeltaT = 0;
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
    // Minimising the wire length alone, the searches ignore δT; attempts
    // with equal wire length are still told apart by the score.
    weightDeltaT = options.objective == PlacerObjective::WireLength
                       ? 0
                       : graph.weightDeltaT;
    weightLength = options.objective == PlacerObjective::WireLength
                       ? 1
                       : graph.weightLength;
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
  static constexpr size_t AlternateTargets = 2;
  static constexpr int AnnealSteps = 50000;
  /// The most promising target is annealed four times longer (C 1974 ->
  /// 1949, D 1851.5 -> 1812.5 by wire length); the others seldom win. It
  /// ends well within its share of the time, so the run stays deterministic.
  static constexpr int FirstAnnealSteps = 200000;
  static constexpr int ArrangeSteps = 30000;
  /// Annealing steps from one row, times the number of kernels (a step
  /// costs about as much per kernel), per restart.
  static constexpr int SingleRowWork = 8000000;
  static constexpr int SingleRowRestarts = 4;
  static constexpr size_t SingleRowTargets = 1;
  /// Capped rows refined, the shortest before refining first.
  static constexpr size_t CapRowsRefined = 3;
  /// The largest targets laid out with towers of any size.
  static constexpr size_t TowerTargets = 4;
  /// Annealing steps for the order of one row with towers, times the
  /// number of kernels (a step costs about as much per kernel), per start.
  static constexpr int CapRowWork = 20000000;

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
  /// With `other`, the search minimises the other measure: the wire length
  /// alone when the objective is the score, the score when it is the wire
  /// length.
  RowSearch getSearch(const Attempt &attempt, bool stacking,
                      bool other = false) const {
    bool lengthOnly =
        (options.objective == PlacerObjective::WireLength) != other;
    return RowSearch(attempt.menus, wires, graph.gridWidth, graph.gridHeight,
                     lengthOnly ? 0 : graph.weightDeltaT,
                     lengthOnly ? 1 : graph.weightLength, stacking);
  }
  /// The DP rows for the traversal order at `deltaT`, evaluated.
  std::optional<Attempt> plan(int64_t deltaT) const;
  /// Evaluates `plan` at its lowest heights and stretched; keeps the better
  /// in `attempt` if it beats what is there.
  void finish(Attempt &attempt, RowPlan plan, bool stacking) const;
  /// Runs the detailed placement on the attempt's layout and rescores it.
  void refine(Attempt &attempt) const;
  /// The traversal order in one row as tall as the grid, kernels stacked
  /// in pairs where they must be; nullopt if it does not fit. Annealing
  /// from it finds plans the row planner's estimate passes over (M).
  std::optional<RowPlan> getSingleRow(const Attempt &attempt) const {
    RowSearch search = getSearch(attempt, /*stacking=*/true);
    StripPacker packer = search.getPacker(traversal);
    int n = packer.size();
    if (packer.getRowHeight(0, n) > graph.gridHeight)
      return std::nullopt;
    return RowPlan{traversal, {Row{0, n, graph.gridHeight}}};
  }
  /// Whether `a` is the better final answer.
  bool isBetter(const Attempt &a, const Attempt &b) const {
    if (options.objective == PlacerObjective::WireLength &&
        a.evaluation.doubledLength != b.evaluation.doubledLength)
      return a.evaluation.doubledLength < b.evaluation.doubledLength;
    return getScore(a) < getScore(b);
  }
  double getScore(const Attempt &attempt) const {
    return graph.weightDeltaT * double(attempt.evaluation.deltaT) +
           graph.weightLength * double(attempt.evaluation.doubledLength) / 2;
  }
  PlacerResult getResult(const Attempt &attempt) const;
  /// The best of one row of full-height columns with a cap (CapRow.h) over
  /// every target, in the traversal order and each plan's, refined.
  std::optional<Attempt>
  placeCapRow(const std::vector<Attempt> &attempts) const;

  const KernelGraph &graph;
  const PlacerOptions &options;
  Clock::time_point start, deadline;
  std::vector<VariantEnumerator> enumerators;
  std::vector<int> kernels; ///< Node index of each kernel number.
  std::vector<std::pair<int, int>> wires;
  std::vector<int> traversal;
  double weightDeltaT = 0, weightLength = 0; ///< What the searches minimise.
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
    if (!evaluation)
      continue;
    double otherValue =
        options.objective == PlacerObjective::Score
            ? double(evaluation->doubledLength)
            : graph.weightDeltaT * double(evaluation->deltaT) +
                  graph.weightLength * double(evaluation->doubledLength) / 2;
    if (otherValue < attempt.otherValue) {
      attempt.other = *candidate;
      attempt.otherStacking = stacking;
      attempt.otherValue = otherValue;
      attempt.otherLength = evaluation->doubledLength;
      attempt.otherDeltaT = evaluation->deltaT;
    }
    if (evaluation->score < attempt.evaluation.score) {
      attempt.plan = *candidate;
      attempt.stacking = stacking;
      attempt.evaluation = std::move(*evaluation);
    }
  }
}

void PlacerRun::refine(Attempt &attempt) const {
  const RowsLayout &layout = attempt.evaluation.layout;
  const std::vector<int> &order = attempt.plan.order;
  std::vector<RefineKernel> items;
  for (size_t i = 0; i < order.size(); ++i) {
    const KernelMenu &menu = attempt.menus[order[i]];
    int64_t band = layout.bandHeight[i];
    items.push_back(
        {menu.shapes, menu.shape[band], menu.rotated[band], layout.rects[i]});
  }
  RefineOptions refineOptions;
  refineOptions.gridWidth = graph.gridWidth;
  refineOptions.gridHeight = graph.gridHeight;
  refineOptions.maxTime = attempt.evaluation.deltaT;
  std::vector<int> positionOf(order.size());
  for (size_t i = 0; i < order.size(); ++i)
    positionOf[order[i]] = static_cast<int>(i);
  std::vector<std::pair<int, int>> positionWires;
  for (auto [a, b] : wires)
    positionWires.emplace_back(positionOf[a], positionOf[b]);
  PlanEvaluation &evaluation = attempt.evaluation;
  evaluation.doubledLength =
      refinePlacement(items, positionWires, refineOptions);
  // A new shape is never slower than δT, but may drop the slowest.
  evaluation.deltaT = 0;
  for (const RefineKernel &item : items)
    evaluation.deltaT =
        std::max(evaluation.deltaT, item.shapes[item.shape].time);
  evaluation.score = weightDeltaT * double(evaluation.deltaT) +
                     weightLength * double(evaluation.doubledLength) / 2;
  attempt.refined = std::move(items);
}

std::optional<Attempt>
PlacerRun::placeCapRow(const std::vector<Attempt> &attempts) const {
  struct Candidate {
    int64_t length;
    size_t index; ///< Ties keep the attempts' order.
    const Attempt *attempt;
    std::vector<int> order;
    CapRowLayout layout;
  };
  if (attempts.empty())
    return std::nullopt;
  // Towers of many kernels only at the largest targets, whose narrow
  // kernels make them pay; elsewhere single-kernel caps, which are cheap.
  std::vector<int64_t> targets;
  for (const Attempt &attempt : attempts)
    targets.push_back(attempt.targetDeltaT);
  std::sort(targets.rbegin(), targets.rend());
  int64_t towerFrom = targets[std::min(targets.size(), TowerTargets) - 1];
  std::vector<Candidate> candidates;
  for (const Attempt &attempt : attempts)
    for (const std::vector<int> *order : {&traversal, &attempt.plan.order}) {
      if (order->size() != traversal.size())
        continue;
      std::optional<CapRowLayout> layout = layoutCapRow(
          attempt.menus, *order, wires, graph.gridWidth, graph.gridHeight,
          attempt.targetDeltaT >= towerFrom ? 1 << 30 : 1);
      if (layout)
        candidates.push_back({layout->doubledLength, candidates.size(),
                              &attempt, *order, std::move(*layout)});
    }
  // At the largest target, where kernels are narrowest, the order is
  // annealed for the row too, from the traversal, the plan's order and the
  // order folded for one line. (Annealing at the next targets too found
  // nothing shorter on C, D, J, M and took 2-9 s more.)
  int steps = CapRowWork / std::max<int>(1, traversal.size());
  for (const Attempt &attempt : attempts) {
    if (attempt.targetDeltaT != targets.front())
      continue;
    std::vector<int64_t> widths;
    for (const KernelMenu &menu : attempt.menus)
      widths.push_back(menu.extent[graph.gridHeight]);
    const std::vector<int> folded =
        arrangeLinearly(traversal, widths, wires, ArrangeSteps, /*seed=*/1);
    uint64_t seed = 0;
    for (const std::vector<int> *order :
         {&traversal, &attempt.plan.order, &folded}) {
      ++seed;
      if (order->size() != traversal.size())
        continue;
      std::optional<CapRowLayout> layout =
          annealCapRow(attempt.menus, *order, wires, graph.gridWidth,
                       graph.gridHeight, steps, seed);
      if (!layout)
        continue;
      log("annealed capped row at target " +
          std::to_string(attempt.targetDeltaT) + " from order " +
          std::to_string(seed) + ": wire length " +
          std::to_string(double(layout->doubledLength) / 2));
      std::vector<int> annealedOrder = layout->order;
      candidates.push_back({layout->doubledLength, candidates.size(), &attempt,
                            std::move(annealedOrder), std::move(*layout)});
    }
  }
  std::sort(
      candidates.begin(), candidates.end(),
      [](const Candidate &a, const Candidate &b) {
        return std::pair{a.length, a.index} < std::pair{b.length, b.index};
      });
  // The traversal and a plan's order often give the same layout; refine
  // distinct ones only.
  std::optional<Attempt> best;
  size_t refined = 0;
  for (size_t i = 0; i < candidates.size() && refined < CapRowsRefined; ++i) {
    Candidate &candidate = candidates[i];
    if (i > 0 && candidate.length == candidates[i - 1].length &&
        candidate.attempt->targetDeltaT ==
            candidates[i - 1].attempt->targetDeltaT)
      continue;
    ++refined;
    Attempt attempt;
    attempt.targetDeltaT = candidate.attempt->targetDeltaT;
    attempt.plan.order = candidate.order;
    std::vector<int> positionOf(candidate.order.size());
    for (size_t p = 0; p < candidate.order.size(); ++p)
      positionOf[candidate.order[p]] = static_cast<int>(p);
    std::vector<std::pair<int, int>> positionWires;
    for (auto [a, b] : wires)
      positionWires.emplace_back(positionOf[a], positionOf[b]);
    RefineOptions refineOptions;
    refineOptions.gridWidth = graph.gridWidth;
    refineOptions.gridHeight = graph.gridHeight;
    refineOptions.maxTime = attempt.targetDeltaT;
    attempt.refined = std::move(candidate.layout.kernels);
    PlanEvaluation &evaluation = attempt.evaluation;
    evaluation.doubledLength =
        refinePlacement(attempt.refined, positionWires, refineOptions);
    for (const RefineKernel &item : attempt.refined)
      evaluation.deltaT =
          std::max(evaluation.deltaT, item.shapes[item.shape].time);
    evaluation.score = weightDeltaT * double(evaluation.deltaT) +
                       weightLength * double(evaluation.doubledLength) / 2;
    log("capped row at target " + std::to_string(attempt.targetDeltaT) +
        ": wire length " + std::to_string(double(candidate.length) / 2) +
        ", refined " + std::to_string(double(evaluation.doubledLength) / 2));
    if (!best || isBetter(attempt, *best))
      best = std::move(attempt);
  }
  return best;
}

PlacerResult PlacerRun::getResult(const Attempt &attempt) const {
  PlacerResult result;
  Solution solution;
  int64_t area = 0;
  for (size_t i = 0; i < attempt.plan.order.size(); ++i) {
    int kernel = attempt.plan.order[i];
    const RefineKernel &item = attempt.refined[i];
    KernelPlacement placement;
    placement.node = kernels[kernel];
    placement.params = enumerators[kernel].getParams(item.shapes[item.shape],
                                                     attempt.targetDeltaT);
    placement.x = item.rect.x;
    placement.y = item.rect.y;
    placement.rotated = item.rotated;
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
            [&](const Attempt &a, const Attempt &b) { return isBetter(a, b); });
  if (attempts.empty()) {
    failure.error = "the kernels do not fit the grid in rows at any time per "
                    "sample";
    failure.deltaTBound = *bound;
    return failure;
  }

  // Anneal the most promising targets, one per δT reached (neighbouring
  // targets often choose the same variants): the best by the objective and
  // a few of the best by the other measure, since annealing can reorder
  // them. Each gets an equal share of what is left of the time, split
  // between its own plan and its other plan, annealed by the other measure.
  std::vector<Attempt *> chosen;
  auto choose = [&](const std::vector<Attempt *> &ranked, size_t count) {
    size_t limit = chosen.size() + count;
    for (Attempt *attempt : ranked)
      if (chosen.size() < limit &&
          std::none_of(chosen.begin(), chosen.end(), [&](const Attempt *other) {
            return other->evaluation.deltaT == attempt->evaluation.deltaT;
          }))
        chosen.push_back(attempt);
  };
  std::vector<Attempt *> ranked;
  for (Attempt &attempt : attempts)
    ranked.push_back(&attempt);
  choose(ranked, SearchedTargets);
  bool byLength = options.objective == PlacerObjective::Score;
  // Ties keep the objective's order: the attempts lie in it in memory.
  auto key = [&](const Attempt *attempt) {
    return std::pair{byLength ? double(attempt->evaluation.doubledLength)
                              : getScore(*attempt),
                     attempt};
  };
  std::sort(
      ranked.begin(), ranked.end(),
      [&](const Attempt *a, const Attempt *b) { return key(a) < key(b); });
  choose(ranked, AlternateTargets);
  size_t searched = chosen.size(), singles = 0;
  for (size_t i = 0; i < searched; ++i) {
    Attempt &attempt = *chosen[i];
    auto now = Clock::now();
    auto share = (deadline - now) / int(searched - i);
    // The other plan only if it is not the objective's own.
    std::optional<RowPlan> other;
    if (attempt.otherLength != attempt.evaluation.doubledLength ||
        attempt.otherDeltaT != attempt.evaluation.deltaT)
      other = attempt.other;
    bool otherStacking = attempt.otherStacking;
    std::optional<RowPlan> single;
    if (singles < SingleRowTargets && (single = getSingleRow(attempt)))
      ++singles;
    int parts = 1 + (other ? 1 : 0) + (single ? 1 : 0);
    int steps = i == 0 ? FirstAnnealSteps : AnnealSteps;
    RowPlan annealed = getSearch(attempt, attempt.stacking)
                           .anneal(attempt.plan, steps, now + share / parts,
                                   /*seed=*/i + 1);
    finish(attempt, std::move(annealed), attempt.stacking);
    if (other) {
      annealed = getSearch(attempt, otherStacking, /*other=*/true)
                     .anneal(std::move(*other), steps,
                             now + share * (1 + (single ? 1 : 0)) / parts,
                             /*seed=*/i + 1);
      finish(attempt, std::move(annealed), otherStacking);
    }
    // Annealing from one row is erratic (on M it ends anywhere between
    // 2300 and 2900): restarts with other seeds keep the best.
    for (int restart = 0; single && restart < SingleRowRestarts; ++restart) {
      annealed = getSearch(attempt, /*stacking=*/true)
                     .anneal(*single,
                             SingleRowWork / std::max<int>(1, traversal.size()),
                             deadline, /*seed=*/100 * restart + i + 1,
                             /*keepRows=*/true);
      finish(attempt, std::move(annealed), /*stacking=*/true);
    }
    refine(attempt);
    log("annealed target " + std::to_string(attempt.targetDeltaT) +
        ": deltaT " + std::to_string(attempt.evaluation.deltaT) +
        ", wire length " +
        std::to_string(double(attempt.evaluation.doubledLength) / 2) + ", " +
        std::to_string(attempt.plan.rows.size()) + " rows" +
        (single ? " (also from one row)" : ""));
  }
  Attempt &best = *std::min_element(
      attempts.begin(), attempts.end(),
      [&](const Attempt &a, const Attempt &b) { return isBetter(a, b); });
  if (best.refined.empty())
    refine(best);
  std::optional<Attempt> capped = placeCapRow(attempts);
  PlacerResult result =
      getResult(capped && isBetter(*capped, best) ? *capped : best);
  result.deltaTBound = *bound;
  return result;
}

} // namespace

PlacerResult placeKernelGraph(const KernelGraph &graph,
                              const PlacerOptions &options) {
  return PlacerRun(graph, options).run();
}

} // namespace tessera::placement
