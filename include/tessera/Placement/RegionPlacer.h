//===- RegionPlacer.h - code regions on a rectangle of PEs ------*- C++ -*-===//
//
// What tessera-place-regions and SdkLayout need: rectangles of PEs (code
// regions) put on a fabric rectangle without overlap, those the user fixed
// where they are, the others close to what they connect to. Greedy and
// deterministic: regions are placed most-connected-to-what-is-placed first,
// each at the free origin that minimises the Manhattan length of its
// connections to regions already placed (then the north-west-most one).
// Connections between two unplaced regions count once the second is
// placed. docs/Placement.md ("Code regions") describes it.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLACEMENT_REGIONPLACER_H
#define TESSERA_PLACEMENT_REGIONPLACER_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::placement {

struct RegionPoint {
  int x = 0, y = 0;
  bool operator==(const RegionPoint &) const = default;
};

struct CodeRegion {
  std::string name;
  int width = 1, height = 1;
  /// Where the user put its north-west PE; unset: the placer chooses.
  std::optional<RegionPoint> origin;
};

/// A connection from PE `fromPE` of region `from` to PE `toPE` of region
/// `to` (region coordinates); `weight` scales its length (a port of four
/// PEs is four connections of weight 1, say).
struct RegionConnection {
  int from = 0, to = 0;
  RegionPoint fromPE, toPE;
  int weight = 1;
};

struct RegionProblem {
  int width = 0, height = 0;
  std::vector<CodeRegion> regions;
  std::vector<RegionConnection> connections;
  /// PEs no region may take (tiles the layout places itself).
  std::vector<RegionPoint> blocked;
};

struct RegionPlacement {
  /// One origin per region, in the problem's order; empty on failure.
  std::vector<RegionPoint> origins;
  /// The weighted Manhattan length of all connections.
  int64_t wireLength = 0;
  /// Empty on success, else the first reason (bad input, an overlap of
  /// fixed regions, or a region that fits nowhere).
  std::vector<std::string> errors;
  /// The region (index into the problem's) the first error is about, if
  /// it is about one.
  std::optional<int> failedRegion;

  bool succeeded() const { return errors.empty(); }
};

RegionPlacement placeRegions(const RegionProblem &problem);

} // namespace tessera::placement

#endif // TESSERA_PLACEMENT_REGIONPLACER_H
