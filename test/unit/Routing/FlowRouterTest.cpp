//===- FlowRouterTest.cpp - paths, trees, detours and failures ------------===//

#include "tessera/Routing/FlowRouter.h"
#include "tessera/Routing/ColorAssigner.h"
#include "tessera/Routing/FlowVerifier.h"
#include "tessera/Routing/RouterTables.h"

#include "RoutingTestUtil.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

using namespace tessera::routing;
using namespace tessera::routing::test;

namespace {

constexpr PortMask W = 1, E = 2, S = 4, N = 8, R = 16;

using Hops = std::vector<RouteHop>;

RoutingResult route(const RoutingProblem &problem) {
  RoutingResult result = routeFlows(problem);
  INFO((result.errors.empty() ? std::string() : result.errors[0]));
  REQUIRE(result.succeeded());
  REQUIRE(result.routes.size() == problem.flows.size());
  return result;
}

/// Flows per directed link between PEs, over all routes.
std::map<Link, int> getLoads(const RoutingProblem &problem,
                             const std::vector<FlowRoute> &routes) {
  std::map<Link, int> loads;
  for (const FlowRoute &flowRoute : routes)
    for (const Link &link : getLinks(flowRoute, problem.width, problem.height))
      ++loads[link];
  return loads;
}

/// Colors, builds tables and verifies them; returns the colors.
std::vector<unsigned> colorAndVerify(const RoutingProblem &problem,
                                     const std::vector<FlowRoute> &routes) {
  ColoringResult coloring = assignColors(problem, routes);
  INFO((coloring.errors.empty() ? std::string() : coloring.errors[0]));
  REQUIRE(coloring.succeeded());
  TablesResult tables = buildRouterTables(problem, routes, coloring.colors);
  REQUIRE(tables.succeeded());
  CHECK(getMessages(verifyFlows(problem, coloring.colors, tables.tables))
            .empty());
  return coloring.colors;
}

} // namespace

TEST_CASE("a straight flow", "[router]") {
  RoutingProblem problem = makeMesh(5, 3);
  problem.flows = {makeFlow("a", {0, 1}, {{4, 1}})};
  RoutingResult result = route(problem);
  CHECK(result.iterations == 1);
  CHECK(result.routes[0].hops == Hops{{{0, 1}, Port::Ramp, E},
                                      {{1, 1}, Port::West, E},
                                      {{2, 1}, Port::West, E},
                                      {{3, 1}, Port::West, E},
                                      {{4, 1}, Port::West, R}});
}

TEST_CASE("an L-shaped flow runs along x first", "[router]") {
  RoutingProblem problem = makeMesh(4, 4);
  problem.flows = {makeFlow("down", {0, 0}, {{2, 2}}),
                   makeFlow("up", {3, 3}, {{1, 1}})};
  RoutingResult result = route(problem);
  CHECK(result.routes[0].hops == Hops{{{0, 0}, Port::Ramp, E},
                                      {{1, 0}, Port::West, E},
                                      {{2, 0}, Port::West, S},
                                      {{2, 1}, Port::North, S},
                                      {{2, 2}, Port::North, R}});
  CHECK(result.routes[1].hops == Hops{{{1, 1}, Port::South, R},
                                      {{1, 2}, Port::South, N},
                                      {{1, 3}, Port::East, N},
                                      {{2, 3}, Port::East, W},
                                      {{3, 3}, Port::Ramp, W}});
}

TEST_CASE("a multicast tree to three sinks", "[router]") {
  // The east sink is straight ahead, so it is nearest; the other two
  // branch off the tree at (2, 2), not at the source.
  RoutingProblem problem = makeMesh(5, 5);
  problem.flows = {makeFlow("m", {0, 2}, {{2, 0}, {2, 4}, {4, 2}})};
  RoutingResult result = route(problem);
  const FlowRoute &tree = result.routes[0];
  CHECK(tree.hops == Hops{{{2, 0}, Port::South, R},
                          {{2, 1}, Port::South, N},
                          {{0, 2}, Port::Ramp, E},
                          {{1, 2}, Port::West, E},
                          {{2, 2}, Port::West, E | S | N},
                          {{3, 2}, Port::West, E},
                          {{4, 2}, Port::West, R},
                          {{2, 3}, Port::North, S},
                          {{2, 4}, Port::North, R}});
  std::vector<Link> links = getLinks(tree, 5, 5);
  CHECK(links == std::vector<Link>{{{2, 1}, Port::North},
                                   {{0, 2}, Port::East},
                                   {{1, 2}, Port::East},
                                   {{2, 2}, Port::East},
                                   {{2, 2}, Port::South},
                                   {{2, 2}, Port::North},
                                   {{3, 2}, Port::East},
                                   {{2, 3}, Port::South}});
  CHECK(links.size() == 8);
  colorAndVerify(problem, result.routes);
}

TEST_CASE("a sink at the source PE and a second sink", "[router]") {
  RoutingProblem problem = makeMesh(3, 1);
  problem.flows = {makeFlow("loop", {0, 0}, {{2, 0}, {0, 0}})};
  RoutingResult result = route(problem);
  CHECK(result.routes[0].hops == Hops{{{0, 0}, Port::Ramp, E | R},
                                      {{1, 0}, Port::West, E},
                                      {{2, 0}, Port::West, R}});
  colorAndVerify(problem, result.routes);
}

TEST_CASE("flows entering and leaving at the fabric edge", "[router]") {
  RoutingProblem problem = makeMesh(4, 3);
  problem.flows = {
      {"across", {{0, 1}, Port::West}, {{{3, 1}, Port::East}}, {}},
      {"out", {{2, 2}, Port::Ramp}, {{{2, 0}, Port::North}}, {}},
      {"bounce", {{0, 0}, Port::North}, {{{0, 0}, Port::North}}, {}}};
  RoutingResult result = route(problem);
  CHECK(result.routes[0].hops == Hops{{{0, 1}, Port::West, E},
                                      {{1, 1}, Port::West, E},
                                      {{2, 1}, Port::West, E},
                                      {{3, 1}, Port::West, E}});
  CHECK(result.routes[1].hops == Hops{{{2, 0}, Port::South, N},
                                      {{2, 1}, Port::South, N},
                                      {{2, 2}, Port::Ramp, N}});
  // Entering and leaving by one edge port is a single router hop.
  CHECK(result.routes[2].hops == Hops{{{0, 0}, Port::North, N}});
  CHECK(getLinks(result.routes[0], 4, 3).size() == 3);
  colorAndVerify(problem, result.routes);
}

TEST_CASE("blocked PEs are avoided", "[router]") {
  // Column 2 is open only in row 2. Of the 6-link paths, the one with the
  // fewest and cheapest turns goes down first and up last.
  RoutingProblem problem = makeMesh(5, 3);
  problem.blockedPEs = {{2, 0}, {2, 1}};
  problem.flows = {makeFlow("a", {0, 1}, {{4, 1}})};
  RoutingResult result = route(problem);
  CHECK(result.routes[0].hops == Hops{{{0, 1}, Port::Ramp, S},
                                      {{4, 1}, Port::South, R},
                                      {{0, 2}, Port::North, E},
                                      {{1, 2}, Port::West, E},
                                      {{2, 2}, Port::West, E},
                                      {{3, 2}, Port::West, E},
                                      {{4, 2}, Port::West, N}});
  colorAndVerify(problem, result.routes);
}

TEST_CASE("a sink that blocked PEs or closed links cut off", "[router]") {
  RoutingProblem problem = makeMesh(3, 3);
  problem.blockedPEs = {{1, 2}, {2, 1}};
  problem.flows = {makeFlow("fine", {0, 0}, {{1, 1}}),
                   makeFlow("a", {0, 0}, {{1, 0}, {2, 2}})};
  RoutingResult result = routeFlows(problem);
  CHECK(result.errors ==
        std::vector<std::string>{
            "cannot route flow 'a': no path from PE (0, 0) to its sink PE "
            "(2, 2) avoids the blocked PEs and closed links"});
  CHECK(result.unroutedFlows == std::vector<int>{1});
  CHECK(result.routes.empty());

  RoutingProblem row = makeMesh(3, 1);
  row.linkCapacities = {{{1, 0}, Port::East, 0}};
  row.flows = {{"e", {{0, 0}, Port::West}, {{{2, 0}, Port::East}}, {}}};
  CHECK(routeFlows(row).errors ==
        std::vector<std::string>{
            "cannot route flow 'e': no path from PE (0, 0) west to its sink "
            "PE (2, 0) east avoids the blocked PEs and closed links"});
}

TEST_CASE("more flows than a link holds detour", "[router]") {
  // Three flows between the same two PEs, one flow per link: one goes
  // straight, the others around through rows 0 and 2.
  RoutingProblem problem = makeMesh(4, 3);
  problem.linkCapacity = 1;
  problem.flows = {makeFlow("a", {0, 1}, {{3, 1}}),
                   makeFlow("b", {0, 1}, {{3, 1}}),
                   makeFlow("c", {0, 1}, {{3, 1}})};
  RoutingResult result = route(problem);
  CHECK(result.iterations == 2);
  CHECK(result.routes[0].hops == Hops{{{0, 0}, Port::South, E},
                                      {{1, 0}, Port::West, E},
                                      {{2, 0}, Port::West, E},
                                      {{3, 0}, Port::West, S},
                                      {{0, 1}, Port::Ramp, N},
                                      {{3, 1}, Port::North, R}});
  CHECK(result.routes[1].hops == Hops{{{0, 1}, Port::Ramp, S},
                                      {{3, 1}, Port::South, R},
                                      {{0, 2}, Port::North, E},
                                      {{1, 2}, Port::West, E},
                                      {{2, 2}, Port::West, E},
                                      {{3, 2}, Port::West, N}});
  CHECK(result.routes[2].hops == Hops{{{0, 1}, Port::Ramp, E},
                                      {{1, 1}, Port::West, E},
                                      {{2, 1}, Port::West, E},
                                      {{3, 1}, Port::West, R}});
  std::map<Link, int> loads = getLoads(problem, result.routes);
  CHECK(loads.size() == 13);
  for (const auto &[link, load] : loads)
    CHECK(load == 1);
  std::vector<unsigned> colors = colorAndVerify(problem, result.routes);
  CHECK(colors == std::vector<unsigned>{0, 1, 2});
}

TEST_CASE("routing congested flows around each other", "[router]") {
  // Eight flows cross an 8x8 mesh from west to east; column 4 is open only
  // in rows 2..5, whose four eastward links hold two flows each: exactly
  // enough.
  RoutingProblem problem = makeMesh(8, 8);
  problem.linkCapacity = 2;
  problem.blockedPEs = {{4, 0}, {4, 1}, {4, 6}, {4, 7}};
  for (int i = 0; i < 8; ++i)
    problem.flows.push_back(makeFlow("f" + std::to_string(i), {0, 2 + i % 4},
                                     {{7, 2 + (i + 1) % 4}}));
  RoutingResult result = route(problem);
  for (const auto &[link, load] : getLoads(problem, result.routes))
    CHECK(load <= 2);
  // Each flow crosses into column 4 once, since there is no room for more.
  int throughMiddle = 0;
  for (const auto &[link, load] : getLoads(problem, result.routes))
    if (link.from.x == 3 && link.direction == Port::East)
      throughMiddle += load;
  CHECK(throughMiddle == 8);
  colorAndVerify(problem, result.routes);
}

TEST_CASE("flows that cannot share a link name it", "[router]") {
  // PE (4, 0) can only be entered from (3, 0); three flows need that link
  // and it holds two.
  RoutingProblem problem = makeMesh(5, 2);
  problem.linkCapacity = 2;
  problem.blockedPEs = {{4, 1}};
  problem.flows = {
      makeFlow("a", {2, 0}, {{4, 0}}), makeFlow("b", {2, 1}, {{4, 0}}),
      makeFlow("free", {0, 0}, {{0, 1}}), makeFlow("c", {3, 1}, {{4, 0}})};
  RoutingResult result = routeFlows(problem);
  CHECK(result.errors ==
        std::vector<std::string>{
            "cannot route flows 'a', 'b' and 'c': the link from PE (3, 0) "
            "east to PE (4, 0) is needed by 3 flows but holds 2"});
  CHECK(result.unroutedFlows == std::vector<int>{0, 1, 3});
  CHECK(
      result.overuses ==
      std::vector<Overuse>{{Overuse::Kind::Link, {3, 0}, Port::East, 0, 3, 2}});
  CHECK(result.iterations == 40);
  CHECK(result.routes.empty());
}

TEST_CASE("flows that cannot share a router name it", "[router]") {
  RoutingProblem problem = makeMesh(4, 1);
  problem.peCapacity = 2;
  problem.flows = {makeFlow("a", {0, 0}, {{3, 0}}),
                   makeFlow("b", {0, 0}, {{3, 0}}),
                   makeFlow("c", {0, 0}, {{3, 0}})};
  RouterOptions options;
  options.maxIterations = 3;
  RoutingResult result = routeFlows(problem, options);
  CHECK(result.errors ==
        std::vector<std::string>{
            "cannot route flows 'a', 'b' and 'c': PE (0, 0) is crossed by 3 "
            "flows but holds 2; PE (1, 0) is crossed by 3 flows but holds 2; "
            "PE (2, 0) is crossed by 3 flows but holds 2; and 1 more overused "
            "link or router"});
  CHECK(result.overuses.size() == 4);
  CHECK(result.iterations == 3);
}

TEST_CASE("edge links have capacities too", "[router]") {
  RoutingProblem problem = makeMesh(1, 1);
  problem.linkCapacity = 1;
  Flow through{"a", {{0, 0}, Port::West}, {{{0, 0}, Port::East}}, {}};
  problem.flows = {through, through};
  problem.flows[1].name = "b";
  RoutingResult result = routeFlows(problem);
  CHECK(result.errors ==
        std::vector<std::string>{
            "cannot route flows 'a' and 'b': the link from PE (0, 0) east off "
            "the fabric is needed by 2 flows but holds 1; the link into PE "
            "(0, 0) from the west edge is needed by 2 flows but holds 1"});
}

TEST_CASE("flows pinned to one color keep out of each other's PEs",
          "[router]") {
  // Straight, the two would cross at (2, 2); pinned to one color they may
  // not share a router, so one goes around.
  RoutingProblem problem = makeMesh(5, 5);
  problem.flows = {makeFlow("a", {1, 2}, {{3, 2}}, 5),
                   makeFlow("b", {2, 1}, {{2, 3}}, 5)};
  RoutingResult result = route(problem);
  CHECK(result.iterations == 5);
  CHECK(result.routes[0].hops == Hops{{{1, 0}, Port::South, E},
                                      {{2, 0}, Port::West, E},
                                      {{3, 0}, Port::West, S},
                                      {{1, 1}, Port::South, N},
                                      {{3, 1}, Port::North, S},
                                      {{1, 2}, Port::Ramp, N},
                                      {{3, 2}, Port::North, R}});
  CHECK(result.routes[1].hops == Hops{{{2, 1}, Port::Ramp, S},
                                      {{2, 2}, Port::North, S},
                                      {{2, 3}, Port::North, R}});
  CHECK(colorAndVerify(problem, result.routes) == std::vector<unsigned>{5, 5});

  // Two pinned flows that must share a router cannot be routed.
  RoutingProblem tight = makeMesh(3, 1);
  tight.flows = {makeFlow("a", {0, 0}, {{2, 0}}, 5),
                 makeFlow("b", {2, 0}, {{0, 0}}, 5)};
  RouterOptions options;
  options.maxIterations = 2;
  CHECK(routeFlows(tight, options).errors ==
        std::vector<std::string>{
            "cannot route flows 'a' and 'b': PE (0, 0) is crossed by 2 flows "
            "pinned to color 5 but holds 1; PE (1, 0) is crossed by 2 flows "
            "pinned to color 5 but holds 1; PE (2, 0) is crossed by 2 flows "
            "pinned to color 5 but holds 1"});
}

TEST_CASE("routing is deterministic", "[router]") {
  RoutingProblem problem = makeMesh(12, 12);
  problem.linkCapacity = 2;
  problem.blockedPEs = {{5, 9}, {6, 9}, {7, 9}};
  for (int i = 0; i < 24; ++i)
    problem.flows.push_back(makeFlow(
        "f" + std::to_string(i), {i % 12, (i * 5) % 12},
        {{(i * 7 + 3) % 12, (i * 3 + 8) % 12}, {11 - i % 12, (i + 1) % 4}}));
  RoutingResult first = route(problem);
  RoutingResult second = route(problem);
  CHECK(first.routes == second.routes);
  CHECK(first.iterations == second.iterations);
  colorAndVerify(problem, first.routes);
}

TEST_CASE("a sink may require the port it is entered by", "[router]") {
  // Straight east would arrive from the west; the sink asks for the north.
  RoutingProblem problem = makeMesh(4, 3);
  problem.flows = {makeFlow("a", {0, 1}, {{2, 1}})};
  problem.flows[0].sinkVias = {Port::North};
  RoutingResult result = route(problem);
  const FlowRoute &flowRoute = result.routes[0];
  auto sink = std::find_if(flowRoute.hops.begin(), flowRoute.hops.end(),
                           [](const RouteHop &hop) { return hop.pe == PE{2, 1}; });
  REQUIRE(sink != flowRoute.hops.end());
  CHECK(sink->rx == Port::North);
  CHECK(sink->tx == R);
  // Two hops more than the straight path: up, across, down.
  CHECK(flowRoute.hops.size() == 5);
  colorAndVerify(problem, result.routes);
}

TEST_CASE("a source may require the port it leaves by", "[router]") {
  RoutingProblem problem = makeMesh(4, 3);
  problem.flows = {makeFlow("a", {1, 1}, {{3, 1}})};
  problem.flows[0].sourceVia = Port::South;
  RoutingResult result = route(problem);
  const FlowRoute &flowRoute = result.routes[0];
  auto source = std::find_if(
      flowRoute.hops.begin(), flowRoute.hops.end(),
      [](const RouteHop &hop) { return hop.pe == PE{1, 1}; });
  REQUIRE(source != flowRoute.hops.end());
  CHECK(source->rx == Port::Ramp);
  CHECK(source->tx == S);
  colorAndVerify(problem, result.routes);
}

TEST_CASE("a required port that leads nowhere is bad input", "[router]") {
  RoutingProblem problem = makeMesh(4, 3);
  problem.flows = {makeFlow("a", {0, 1}, {{2, 1}})};
  problem.flows[0].sourceVia = Port::West;
  problem.flows[0].sinkVias = {Port::Ramp};
  RoutingResult result = routeFlows(problem);
  REQUIRE(result.errors.size() == 2);
  CHECK(result.errors[0] == "flow 'a': source PE (0, 1) must use its west "
                            "port, which leads to no neighbour");
  CHECK(result.errors[1] == "flow 'a': sink PE (2, 1) must use its ramp "
                            "port, which leads to no neighbour");
}

TEST_CASE("a path may not pass through a sink to enter it by its required "
          "port",
          "[router]") {
  // One row: (1, 0) can be entered from the east only by passing it first.
  RoutingProblem problem = makeMesh(3, 1);
  problem.flows = {makeFlow("a", {0, 0}, {{1, 0}})};
  problem.flows[0].sinkVias = {Port::East};
  RoutingResult result = routeFlows(problem);
  REQUIRE(result.errors.size() == 1);
  CHECK(result.errors[0] ==
        "cannot route flow 'a': no path from PE (0, 0) to its sink PE (1, 0) "
        "avoids the blocked PEs and closed links and uses the required ports");
  CHECK(result.unroutedFlows == std::vector<int>{0});
}
