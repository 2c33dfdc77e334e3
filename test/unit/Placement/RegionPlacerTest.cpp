//===- RegionPlacerTest.cpp - code regions beside what they connect to ----===//

#include "tessera/Placement/RegionPlacer.h"

#include <catch2/catch.hpp>

#include <random>
#include <set>

using namespace tessera::placement;

namespace {

RegionProblem makeProblem(int width, int height) {
  RegionProblem problem;
  problem.width = width;
  problem.height = height;
  return problem;
}

/// Every region inside the rectangle, none overlapping another or a
/// blocked PE, fixed ones where they were put.
void checkLegal(const RegionProblem &problem, const RegionPlacement &result) {
  REQUIRE(result.succeeded());
  REQUIRE(result.origins.size() == problem.regions.size());
  std::set<std::pair<int, int>> taken;
  for (RegionPoint pe : problem.blocked)
    taken.insert({pe.x, pe.y});
  for (size_t i = 0; i < problem.regions.size(); ++i) {
    const CodeRegion &region = problem.regions[i];
    RegionPoint origin = result.origins[i];
    if (region.origin)
      CHECK(origin == *region.origin);
    CHECK(origin.x >= 0);
    CHECK(origin.y >= 0);
    CHECK(origin.x + region.width <= problem.width);
    CHECK(origin.y + region.height <= problem.height);
    for (int y = 0; y < region.height; ++y)
      for (int x = 0; x < region.width; ++x)
        CHECK(taken.insert({origin.x + x, origin.y + y}).second);
  }
}

} // namespace

TEST_CASE("a lone region goes to the north-west corner", "[regions]") {
  RegionProblem problem = makeProblem(5, 4);
  problem.regions = {{"a", 2, 1, std::nullopt}};
  RegionPlacement result = placeRegions(problem);
  checkLegal(problem, result);
  CHECK(result.origins[0] == RegionPoint{0, 0});
  CHECK(result.wireLength == 0);
}

TEST_CASE("a region goes beside the fixed region it connects to", "[regions]") {
  RegionProblem problem = makeProblem(10, 10);
  problem.regions = {{"fixed", 1, 1, RegionPoint{6, 6}},
                     {"free", 1, 1, std::nullopt}};
  problem.connections = {{0, 1, {0, 0}, {0, 0}, 1}};
  RegionPlacement result = placeRegions(problem);
  checkLegal(problem, result);
  // Four origins are one hop away; the north one comes first row-major.
  CHECK(result.origins[1] == RegionPoint{6, 5});
  CHECK(result.wireLength == 1);
}

TEST_CASE("port PEs decide which side a region goes to", "[regions]") {
  // The fixed 2x2 region's port is its east column; the free 1x2 region's
  // its west column: it goes right of it, row for row.
  RegionProblem problem = makeProblem(8, 6);
  problem.regions = {{"west", 2, 2, RegionPoint{2, 2}},
                     {"east", 1, 2, std::nullopt}};
  problem.connections = {{0, 1, {1, 0}, {0, 0}, 1}, {0, 1, {1, 1}, {0, 1}, 1}};
  RegionPlacement result = placeRegions(problem);
  checkLegal(problem, result);
  CHECK(result.origins[1] == RegionPoint{4, 2});
  CHECK(result.wireLength == 2);
}

TEST_CASE("the most connected region is placed first", "[regions]") {
  // a is fixed; c connects to a with weight 3, b with weight 1: c takes the
  // spot next to a, b the next best.
  RegionProblem problem = makeProblem(3, 1);
  problem.regions = {{"a", 1, 1, RegionPoint{0, 0}},
                     {"b", 1, 1, std::nullopt},
                     {"c", 1, 1, std::nullopt}};
  problem.connections = {{0, 1, {0, 0}, {0, 0}, 1}, {0, 2, {0, 0}, {0, 0}, 3}};
  RegionPlacement result = placeRegions(problem);
  checkLegal(problem, result);
  CHECK(result.origins[2] == RegionPoint{1, 0});
  CHECK(result.origins[1] == RegionPoint{2, 0});
  CHECK(result.wireLength == 3 * 1 + 1 * 2);
}

TEST_CASE("blocked PEs are avoided", "[regions]") {
  RegionProblem problem = makeProblem(3, 2);
  problem.regions = {{"a", 2, 1, std::nullopt}};
  problem.blocked = {{1, 0}};
  RegionPlacement result = placeRegions(problem);
  checkLegal(problem, result);
  CHECK(result.origins[0] == RegionPoint{0, 1});
}

TEST_CASE("placement errors name the regions", "[regions]") {
  RegionProblem problem = makeProblem(4, 4);
  problem.regions = {{"a", 2, 2, RegionPoint{0, 0}},
                     {"b", 2, 2, RegionPoint{1, 1}}};
  CHECK(placeRegions(problem).errors ==
        std::vector<std::string>{"regions 'a' and 'b' overlap at (1, 1)"});
  CHECK(placeRegions(problem).failedRegion == 1);

  problem.regions = {{"a", 3, 3, RegionPoint{0, 0}}, {"b", 2, 2, std::nullopt}};
  CHECK(placeRegions(problem).errors ==
        std::vector<std::string>{"region 'b' (2x2) fits nowhere in the 4x4 "
                                 "rectangle beside the others"});
  CHECK(placeRegions(problem).failedRegion == 1);

  problem.regions = {{"a", 2, 2, RegionPoint{3, 0}}};
  CHECK(placeRegions(problem).errors ==
        std::vector<std::string>{
            "region 'a' at (3, 0) leaves the 4x4 rectangle"});

  problem.regions = {{"a", 5, 1, std::nullopt}};
  CHECK(placeRegions(problem).errors ==
        std::vector<std::string>{
            "region 'a' (5x1) does not fit in the 4x4 rectangle"});
  CHECK(placeRegions(problem).failedRegion == 0);

  problem.regions = {{"a", 1, 1, std::nullopt}};
  problem.connections = {{0, 2, {0, 0}, {0, 0}, 1}};
  CHECK(
      placeRegions(problem).errors ==
      std::vector<std::string>{"a connection names region 2, but there are 1"});
  CHECK_FALSE(placeRegions(problem).failedRegion);

  problem.connections = {{0, 0, {0, 1}, {0, 0}, 1}};
  CHECK(placeRegions(problem).errors ==
        std::vector<std::string>{
            "a connection names PE (0, 1) of region 'a' (1x1)"});

  problem.connections = {};
  problem.blocked = {{0, 0}};
  problem.regions = {{"a", 1, 1, RegionPoint{0, 0}}};
  CHECK(placeRegions(problem).errors ==
        std::vector<std::string>{
            "region 'a' at (0, 0) covers PE (0, 0), which is taken"});

  CHECK(placeRegions(makeProblem(0, 3)).errors ==
        std::vector<std::string>{
            "the rectangle must have a positive size, got 0x3"});
}

TEST_CASE("random region graphs place legally and deterministically",
          "[regions]") {
  for (unsigned seed = 1; seed <= 100; ++seed) {
    std::mt19937 rng(seed);
    auto pick = [&](int lo, int hi) {
      return std::uniform_int_distribution<int>(lo, hi)(rng);
    };
    RegionProblem problem = makeProblem(pick(8, 20), pick(8, 20));
    int count = pick(1, 8);
    for (int i = 0; i < count; ++i) {
      CodeRegion region{"r" + std::to_string(i), pick(1, 3), pick(1, 3),
                        std::nullopt};
      // Every third region is fixed on its own diagonal slot, so fixed
      // ones never overlap.
      if (i % 3 == 0 &&
          4 * (i / 3) + 3 <= std::min(problem.width, problem.height))
        region.origin = RegionPoint{4 * (i / 3), 4 * (i / 3)};
      problem.regions.push_back(region);
    }
    for (int k = 0; k < count * 2; ++k) {
      int a = pick(0, count - 1), b = pick(0, count - 1);
      if (a == b)
        continue;
      problem.connections.push_back({a,
                                     b,
                                     {pick(0, problem.regions[a].width - 1),
                                      pick(0, problem.regions[a].height - 1)},
                                     {pick(0, problem.regions[b].width - 1),
                                      pick(0, problem.regions[b].height - 1)},
                                     pick(1, 3)});
    }
    INFO("seed " << seed);
    RegionPlacement first = placeRegions(problem);
    checkLegal(problem, first);
    RegionPlacement second = placeRegions(problem);
    CHECK(first.origins == second.origins);
    CHECK(first.wireLength == second.wireLength);
  }
}
