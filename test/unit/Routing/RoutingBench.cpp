//===- RoutingBench.cpp - timing a realistic routing problem --------------===//
//
// Hidden ([.bench]): not part of the test run, and it asserts nothing about
// time (docs/CodingStyle.md). bench/routing/run.sh runs it;
// docs/FlowRouting.md reports the figures.
//
//===----------------------------------------------------------------------===//

#include "tessera/Routing/ColorAssigner.h"
#include "tessera/Routing/FlowRouter.h"
#include "tessera/Routing/FlowVerifier.h"
#include "tessera/Routing/RouterTables.h"

#include "RoutingTestUtil.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>

using namespace tessera::routing;
using namespace tessera::routing::test;

namespace {

using Clock = std::chrono::steady_clock;

double getSeconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// `count` flows on a `size` x `size` mesh with colors 0..20 (memcpy keeps
/// 21..23): 70% unicast, the rest multicast to 2..8 sinks, sinks within 24
/// PEs of the source in x and y, as between neighbouring kernels.
RoutingProblem makeBenchProblem(int size, int count,
                                std::optional<int> linkCapacity) {
  RoutingProblem problem = makeMesh(size, size, 21);
  problem.linkCapacity = linkCapacity;
  uint64_t state = 12345;
  auto next = [&state](int bound) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<int>((state >> 33) % static_cast<uint64_t>(bound));
  };
  // Reflected at the mesh's sides.
  auto near = [&](int centre) {
    int value = centre - 24 + next(49);
    return value < 0 ? -value : value >= size ? 2 * size - 2 - value : value;
  };
  for (int i = 0; i < count; ++i) {
    PE source{next(size), next(size)};
    int numSinks = next(10) < 7 ? 1 : 2 + next(7);
    std::vector<PE> sinks;
    while (static_cast<int>(sinks.size()) < numSinks) {
      PE sink{near(source.x), near(source.y)};
      if (std::find(sinks.begin(), sinks.end(), sink) == sinks.end())
        sinks.push_back(sink);
    }
    problem.flows.push_back(makeFlow("f" + std::to_string(i), source, sinks));
  }
  return problem;
}

void runBench(const char *title, const RoutingProblem &problem) {
  Clock::time_point start = Clock::now();
  RoutingResult routing = routeFlows(problem);
  double routeSeconds = getSeconds(start);
  REQUIRE(routing.succeeded());
  start = Clock::now();
  ColoringResult coloring = assignColors(problem, routing.routes);
  double colorSeconds = getSeconds(start);
  REQUIRE(coloring.succeeded());
  start = Clock::now();
  TablesResult tables =
      buildRouterTables(problem, routing.routes, coloring.colors);
  double tableSeconds = getSeconds(start);
  REQUIRE(tables.succeeded());
  start = Clock::now();
  std::vector<Finding> findings =
      verifyFlows(problem, coloring.colors, tables.tables);
  double verifySeconds = getSeconds(start);
  CHECK(findings.empty());
  size_t links = 0;
  for (const FlowRoute &route : routing.routes)
    links += getLinks(route, problem.width, problem.height).size();
  std::printf("%s: iterations %d, links %zu, colors %d, table entries %zu\n"
              "  route %.3f s, color %.3f s, tables %.3f s, verify %.3f s\n",
              title, routing.iterations, links, coloring.colorsUsed,
              tables.tables.configs.size(), routeSeconds, colorSeconds,
              tableSeconds, verifySeconds);
}

} // namespace

TEST_CASE("routing 200 flows on a 64x64 mesh", "[.bench]") {
  runBench("64x64, 200 flows, 21 flows per link",
           makeBenchProblem(64, 200, std::nullopt));
  runBench("64x64, 200 flows, 2 flows per link", makeBenchProblem(64, 200, 2));
  runBench("64x64, 200 flows, 1 flow per link", makeBenchProblem(64, 200, 1));
  runBench("256x256, 3200 flows, 2 flows per link",
           makeBenchProblem(256, 3200, 2));
}
