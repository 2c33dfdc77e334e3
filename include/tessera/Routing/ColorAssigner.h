//===- ColorAssigner.h - one physical color per routed flow -----*- C++ -*-===//
//
// A router has one rx and one tx set per color, so two flows that cross one
// PE need distinct colors, whether they pass it, start or end there: with one
// color their configurations would be one, and each flow's wavelets would
// follow the other's tx ports. Flows that share no PE may share a color.
//
// Colors are chosen DSatur-style (the flow with the most distinctly colored
// neighbours first, then the most neighbours, then the problem's order),
// each getting the first of the problem's colors its neighbours leave free;
// pinned flows keep their colors. When that greedy pass gets stuck, a
// bounded exhaustive search tries again before giving up.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_ROUTING_COLORASSIGNER_H
#define TESSERA_ROUTING_COLORASSIGNER_H

#include "tessera/Routing/FlowRoute.h"
#include "tessera/Routing/RoutingProblem.h"

#include <optional>
#include <string>
#include <vector>

namespace tessera::routing {

struct ColorOptions {
  /// Color choices the exhaustive search may try before it gives up.
  long exactSearchBudget = 200000;
};

struct ColoringResult {
  /// One color per flow, in the problem's order; empty on failure.
  std::vector<unsigned> colors;
  /// Distinct colors in `colors`.
  int colorsUsed = 0;
  /// Whether the greedy pass got stuck and the exhaustive search found the
  /// colors.
  bool neededExactSearch = false;
  /// Empty on success, else why no coloring was found.
  std::vector<std::string> errors;
  /// On failure: the PE where the flows meet (absent when no single PE
  /// explains it) and the flows involved (indices into the problem's flows).
  std::optional<PE> conflictPE;
  std::vector<int> conflictFlows;

  bool succeeded() const { return errors.empty(); }
};

/// Colors the flows of `problem` routed as `routes` (one per flow; only
/// their PEs matter).
ColoringResult assignColors(const RoutingProblem &problem,
                            const std::vector<FlowRoute> &routes,
                            const ColorOptions &options = {});

/// PEs that must all carry one color: a color symbol's routes and the
/// configs written for it by hand, say.
struct ColorGroup {
  std::string name;
  std::vector<PE> pes;
  std::optional<unsigned> pinnedColor;
};

/// Colors groups rather than routed flows: groups sharing a PE get
/// distinct colors. The result's colors and conflict flows index `groups`.
ColoringResult assignGroupColors(int width, int height,
                                 const std::vector<unsigned> &colors,
                                 const std::vector<ColorGroup> &groups,
                                 const ColorOptions &options = {});

/// "0, 1", "0..20", "0..4, 6, 8..20": runs of three or more as ranges.
std::string formatColorList(std::vector<unsigned> colors);

} // namespace tessera::routing

#endif // TESSERA_ROUTING_COLORASSIGNER_H
