//===- RegionPlacer.cpp - code regions on a rectangle of PEs --------------===//

#include "tessera/Placement/RegionPlacer.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

namespace tessera::placement {
namespace {

std::string formatPoint(RegionPoint p) {
  return "(" + std::to_string(p.x) + ", " + std::to_string(p.y) + ")";
}

class Placer {
public:
  explicit Placer(const RegionProblem &problem)
      : problem(problem), owner(size_t(std::max(problem.width, 0)) *
                                    size_t(std::max(problem.height, 0)),
                                -1),
        origins(problem.regions.size()), placed(problem.regions.size()) {}

  RegionPlacement run();

private:
  bool validate();
  bool placeFixed();
  /// The unplaced region with the most connection weight to placed ones
  /// (then the largest, then the first).
  int pickNext() const;
  /// The best free origin for `region`, if any.
  std::optional<RegionPoint> findOrigin(int region) const;
  void occupy(int region, RegionPoint origin);
  int64_t getWireLength() const;

  int &cell(int x, int y) { return owner[size_t(y) * problem.width + x]; }
  int cell(int x, int y) const { return owner[size_t(y) * problem.width + x]; }

  const RegionProblem &problem;
  /// Per PE: the region on it, -2 for blocked, -1 for free.
  std::vector<int> owner;
  std::vector<RegionPoint> origins;
  std::vector<bool> placed;
  RegionPlacement result;
};

bool Placer::validate() {
  auto fail = [&](const std::string &message) {
    result.errors.push_back(message);
    return false;
  };
  auto failAt = [&](int region, const std::string &message) {
    result.failedRegion = region;
    return fail(message);
  };
  if (problem.width < 1 || problem.height < 1)
    return fail("the rectangle must have a positive size, got " +
                std::to_string(problem.width) + "x" +
                std::to_string(problem.height));
  for (const CodeRegion &region : problem.regions) {
    int index = static_cast<int>(&region - problem.regions.data());
    if (region.width < 1 || region.height < 1)
      return failAt(index, "region '" + region.name +
                  "' must have a positive size, "
                  "got " +
                  std::to_string(region.width) + "x" +
                  std::to_string(region.height));
    if (region.width > problem.width || region.height > problem.height)
      return failAt(index, "region '" + region.name + "' (" +
                  std::to_string(region.width) + "x" +
                  std::to_string(region.height) + ") does not fit in the " +
                  std::to_string(problem.width) + "x" +
                  std::to_string(problem.height) + " rectangle");
  }
  int count = static_cast<int>(problem.regions.size());
  for (const RegionConnection &c : problem.connections) {
    if (c.from < 0 || c.from >= count || c.to < 0 || c.to >= count)
      return fail(
          "a connection names region " +
          std::to_string(c.from < 0 || c.from >= count ? c.from : c.to) +
          ", but there are " + std::to_string(count));
    for (auto [index, pe] : {std::pair{c.from, c.fromPE}, {c.to, c.toPE}}) {
      const CodeRegion &region = problem.regions[index];
      if (pe.x < 0 || pe.y < 0 || pe.x >= region.width || pe.y >= region.height)
        return fail("a connection names PE " + formatPoint(pe) +
                    " of region '" + region.name + "' (" +
                    std::to_string(region.width) + "x" +
                    std::to_string(region.height) + ")");
    }
    if (c.weight < 0)
      return fail("a connection has negative weight " +
                  std::to_string(c.weight));
  }
  for (RegionPoint pe : problem.blocked) {
    if (pe.x < 0 || pe.y < 0 || pe.x >= problem.width || pe.y >= problem.height)
      return fail("blocked PE " + formatPoint(pe) + " is outside the " +
                  std::to_string(problem.width) + "x" +
                  std::to_string(problem.height) + " rectangle");
    cell(pe.x, pe.y) = -2;
  }
  return true;
}

void Placer::occupy(int region, RegionPoint origin) {
  const CodeRegion &r = problem.regions[region];
  for (int y = 0; y < r.height; ++y)
    for (int x = 0; x < r.width; ++x)
      cell(origin.x + x, origin.y + y) = region;
  origins[region] = origin;
  placed[region] = true;
}

bool Placer::placeFixed() {
  for (size_t i = 0; i < problem.regions.size(); ++i) {
    const CodeRegion &region = problem.regions[i];
    if (!region.origin)
      continue;
    RegionPoint origin = *region.origin;
    if (origin.x < 0 || origin.y < 0 ||
        origin.x + region.width > problem.width ||
        origin.y + region.height > problem.height) {
      result.failedRegion = static_cast<int>(i);
      result.errors.push_back("region '" + region.name + "' at " +
                              formatPoint(origin) + " leaves the " +
                              std::to_string(problem.width) + "x" +
                              std::to_string(problem.height) + " rectangle");
      return false;
    }
    for (int y = 0; y < region.height; ++y)
      for (int x = 0; x < region.width; ++x) {
        int other = cell(origin.x + x, origin.y + y);
        if (other == -1)
          continue;
        RegionPoint at{origin.x + x, origin.y + y};
        result.failedRegion = static_cast<int>(i);
        result.errors.push_back(
            other == -2
                ? "region '" + region.name + "' at " + formatPoint(origin) +
                      " covers PE " + formatPoint(at) + ", which is taken"
                : "regions '" + problem.regions[other].name + "' and '" +
                      region.name + "' overlap at " + formatPoint(at));
        return false;
      }
    occupy(static_cast<int>(i), origin);
  }
  return true;
}

int Placer::pickNext() const {
  int best = -1;
  int64_t bestWeight = -1, bestArea = -1;
  for (size_t i = 0; i < problem.regions.size(); ++i) {
    if (placed[i])
      continue;
    int64_t weight = 0;
    for (const RegionConnection &c : problem.connections)
      if ((c.from == int(i) && placed[c.to]) ||
          (c.to == int(i) && placed[c.from]))
        weight += c.weight;
    int64_t area =
        int64_t(problem.regions[i].width) * problem.regions[i].height;
    if (weight > bestWeight || (weight == bestWeight && area > bestArea)) {
      best = static_cast<int>(i);
      bestWeight = weight;
      bestArea = area;
    }
  }
  return best;
}

std::optional<RegionPoint> Placer::findOrigin(int region) const {
  // Taken PEs summed over every north-west rectangle, so that whether a
  // region fits at an origin is four lookups, not a scan of its area.
  int width = problem.width, height = problem.height;
  std::vector<int> taken(size_t(width + 1) * (height + 1), 0);
  auto sum = [&](int x, int y) -> int & {
    return taken[size_t(y) * (width + 1) + x];
  };
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      sum(x + 1, y + 1) =
          (cell(x, y) != -1) + sum(x, y + 1) + sum(x + 1, y) - sum(x, y);
  // Each connection to a placed region pulls the origin towards one point
  // (where the far PE is, less this region's PE); one within the region
  // costs the same everywhere.
  struct Pull {
    int x, y, weight;
  };
  std::vector<Pull> pulls;
  for (const RegionConnection &c : problem.connections) {
    if ((c.from == region) == (c.to == region))
      continue;
    bool isFrom = c.from == region;
    int other = isFrom ? c.to : c.from;
    if (!placed[other])
      continue;
    RegionPoint mine = isFrom ? c.fromPE : c.toPE;
    RegionPoint theirs = isFrom ? c.toPE : c.fromPE;
    pulls.push_back({origins[other].x + theirs.x - mine.x,
                     origins[other].y + theirs.y - mine.y, c.weight});
  }
  const CodeRegion &r = problem.regions[region];
  std::optional<RegionPoint> best;
  int64_t bestCost = std::numeric_limits<int64_t>::max();
  // Row-major scan: the first of equal costs is the north-west-most.
  for (int y = 0; y + r.height <= height; ++y)
    for (int x = 0; x + r.width <= width; ++x) {
      int x1 = x + r.width, y1 = y + r.height;
      if (sum(x1, y1) - sum(x, y1) - sum(x1, y) + sum(x, y) != 0)
        continue;
      int64_t cost = 0;
      for (const Pull &pull : pulls)
        cost += int64_t(pull.weight) *
                (std::abs(x - pull.x) + std::abs(y - pull.y));
      if (cost < bestCost) {
        bestCost = cost;
        best = RegionPoint{x, y};
      }
    }
  return best;
}

int64_t Placer::getWireLength() const {
  int64_t total = 0;
  for (const RegionConnection &c : problem.connections)
    total +=
        int64_t(c.weight) *
        (std::abs(origins[c.from].x + c.fromPE.x - origins[c.to].x - c.toPE.x) +
         std::abs(origins[c.from].y + c.fromPE.y - origins[c.to].y - c.toPE.y));
  return total;
}

RegionPlacement Placer::run() {
  if (!validate() || !placeFixed())
    return std::move(result);
  for (int next = pickNext(); next >= 0; next = pickNext()) {
    std::optional<RegionPoint> origin = findOrigin(next);
    if (!origin) {
      const CodeRegion &region = problem.regions[next];
      result.failedRegion = next;
      result.errors.push_back(
          "region '" + region.name + "' (" + std::to_string(region.width) +
          "x" + std::to_string(region.height) + ") fits nowhere in the " +
          std::to_string(problem.width) + "x" + std::to_string(problem.height) +
          " rectangle beside the others");
      return std::move(result);
    }
    occupy(next, *origin);
  }
  result.origins = origins;
  result.wireLength = getWireLength();
  return std::move(result);
}

} // namespace

RegionPlacement placeRegions(const RegionProblem &problem) {
  return Placer(problem).run();
}

} // namespace tessera::placement
