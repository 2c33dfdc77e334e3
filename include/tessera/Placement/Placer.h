//===- Placer.h - execution parameters and positions for a kgraph -*- C++
//-*-===//
//
// The placer chooses a target δT no smaller than the lower bound, gives every
// kernel a variant that meets it, packs the rectangles in serpentine rows by
// dynamic programming (StripPacker), shortens the wires by annealing the
// order and the rows (RowSearch) and finally by moving single kernels
// (refinePlacement); one row of full-height columns with an end kernel as
// a cap (layoutCapRow) replaces the rows where its wires are shorter.
// docs/Placement.md describes the algorithm.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLACEMENT_PLACER_H
#define TESSERA_PLACEMENT_PLACER_H

#include "tessera/Placement/KernelGraph.h"
#include "tessera/Placement/Solution.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

namespace tessera::placement {

/// What the placer minimises within the δT cap.
enum class PlacerObjective {
  Score,      ///< The contest's score (the default).
  WireLength, ///< The wire length; the score breaks ties.
};

struct PlacerOptions {
  /// Wall-clock budget in seconds for the whole run.
  double timeLimit = 60;
  /// δT stays at most this multiple of the lower bound (or of the smallest
  /// δT the rows can reach, if that is larger); within it the placer trades
  /// δT for wire length by the score's weights.
  double maxDeltaTRatio = 1.08;
  PlacerObjective objective = PlacerObjective::Score;
  /// Where progress goes, if anywhere.
  std::ostream *log = nullptr;
};

struct PlacerResult {
  std::optional<Solution> solution; ///< nullopt: `error` says why.
  std::string error;
  int64_t deltaT = 0;      ///< The largest time of any placed kernel.
  int64_t deltaTBound = 0; ///< getDeltaTLowerBound.
  int64_t doubledWireLength = 0;
  double score = 0;
  double utilisation = 0; ///< Placed area over grid area.
};

PlacerResult placeKernelGraph(const KernelGraph &graph,
                              const PlacerOptions &options);

} // namespace tessera::placement

#endif // TESSERA_PLACEMENT_PLACER_H
