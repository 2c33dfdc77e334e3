//===- RoutingFuzzTest.cpp - random meshes and flows, checked end to end --===//
//
// Each seed builds a small random problem (blocked PEs, colors, capacities,
// unicast and multicast flows, edge ports, pins) and runs the router, the
// color assigner and the table builder. Every run either fails with a
// message of the documented forms, or yields tables the verifier accepts
// and loads within every capacity, counted here without the library.
//
//===----------------------------------------------------------------------===//

#include "tessera/Routing/ColorAssigner.h"
#include "tessera/Routing/FlowRouter.h"
#include "tessera/Routing/FlowVerifier.h"
#include "tessera/Routing/RouterTables.h"

#include "RoutingTestUtil.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <set>

using namespace tessera::routing;
using namespace tessera::routing::test;

namespace {

/// SplitMix64: the same numbers on every platform, unlike std::
/// distributions.
class Random {
public:
  explicit Random(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int below(int bound) { return static_cast<int>(next() % bound); }
  bool chance(int percent) { return below(100) < percent; }

private:
  uint64_t state;
};

bool startsWith(const std::string &text, const std::string &prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

/// The mesh ports of `pe` that face off the fabric.
std::vector<Port> getEdgePorts(PE pe, int width, int height) {
  std::vector<Port> ports;
  if (pe.x == 0)
    ports.push_back(Port::West);
  if (pe.x == width - 1)
    ports.push_back(Port::East);
  if (pe.y == height - 1)
    ports.push_back(Port::South);
  if (pe.y == 0)
    ports.push_back(Port::North);
  return ports;
}

/// A random problem; nullopt when every PE came out blocked.
std::optional<RoutingProblem> makeRandomProblem(Random &random) {
  RoutingProblem problem;
  problem.width = 1 + random.below(10);
  problem.height = 1 + random.below(10);
  std::vector<PE> open, openEdge;
  for (int y = 0; y < problem.height; ++y)
    for (int x = 0; x < problem.width; ++x) {
      if (random.chance(12)) {
        problem.blockedPEs.push_back({x, y});
        continue;
      }
      open.push_back({x, y});
      if (!getEdgePorts({x, y}, problem.width, problem.height).empty())
        openEdge.push_back({x, y});
    }
  if (open.empty())
    return std::nullopt;
  // A few colors out of 0..23, in a random order of preference.
  std::vector<unsigned> all = getColors(24);
  for (int i = 23; i > 0; --i)
    std::swap(all[i], all[random.below(i + 1)]);
  all.resize(3 + random.below(6));
  problem.colors = all;
  if (random.chance(60))
    problem.linkCapacity = 1 + random.below(3);
  if (random.chance(20) && problem.linkCapacity)
    problem.linkCapacities.push_back(
        {open[random.below(static_cast<int>(open.size()))],
         getPort(random.below(NumMeshPorts)), random.below(3)});

  auto randomEndpoint = [&]() -> Endpoint {
    if (!openEdge.empty() && random.chance(20)) {
      PE pe = openEdge[random.below(static_cast<int>(openEdge.size()))];
      std::vector<Port> ports = getEdgePorts(pe, problem.width, problem.height);
      return {pe, ports[random.below(static_cast<int>(ports.size()))]};
    }
    return {open[random.below(static_cast<int>(open.size()))], Port::Ramp};
  };
  int numFlows = 1 + random.below(8);
  for (int i = 0; i < numFlows; ++i) {
    Flow flow;
    flow.name = "f" + std::to_string(i);
    flow.source = randomEndpoint();
    int numSinks = 1 + (random.chance(40) ? random.below(4) : 0);
    for (int k = 0; k < numSinks; ++k) {
      Endpoint sink = randomEndpoint();
      if (std::find(flow.sinks.begin(), flow.sinks.end(), sink) ==
          flow.sinks.end())
        flow.sinks.push_back(sink);
    }
    if (random.chance(10))
      flow.pinnedColor =
          problem.colors[random.below(static_cast<int>(problem.colors.size()))];
    problem.flows.push_back(flow);
  }
  return problem;
}

/// Whether `to` can be reached from `from` over open PEs, by breadth-first
/// search (links closed by capacity 0 are closed here too).
bool isConnected(const RoutingProblem &problem, PE from, PE to) {
  std::set<PE> blocked(problem.blockedPEs.begin(), problem.blockedPEs.end());
  std::set<PE> seen = {from};
  std::deque<PE> queue = {from};
  while (!queue.empty()) {
    PE pe = queue.front();
    queue.pop_front();
    if (pe == to)
      return true;
    for (int i = 0; i < NumMeshPorts; ++i) {
      PE next = getNeighbour(pe, getPort(i));
      bool closed = false;
      for (const LinkCapacity &link : problem.linkCapacities)
        closed |= link.from == pe && link.direction == getPort(i) &&
                  link.capacity == 0;
      if (next.x < 0 || next.y < 0 || next.x >= problem.width ||
          next.y >= problem.height || blocked.count(next) || closed ||
          !seen.insert(next).second)
        continue;
      queue.push_back(next);
    }
  }
  return false;
}

/// Checks every link's and router's load against its capacity, counting
/// from the routes' tx sets.
void checkLoads(const RoutingProblem &problem,
                const std::vector<FlowRoute> &routes) {
  int defaultCapacity =
      problem.linkCapacity.value_or(static_cast<int>(problem.colors.size()));
  std::map<std::pair<PE, Port>, int> exits, entries;
  std::map<PE, int> routers;
  for (size_t flow = 0; flow < routes.size(); ++flow) {
    const Endpoint &source = problem.flows[flow].source;
    if (source.port != Port::Ramp)
      ++entries[{source.pe, source.port}];
    for (const RouteHop &hop : routes[flow].hops) {
      ++routers[hop.pe];
      for (int i = 0; i < NumMeshPorts; ++i)
        if (hop.tx & (1 << i))
          ++exits[{hop.pe, getPort(i)}];
    }
  }
  for (const auto &[link, load] : exits) {
    int capacity = defaultCapacity;
    for (const LinkCapacity &override : problem.linkCapacities)
      if (override.from == link.first && override.direction == link.second)
        capacity = override.capacity;
    CHECK(load <= capacity);
  }
  for (const auto &[link, load] : entries)
    CHECK(load <= defaultCapacity);
  for (const auto &[pe, load] : routers)
    CHECK(load <= static_cast<int>(problem.colors.size()));
}

} // namespace

TEST_CASE("random problems route, color and verify or fail by name", "[fuzz]") {
  int verified = 0, disconnected = 0, congested = 0, outOfColors = 0,
      allBlocked = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    INFO("seed " << seed);
    Random random(seed);
    std::optional<RoutingProblem> generated = makeRandomProblem(random);
    if (!generated) {
      ++allBlocked;
      continue;
    }
    const RoutingProblem &problem = *generated;
    REQUIRE(validateProblem(problem).empty());

    RouterOptions options;
    options.maxIterations = 20;
    RoutingResult routing = routeFlows(problem, options);
    if (!routing.succeeded()) {
      REQUIRE(routing.errors.size() == 1);
      const std::string &error = routing.errors[0];
      INFO(error);
      CHECK(startsWith(error, "cannot route flow"));
      REQUIRE_FALSE(routing.unroutedFlows.empty());
      for (int flow : routing.unroutedFlows)
        CHECK(error.find("'" + problem.flows[flow].name + "'") !=
              std::string::npos);
      if (error.find("no path") != std::string::npos) {
        // Only a sink cut off from the source makes a flow unroutable alone.
        const Flow &flow = problem.flows[routing.unroutedFlows[0]];
        bool allConnected = true;
        for (const Endpoint &sink : flow.sinks) {
          allConnected &= isConnected(problem, flow.source.pe, sink.pe);
          for (const LinkCapacity &link : problem.linkCapacities)
            allConnected &=
                !(link.from == sink.pe && link.direction == sink.port &&
                  link.capacity == 0);
        }
        CHECK_FALSE(allConnected);
        ++disconnected;
      } else {
        CHECK_FALSE(routing.overuses.empty());
        ++congested;
      }
      continue;
    }
    checkLoads(problem, routing.routes);

    ColoringResult coloring = assignColors(problem, routing.routes);
    if (!coloring.succeeded()) {
      INFO(coloring.errors[0]);
      CHECK((startsWith(coloring.errors[0], "out of colors") ||
             coloring.errors[0].find("are both pinned to color") !=
                 std::string::npos));
      ++outOfColors;
      continue;
    }
    for (size_t flow = 0; flow < problem.flows.size(); ++flow)
      if (problem.flows[flow].pinnedColor)
        CHECK(coloring.colors[flow] == *problem.flows[flow].pinnedColor);
    TablesResult tables =
        buildRouterTables(problem, routing.routes, coloring.colors);
    REQUIRE(tables.succeeded());
    std::vector<Finding> findings =
        verifyFlows(problem, coloring.colors, tables.tables);
    INFO((findings.empty() ? std::string() : findings[0].message));
    CHECK(findings.empty());
    ++verified;
  }
  // The mix pins down the generator and the algorithms: a change to either
  // shows here first.
  CHECK(verified + disconnected + congested + outOfColors + allBlocked == 200);
  CHECK(verified == 133);
  CHECK(disconnected == 21);
  CHECK(congested == 33);
  CHECK(outOfColors == 12);
  CHECK(allBlocked == 1);
}
