//===- ColorAssigner.cpp - one physical color per routed flow -------------===//

#include "tessera/Routing/ColorAssigner.h"

#include "Format.h"

#include <algorithm>

namespace tessera::routing {
namespace {

/// Colors are handled by their position in the problem's list of colors,
/// so the first free position is the most preferred free color.
class Colorer {
public:
  Colorer(const RoutingProblem &problem, const std::vector<FlowRoute> &routes,
          const ColorOptions &options)
      : problem(problem), routes(routes), options(options),
        numFlows(static_cast<int>(problem.flows.size())),
        numColors(static_cast<int>(problem.colors.size())) {}

  ColoringResult run();

private:
  /// The flows crossing each PE, PEs in row-major order.
  std::vector<std::pair<PE, std::vector<int>>> getFlowsByPE() const;
  bool checkPEs(const std::vector<std::pair<PE, std::vector<int>>> &byPE);
  void assign(int flow, int position);
  void unassign(int flow);
  /// The uncolored flow with the most distinct neighbour colors, then the
  /// most neighbours, then the first; -1 when all are colored.
  int pickNext() const;
  void colorPinned();
  /// DSatur; returns the flow it got stuck at, or -1.
  int colorGreedily();
  bool searchExactly(int uncolored);
  ColoringResult getColors();

  const RoutingProblem &problem;
  const std::vector<FlowRoute> &routes;
  const ColorOptions &options;
  int numFlows, numColors;
  ColoringResult result;

  std::vector<std::vector<int>> neighbours;
  std::vector<int> pinnedPosition; ///< -1: not pinned.
  std::vector<bool> isPinnedPosition;
  std::vector<int> position; ///< -1: not colored yet.
  /// neighbourUse[flow * numColors + p]: neighbours of flow with color p.
  std::vector<int> neighbourUse;
  std::vector<int> saturation; ///< Distinct colors among the neighbours.
  std::vector<int> colorUse;   ///< Flows with each color.
  long searchSteps = 0;
};

std::vector<std::pair<PE, std::vector<int>>> Colorer::getFlowsByPE() const {
  std::vector<std::pair<PE, int>> crossings;
  for (int flow = 0; flow < numFlows; ++flow)
    for (const RouteHop &hop : routes[flow].hops)
      crossings.push_back({hop.pe, flow});
  std::sort(crossings.begin(), crossings.end());
  crossings.erase(std::unique(crossings.begin(), crossings.end()),
                  crossings.end());
  std::vector<std::pair<PE, std::vector<int>>> byPE;
  for (auto [pe, flow] : crossings) {
    if (byPE.empty() || !(byPE.back().first == pe))
      byPE.push_back({pe, {}});
    byPE.back().second.push_back(flow);
  }
  return byPE;
}

std::string formatFreeColors(const std::vector<unsigned> &colors) {
  if (colors.empty())
    return "no color is free";
  return formatCount(static_cast<long>(colors.size()), "color") +
         (colors.size() == 1 ? " is" : " are") + " free (" +
         formatColorList(colors) + ")";
}

std::vector<std::string> getNames(const RoutingProblem &problem,
                                  const std::vector<int> &flows) {
  std::vector<std::string> names;
  for (int flow : flows)
    names.push_back(problem.flows[flow].name);
  return names;
}

/// A PE crossed by more flows than there are colors proves there is no
/// coloring, and so do two flows pinned to one color meeting at a PE.
bool Colorer::checkPEs(
    const std::vector<std::pair<PE, std::vector<int>>> &byPE) {
  for (const auto &[pe, flows] : byPE)
    if (static_cast<int>(flows.size()) > numColors) {
      result.conflictPE = pe;
      result.conflictFlows = flows;
      result.errors.push_back("out of colors at " + formatPE(pe) + ": " +
                              formatFlowNames(getNames(problem, flows)) +
                              (flows.size() == 1 ? " crosses" : " cross") +
                              " it and " + formatFreeColors(problem.colors));
      return false;
    }
  for (const auto &[pe, flows] : byPE)
    for (size_t i = 0; i < flows.size(); ++i)
      for (size_t j = i + 1; j < flows.size(); ++j) {
        const Flow &a = problem.flows[flows[i]];
        const Flow &b = problem.flows[flows[j]];
        if (a.pinnedColor && a.pinnedColor == b.pinnedColor) {
          result.conflictPE = pe;
          result.conflictFlows = {flows[i], flows[j]};
          result.errors.push_back("flows '" + a.name + "' and '" + b.name +
                                  "' are both pinned to color " +
                                  std::to_string(*a.pinnedColor) +
                                  " and meet at " + formatPE(pe));
          return false;
        }
      }
  return true;
}

void Colorer::assign(int flow, int p) {
  position[flow] = p;
  ++colorUse[p];
  for (int neighbour : neighbours[flow])
    if (neighbourUse[neighbour * numColors + p]++ == 0)
      ++saturation[neighbour];
}

void Colorer::unassign(int flow) {
  int p = position[flow];
  position[flow] = -1;
  --colorUse[p];
  for (int neighbour : neighbours[flow])
    if (--neighbourUse[neighbour * numColors + p] == 0)
      --saturation[neighbour];
}

int Colorer::pickNext() const {
  int best = -1;
  for (int flow = 0; flow < numFlows; ++flow) {
    if (position[flow] >= 0)
      continue;
    if (best < 0 || saturation[flow] > saturation[best] ||
        (saturation[flow] == saturation[best] &&
         neighbours[flow].size() > neighbours[best].size()))
      best = flow;
  }
  return best;
}

void Colorer::colorPinned() {
  position.assign(numFlows, -1);
  neighbourUse.assign(static_cast<size_t>(numFlows) * numColors, 0);
  saturation.assign(numFlows, 0);
  colorUse.assign(numColors, 0);
  for (int flow = 0; flow < numFlows; ++flow)
    if (pinnedPosition[flow] >= 0)
      assign(flow, pinnedPosition[flow]);
}

int Colorer::colorGreedily() {
  colorPinned();
  for (int flow = pickNext(); flow >= 0; flow = pickNext()) {
    int p = 0;
    while (p < numColors && neighbourUse[flow * numColors + p] > 0)
      ++p;
    if (p == numColors)
      return flow;
    assign(flow, p);
  }
  return -1;
}

bool Colorer::searchExactly(int uncolored) {
  if (uncolored == 0)
    return true;
  int flow = pickNext();
  bool triedUnused = false;
  for (int p = 0; p < numColors; ++p) {
    if (neighbourUse[flow * numColors + p] > 0)
      continue;
    // Colors no flow has and none is pinned to are interchangeable: trying
    // one of them covers them all.
    if (colorUse[p] == 0 && !isPinnedPosition[p]) {
      if (triedUnused)
        continue;
      triedUnused = true;
    }
    if (++searchSteps > options.exactSearchBudget)
      return false;
    assign(flow, p);
    if (searchExactly(uncolored - 1))
      return true;
    unassign(flow);
  }
  return false;
}

ColoringResult Colorer::getColors() {
  std::vector<bool> used(numColors, false);
  for (int flow = 0; flow < numFlows; ++flow) {
    result.colors.push_back(problem.colors[position[flow]]);
    if (!used[position[flow]]) {
      used[position[flow]] = true;
      ++result.colorsUsed;
    }
  }
  return result;
}

ColoringResult Colorer::run() {
  if (routes.size() != problem.flows.size()) {
    result.errors.push_back("expected " + formatCount(numFlows, "route") +
                            " (one per flow), got " +
                            std::to_string(routes.size()));
    return result;
  }
  pinnedPosition.assign(numFlows, -1);
  isPinnedPosition.assign(numColors, false);
  for (int flow = 0; flow < numFlows; ++flow)
    if (const std::optional<unsigned> &color =
            problem.flows[flow].pinnedColor) {
      auto found =
          std::find(problem.colors.begin(), problem.colors.end(), *color);
      pinnedPosition[flow] = static_cast<int>(found - problem.colors.begin());
      isPinnedPosition[pinnedPosition[flow]] = true;
    }

  std::vector<std::pair<PE, std::vector<int>>> byPE = getFlowsByPE();
  if (!checkPEs(byPE))
    return result;
  neighbours.assign(numFlows, {});
  for (const auto &[pe, flows] : byPE)
    for (int a : flows)
      for (int b : flows)
        if (a != b)
          neighbours[a].push_back(b);
  for (std::vector<int> &list : neighbours) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }

  int stuck = colorGreedily();
  if (stuck < 0)
    return getColors();
  // Keep the greedy pass's picture for the message, should the search fail.
  std::vector<int> stuckNeighbours = neighbours[stuck];
  colorPinned();
  int uncolored = 0;
  for (int flow = 0; flow < numFlows; ++flow)
    uncolored += position[flow] < 0;
  if (searchExactly(uncolored)) {
    result.neededExactSearch = true;
    return getColors();
  }
  result.conflictFlows = stuckNeighbours;
  result.conflictFlows.insert(result.conflictFlows.begin(), stuck);
  std::vector<std::string> names = getNames(problem, stuckNeighbours);
  result.errors.push_back(
      "out of colors for flow '" + problem.flows[stuck].name +
      "': it shares PEs with " + formatFlowNames(names) +
      (names.size() == 1 ? ", which takes all " : ", which take all ") +
      formatCount(numColors, "free color") + " (" +
      formatColorList(problem.colors) + ")");
  return result;
}

} // namespace

ColoringResult assignColors(const RoutingProblem &problem,
                            const std::vector<FlowRoute> &routes,
                            const ColorOptions &options) {
  ColoringResult result;
  result.errors = validateProblem(problem);
  if (!result.errors.empty())
    return result;
  return Colorer(problem, routes, options).run();
}

ColoringResult assignGroupColors(int width, int height,
                                 const std::vector<unsigned> &colors,
                                 const std::vector<ColorGroup> &groups,
                                 const ColorOptions &options) {
  // Each group is a flow whose route is its PEs: only they matter here.
  RoutingProblem problem;
  problem.width = width;
  problem.height = height;
  problem.colors = colors;
  std::vector<FlowRoute> routes;
  for (const ColorGroup &group : groups) {
    Flow flow;
    flow.name = group.name;
    PE first = group.pes.empty() ? PE{0, 0} : group.pes.front();
    flow.source = {first, Port::Ramp};
    flow.sinks = {{first, Port::Ramp}};
    flow.pinnedColor = group.pinnedColor;
    problem.flows.push_back(std::move(flow));
    FlowRoute route;
    for (PE pe : group.pes)
      route.hops.push_back({pe, Port::Ramp, 0});
    routes.push_back(std::move(route));
  }
  return assignColors(problem, routes, options);
}

std::string formatColorList(std::vector<unsigned> colors) {
  std::sort(colors.begin(), colors.end());
  std::string text;
  for (size_t i = 0; i < colors.size();) {
    size_t end = i + 1;
    while (end < colors.size() && colors[end] == colors[end - 1] + 1)
      ++end;
    if (!text.empty())
      text += ", ";
    if (end - i >= 3) {
      text +=
          std::to_string(colors[i]) + ".." + std::to_string(colors[end - 1]);
      i = end;
    } else {
      text += std::to_string(colors[i]);
      ++i;
    }
  }
  return text;
}

} // namespace tessera::routing
