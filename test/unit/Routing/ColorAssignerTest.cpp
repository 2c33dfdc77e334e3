//===- ColorAssignerTest.cpp - fewest colors, pins and running out --------===//

#include "tessera/Routing/ColorAssigner.h"
#include "tessera/Routing/FlowRouter.h"

#include "RoutingTestUtil.h"

#include <catch2/catch.hpp>

using namespace tessera::routing;
using namespace tessera::routing::test;

namespace {

using Colors = std::vector<unsigned>;

/// A route that crosses `pes`; the assigner only looks at the PEs.
FlowRoute through(std::vector<PE> pes) {
  FlowRoute route;
  for (PE pe : pes)
    route.hops.push_back({pe, Port::Ramp, 0});
  return route;
}

/// An 8x8 mesh with colors 0..`colors`-1 and one flow (0,0) -> (1,0) per
/// name, so that the problem is valid; the routes are given separately.
RoutingProblem makeFlows(std::vector<std::string> names, unsigned colors) {
  RoutingProblem problem = makeMesh(8, 8, colors);
  for (std::string &name : names)
    problem.flows.push_back(makeFlow(std::move(name), {0, 0}, {{1, 0}}));
  return problem;
}

} // namespace

TEST_CASE("three flows through one PE need three colors", "[colors]") {
  RoutingProblem problem = makeFlows({"a", "b", "c", "d"}, 24);
  std::vector<FlowRoute> routes = {
      through({{0, 0}, {1, 1}}), through({{1, 1}, {2, 1}}),
      through({{1, 1}, {1, 2}}), through({{5, 5}, {6, 5}})};
  ColoringResult result = assignColors(problem, routes);
  REQUIRE(result.succeeded());
  CHECK(result.colors == Colors{0, 1, 2, 0});
  CHECK(result.colorsUsed == 3);
  CHECK_FALSE(result.neededExactSearch);
}

TEST_CASE("a chain of flows needs two colors", "[colors]") {
  // a-b, b-c and c-d share PEs; nothing else does.
  RoutingProblem problem = makeFlows({"a", "b", "c", "d"}, 24);
  std::vector<FlowRoute> routes = {
      through({{0, 0}, {1, 0}}), through({{1, 0}, {2, 0}}),
      through({{2, 0}, {3, 0}}), through({{3, 0}, {4, 0}})};
  ColoringResult result = assignColors(problem, routes);
  REQUIRE(result.succeeded());
  CHECK(result.colors == Colors{1, 0, 1, 0});
  CHECK(result.colorsUsed == 2);
}

TEST_CASE("routed flows crossing one PE get distinct colors", "[colors]") {
  // Two flows pass the centre (2, 2), one starts and one ends there; the
  // fifth shares no PE with them and takes the first color again.
  RoutingProblem problem = makeMesh(5, 5);
  problem.flows = {
      makeFlow("we", {0, 2}, {{4, 2}}), makeFlow("ns", {2, 0}, {{2, 4}}),
      makeFlow("from", {2, 2}, {{4, 4}}), makeFlow("to", {0, 0}, {{2, 2}}),
      makeFlow("far", {0, 4}, {{1, 4}})};
  RoutingResult routing = routeFlows(problem);
  REQUIRE(routing.succeeded());
  ColoringResult result = assignColors(problem, routing.routes);
  REQUIRE(result.succeeded());
  CHECK(result.colors == Colors{0, 1, 2, 3, 0});
  CHECK(result.colorsUsed == 4);
}

TEST_CASE("pinned colors are kept and avoided", "[colors]") {
  RoutingProblem problem = makeFlows({"a", "b", "c"}, 24);
  problem.flows[0].pinnedColor = 7;
  std::vector<FlowRoute> routes = {through({{0, 0}}), through({{0, 0}, {1, 0}}),
                                   through({{0, 0}, {1, 0}})};
  ColoringResult result = assignColors(problem, routes);
  REQUIRE(result.succeeded());
  CHECK(result.colors == Colors{7, 0, 1});
  CHECK(result.colorsUsed == 3);
}

TEST_CASE("reserved colors are never given", "[colors]") {
  RoutingProblem problem = makeFlows({"a", "b", "c"}, 24);
  std::vector<FlowRoute> routes = {through({{0, 0}}), through({{0, 0}}),
                                   through({{0, 0}})};
  // 0 and 1 reserved, 21..23 owned by memcpy: the caller leaves them out.
  problem.colors.clear();
  for (unsigned color = 2; color <= 20; ++color)
    problem.colors.push_back(color);
  CHECK(assignColors(problem, routes).colors == Colors{2, 3, 4});
  // The list's order is the order of preference.
  problem.colors = {9, 4, 6};
  CHECK(assignColors(problem, routes).colors == Colors{9, 4, 6});
}

TEST_CASE("running out of colors at a PE", "[colors]") {
  RoutingProblem problem = makeFlows({"a", "b", "c"}, 2);
  // (0, 0) has two flows, (2, 1) all three: the first PE with more flows
  // than colors is named.
  std::vector<FlowRoute> routes = {through({{0, 0}, {2, 1}}),
                                   through({{0, 0}, {2, 1}}),
                                   through({{2, 1}, {3, 1}})};
  ColoringResult result = assignColors(problem, routes);
  CHECK(result.errors ==
        std::vector<std::string>{"out of colors at PE (2, 1): flows 'a', 'b' "
                                 "and 'c' cross it and 2 colors are free (0, "
                                 "1)"});
  CHECK(result.conflictPE == PE{2, 1});
  CHECK(result.conflictFlows == std::vector<int>{0, 1, 2});
  CHECK(result.colors.empty());

  problem.colors = {4};
  problem.flows.pop_back();
  routes.pop_back();
  CHECK(assignColors(problem, routes).errors ==
        std::vector<std::string>{"out of colors at PE (0, 0): flows 'a' and "
                                 "'b' cross it and 1 color is free (4)"});
}

TEST_CASE("running out of colors around an odd cycle", "[colors]") {
  // a, b and c meet pairwise at three PEs, two flows at each: no PE has
  // more flows than colors, yet two colors cannot do.
  RoutingProblem problem = makeFlows({"a", "b", "c"}, 2);
  std::vector<FlowRoute> routes = {through({{0, 0}, {1, 2}}),
                                   through({{0, 0}, {2, 0}}),
                                   through({{2, 0}, {1, 2}})};
  ColoringResult result = assignColors(problem, routes);
  CHECK(result.errors ==
        std::vector<std::string>{"out of colors for flow 'c': it shares PEs "
                                 "with flows 'a' and 'b', which take all 2 "
                                 "free colors (0, 1)"});
  CHECK_FALSE(result.conflictPE);
  CHECK(result.conflictFlows == std::vector<int>{2, 0, 1});
  problem.colors = {0, 1, 2};
  CHECK(assignColors(problem, routes).colors == Colors{0, 1, 2});
}

TEST_CASE("the exhaustive search finds what the greedy pass misses",
          "[colors]") {
  // a is pinned to 1 and f to 2; c, d and f form a triangle, so e, which
  // meets a, c and d, must take 2. The greedy pass colors e first (most
  // neighbours) with 0 and then gets stuck at d.
  RoutingProblem problem = makeFlows({"a", "b", "c", "d", "e", "f"}, 3);
  problem.flows[0].pinnedColor = 1;
  problem.flows[5].pinnedColor = 2;
  // One PE per pair that meets: ae be bf cd ce cf de df.
  std::vector<std::vector<PE>> pes(6);
  std::vector<std::pair<int, int>> pairs = {{0, 4}, {1, 4}, {1, 5}, {2, 3},
                                            {2, 4}, {2, 5}, {3, 4}, {3, 5}};
  for (size_t i = 0; i < pairs.size(); ++i) {
    pes[pairs[i].first].push_back({static_cast<int>(i), 0});
    pes[pairs[i].second].push_back({static_cast<int>(i), 0});
  }
  std::vector<FlowRoute> routes;
  for (const std::vector<PE> &flowPEs : pes)
    routes.push_back(through(flowPEs));
  ColoringResult result = assignColors(problem, routes);
  REQUIRE(result.succeeded());
  CHECK(result.neededExactSearch);
  CHECK(result.colors == Colors{1, 0, 0, 1, 2, 2});
  CHECK(result.colorsUsed == 3);

  // Without a search budget the greedy pass's dead end is reported.
  ColorOptions options;
  options.exactSearchBudget = 0;
  CHECK(assignColors(problem, routes, options).errors ==
        std::vector<std::string>{"out of colors for flow 'd': it shares PEs "
                                 "with flows 'c', 'e' and 'f', which take all "
                                 "3 free colors (0..2)"});
}

TEST_CASE("two flows pinned to one color may not meet", "[colors]") {
  RoutingProblem problem = makeFlows({"a", "b", "c"}, 24);
  problem.flows[0].pinnedColor = 3;
  problem.flows[2].pinnedColor = 3;
  std::vector<FlowRoute> routes = {through({{0, 0}, {1, 0}}), through({{1, 0}}),
                                   through({{2, 0}, {1, 0}})};
  ColoringResult result = assignColors(problem, routes);
  CHECK(result.errors ==
        std::vector<std::string>{"flows 'a' and 'c' are both pinned to color "
                                 "3 and meet at PE (1, 0)"});
  CHECK(result.conflictPE == PE{1, 0});
  CHECK(result.conflictFlows == std::vector<int>{0, 2});
}

TEST_CASE("the assigner wants one route per flow", "[colors]") {
  RoutingProblem problem = makeFlows({"a", "b"}, 24);
  CHECK(assignColors(problem, {through({{0, 0}})}).errors ==
        std::vector<std::string>{"expected 2 routes (one per flow), got 1"});
}

TEST_CASE("groups of PEs are colored like flows", "[colors]") {
  // a and b share (1, 0); c shares nothing and is pinned to 3.
  std::vector<ColorGroup> groups = {{"a", {{0, 0}, {1, 0}}, std::nullopt},
                                    {"b", {{1, 0}, {2, 0}}, std::nullopt},
                                    {"c", {{0, 1}}, 3u}};
  ColoringResult result = assignGroupColors(3, 2, {0, 1, 2, 3}, groups);
  REQUIRE(result.succeeded());
  CHECK(result.colors == std::vector<unsigned>{0, 1, 3});

  // Two groups pinned to one color that meet: the error names them.
  groups = {{"a", {{0, 0}}, 2u}, {"b", {{0, 0}}, 2u}};
  result = assignGroupColors(3, 2, {0, 1, 2, 3}, groups);
  REQUIRE(result.errors.size() == 1);
  CHECK(result.errors[0] ==
        "flows 'a' and 'b' are both pinned to color 2 and meet at PE (0, 0)");
}
