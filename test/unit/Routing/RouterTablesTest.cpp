//===- RouterTablesTest.cpp - from colored routes to rx and tx sets -------===//

#include "tessera/Routing/RouterTables.h"
#include "tessera/Routing/FlowRouter.h"

#include "RoutingTestUtil.h"

#include <catch2/catch.hpp>

using namespace tessera::routing;
using namespace tessera::routing::test;

namespace {

constexpr PortMask W = 1, E = 2, S = 4, N = 8, R = 16;

using Configs = std::vector<ColorConfig>;
using Messages = std::vector<std::string>;

} // namespace

TEST_CASE("tables of two routed flows", "[tables]") {
  RoutingProblem problem = makeMesh(3, 2);
  problem.flows = {makeFlow("a", {0, 0}, {{2, 0}}),
                   makeFlow("b", {1, 1}, {{1, 0}, {2, 1}})};
  RoutingResult routing = routeFlows(problem);
  REQUIRE(routing.succeeded());
  TablesResult result = buildRouterTables(problem, routing.routes, {4, 9});
  REQUIRE(result.succeeded());
  // Sorted by (y, x, color); (1, 0) holds both flows, on their colors.
  CHECK(result.tables.configs == Configs{{{0, 0}, 4, R, E, "a"},
                                         {{1, 0}, 4, W, E, "a"},
                                         {{1, 0}, 9, S, R, "b"},
                                         {{2, 0}, 4, W, R, "a"},
                                         {{1, 1}, 9, R, E | N, "b"},
                                         {{2, 1}, 9, W, R, "b"}});
}

TEST_CASE("an edge flow's tables use the edge ports", "[tables]") {
  RoutingProblem problem = makeMesh(2, 2);
  problem.flows = {{"e", {{0, 1}, Port::South}, {{{1, 0}, Port::North}}, {}}};
  RoutingResult routing = routeFlows(problem);
  REQUIRE(routing.succeeded());
  TablesResult result = buildRouterTables(problem, routing.routes, {0});
  CHECK(result.tables.configs == Configs{{{0, 0}, 0, S, E, "e"},
                                         {{1, 0}, 0, W, N, "e"},
                                         {{0, 1}, 0, S, N, "e"}});
}

TEST_CASE("two flows of one color on one PE are refused", "[tables]") {
  RoutingProblem problem = makeMesh(3, 2);
  problem.flows = {makeFlow("a", {0, 0}, {{2, 0}}),
                   makeFlow("b", {1, 1}, {{1, 0}})};
  RoutingResult routing = routeFlows(problem);
  REQUIRE(routing.succeeded());
  TablesResult result = buildRouterTables(problem, routing.routes, {3, 3});
  CHECK(result.errors ==
        Messages{"flows 'a' and 'b' both configure color 3 at PE (1, 0)"});
  CHECK(result.tables.configs.empty());

  // A hand-made route that visits a PE twice.
  FlowRoute twice;
  twice.hops = {{{0, 0}, Port::Ramp, E}, {{0, 0}, Port::Ramp, E}};
  problem.flows.pop_back();
  CHECK(buildRouterTables(problem, {twice}, {3}).errors ==
        Messages{"flow 'a' configures color 3 at PE (0, 0) twice"});
}

TEST_CASE("tables want one route and one allowed color per flow", "[tables]") {
  RoutingProblem problem = makeMesh(3, 2);
  problem.flows = {makeFlow("a", {0, 0}, {{2, 0}}),
                   makeFlow("b", {1, 1}, {{1, 0}})};
  CHECK(buildRouterTables(problem, {FlowRoute{}}, {1, 2, 3}).errors ==
        Messages{"expected 2 routes (one per flow), got 1",
                 "expected 2 colors (one per flow), got 3"});
  CHECK(
      buildRouterTables(problem, {FlowRoute{}, FlowRoute{}}, {1, 30}).errors ==
      Messages{"flow 'b' has color 30, which is not among the allowed "
               "colors (0..23)"});
  problem.flows[1].sinks.clear();
  CHECK(buildRouterTables(problem, {}, {}).errors ==
        Messages{"flow 'b' has no sinks"});
}
