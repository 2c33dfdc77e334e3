//===- FlowVerifierTest.cpp - hand-written tables, right and broken -------===//

#include "tessera/Routing/FlowVerifier.h"

#include "RoutingTestUtil.h"

#include <catch2/catch.hpp>

using namespace tessera::routing;
using namespace tessera::routing::test;

namespace {

constexpr PortMask W = 1, E = 2, S = 4, N = 8, R = 16;

using Messages = std::vector<std::string>;

/// A 4x3 mesh with flow 'a' from (0, 0) to (2, 0) on color 3.
RoutingProblem makeProblem() {
  RoutingProblem problem = makeMesh(4, 3);
  problem.flows = {makeFlow("a", {0, 0}, {{2, 0}})};
  return problem;
}

/// Flow 'a' straight along row 0, as the router would write it.
std::vector<ColorConfig> getStraightTables() {
  return {
      {{0, 0}, 3, R, E, "a"}, {{1, 0}, 3, W, E, "a"}, {{2, 0}, 3, W, R, "a"}};
}

Messages verify(const RoutingProblem &problem, std::vector<ColorConfig> configs,
                std::vector<unsigned> colors = {3}) {
  return getMessages(verifyFlows(problem, colors, {std::move(configs)}));
}

} // namespace

TEST_CASE("correct hand-written tables pass", "[verifier]") {
  CHECK(verify(makeProblem(), getStraightTables()).empty());
  // Extra rx ports are fine as long as only one receives.
  std::vector<ColorConfig> configs = getStraightTables();
  configs[1].rx = W | N | S;
  CHECK(verify(makeProblem(), configs).empty());
  // A multicast flow with an edge source and an edge sink.
  RoutingProblem problem = makeMesh(4, 3);
  problem.flows = {{"m",
                    {{0, 1}, Port::West},
                    {{{1, 1}, Port::Ramp}, {{3, 1}, Port::East}},
                    {}}};
  CHECK(verify(problem, {{{0, 1}, 3, W, E, "m"},
                         {{1, 1}, 3, W, E | R, "m"},
                         {{2, 1}, 3, W, E, "m"},
                         {{3, 1}, 3, W, E, "m"}})
            .empty());
}

TEST_CASE("a PE that does not route the color", "[verifier]") {
  std::vector<ColorConfig> configs = getStraightTables();
  configs.erase(configs.begin() + 1);
  std::vector<Finding> findings = verifyFlows(makeProblem(), {3}, {configs});
  CHECK(getMessages(findings) ==
        Messages{"flow 'a' color 3 arrives at PE (1, 0) from west, where "
                 "color 3 is not configured",
                 "flow 'a' color 3 never reaches its sink PE (2, 0)",
                 "flow 'a' configures color 3 at PE (2, 0), which its "
                 "wavelets never reach"});
  REQUIRE(findings.size() == 3);
  CHECK(findings[0].kind == FindingKind::NotConfigured);
  CHECK(findings[0].flows == std::vector<std::string>{"a"});
  CHECK(findings[0].pe == PE{1, 0});
  CHECK(findings[0].color == 3);
  CHECK(findings[1].kind == FindingKind::MissedSink);
  CHECK(findings[2].kind == FindingKind::UnreachedConfig);

  // The source itself.
  CHECK(verify(makeProblem(), getStraightTables(), {5}) ==
        Messages{"flow 'a' color 5 arrives at PE (0, 0) from ramp, where "
                 "color 5 is not configured",
                 "flow 'a' color 5 never reaches its sink PE (2, 0)",
                 "flow 'a' configures color 3 at PE (0, 0), which its "
                 "wavelets never reach",
                 "flow 'a' configures color 3 at PE (1, 0), which its "
                 "wavelets never reach",
                 "flow 'a' configures color 3 at PE (2, 0), which its "
                 "wavelets never reach"});
}

TEST_CASE("a port outside the rx set", "[verifier]") {
  std::vector<ColorConfig> configs = getStraightTables();
  configs[1].rx = N;
  std::vector<Finding> findings = verifyFlows(makeProblem(), {3}, {configs});
  CHECK(getMessages(findings) ==
        Messages{"flow 'a' color 3 arrives at PE (1, 0) from west, which the "
                 "rx set (north) does not accept",
                 "flow 'a' color 3 never reaches its sink PE (2, 0)",
                 "flow 'a' configures color 3 at PE (1, 0), which its "
                 "wavelets never reach",
                 "flow 'a' configures color 3 at PE (2, 0), which its "
                 "wavelets never reach"});
  CHECK(findings[0].kind == FindingKind::NotAccepted);
}

TEST_CASE("two flows of one color meet", "[verifier]") {
  // a ends at (1, 0) but also sends east, into b's PE of the same color.
  RoutingProblem problem = makeProblem();
  problem.flows = {makeFlow("a", {0, 0}, {{1, 0}}),
                   makeFlow("b", {2, 1}, {{2, 0}})};
  std::vector<Finding> findings = verifyFlows(problem, {3, 3},
                                              {{{{0, 0}, 3, R, E, "a"},
                                                {{1, 0}, 3, W, R | E, "a"},
                                                {{2, 1}, 3, R, N, "b"},
                                                {{2, 0}, 3, S, R, "b"}}});
  CHECK(getMessages(findings) ==
        Messages{"flows 'a' and 'b' of color 3 meet at PE (2, 0)"});
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].kind == FindingKind::Meet);
  CHECK(findings[0].flows == std::vector<std::string>{"a", "b"});
  CHECK(findings[0].pe == PE{2, 0});
  // On different colors the same tables leak instead.
  CHECK(verify(problem,
               {{{0, 0}, 3, R, E, "a"},
                {{1, 0}, 3, W, R | E, "a"},
                {{2, 1}, 4, R, N, "b"},
                {{2, 0}, 4, S, R, "b"}},
               {3, 4}) ==
        Messages{"flow 'a' color 3 arrives at PE (2, 0) from west, where "
                 "color 3 is not configured"});
}

TEST_CASE("deliveries and exits that are no sinks", "[verifier]") {
  std::vector<ColorConfig> configs = getStraightTables();
  configs[1].tx = E | R;
  configs[2].tx = R | N;
  std::vector<Finding> findings = verifyFlows(makeProblem(), {3}, {configs});
  CHECK(getMessages(findings) ==
        Messages{"flow 'a' color 3 is delivered to PE (1, 0), which is not "
                 "one of its sinks",
                 "flow 'a' color 3 leaves the fabric at PE (2, 0) north, "
                 "which is not one of its sinks"});
  CHECK(findings[0].kind == FindingKind::StrayDelivery);
  CHECK(findings[1].kind == FindingKind::StrayExit);
  CHECK(findings[1].pe == PE{2, 0});
}

TEST_CASE("an edge sink reached at the CE instead", "[verifier]") {
  RoutingProblem problem = makeMesh(4, 3);
  problem.flows = {{"e", {{0, 0}, Port::Ramp}, {{{3, 0}, Port::East}}, {}}};
  CHECK(verify(problem, {{{0, 0}, 3, R, E, "e"},
                         {{1, 0}, 3, W, E, "e"},
                         {{2, 0}, 3, W, E, "e"},
                         {{3, 0}, 3, W, R, "e"}}) ==
        Messages{"flow 'e' color 3 never reaches its sink PE (3, 0) east",
                 "flow 'e' color 3 is delivered to PE (3, 0), which is not "
                 "one of its sinks"});
}

TEST_CASE("a flow that loops back", "[verifier]") {
  // Around the square (0, 0) (1, 0) (1, 1) (0, 1) and back into the source,
  // whose rx set accepts south.
  RoutingProblem problem = makeMesh(4, 3);
  problem.flows = {makeFlow("a", {0, 0}, {{1, 0}})};
  std::vector<Finding> findings = verifyFlows(problem, {3},
                                              {{{{0, 0}, 3, R | S, E, "a"},
                                                {{1, 0}, 3, W, R | S, "a"},
                                                {{1, 1}, 3, N, W, "a"},
                                                {{0, 1}, 3, E, N, "a"}}});
  CHECK(getMessages(findings) ==
        Messages{"flow 'a' color 3 loops back to PE (0, 0) from south"});
  CHECK(findings[0].kind == FindingKind::Loop);
}

TEST_CASE("one PE receiving a flow on two ports", "[verifier]") {
  RoutingProblem problem = makeMesh(4, 3);
  problem.flows = {makeFlow("a", {0, 0}, {{1, 1}})};
  std::vector<Finding> findings = verifyFlows(problem, {3},
                                              {{{{0, 0}, 3, R, E | S, "a"},
                                                {{1, 0}, 3, W, S, "a"},
                                                {{0, 1}, 3, N, E, "a"},
                                                {{1, 1}, 3, N | W, R, "a"}}});
  CHECK(getMessages(findings) ==
        Messages{"flow 'a' color 3 is received at PE (1, 1) from west and "
                 "north at once"});
  CHECK(findings[0].kind == FindingKind::ReceivedTwice);
  CHECK(findings[0].pe == PE{1, 1});
}

TEST_CASE("a flow across a blocked PE", "[verifier]") {
  RoutingProblem problem = makeProblem();
  problem.blockedPEs = {{1, 0}};
  CHECK(verify(problem, getStraightTables()) ==
        Messages{"flow 'a' color 3 crosses blocked PE (1, 0)",
                 "flow 'a' color 3 never reaches its sink PE (2, 0)",
                 "flow 'a' configures color 3 at PE (1, 0), which its "
                 "wavelets never reach",
                 "flow 'a' configures color 3 at PE (2, 0), which its "
                 "wavelets never reach"});
}

TEST_CASE("malformed table entries", "[verifier]") {
  RoutingProblem problem = makeProblem();
  problem.flows.push_back(makeFlow("b", {3, 2}, {{3, 1}}));
  std::vector<ColorConfig> configs = getStraightTables();
  configs.push_back({{9, 9}, 3, R, E, "a"});
  configs.push_back({{1, 0}, 3, N, S, "b"});
  configs.push_back({{1, 0}, 3, N, S, "a"});
  configs.push_back({{3, 0}, 3, N, S, "zz"});
  configs.push_back({{3, 2}, 4, R, N, "b"});
  configs.push_back({{3, 1}, 4, S, R, "b"});
  std::vector<Finding> findings = verifyFlows(problem, {3, 4}, {configs});
  CHECK(getMessages(findings) ==
        Messages{"PE (9, 9) color 3 (flow 'a') lies outside the 4x3 mesh",
                 "PE (1, 0) color 3 is configured twice, for flows 'a' and "
                 "'b'",
                 "PE (1, 0) color 3 is configured twice, for flow 'a'",
                 "PE (3, 0) color 3 belongs to 'zz', which names no flow"});
  CHECK(findings[0].kind == FindingKind::OutsideMesh);
  CHECK(findings[1].kind == FindingKind::DuplicateConfig);
  CHECK(findings[3].kind == FindingKind::UnknownOwner);
}

TEST_CASE("links carrying more flows than they hold", "[verifier]") {
  RoutingProblem problem = makeMesh(3, 1);
  problem.linkCapacity = 1;
  problem.flows = {{"a", {{0, 0}, Port::West}, {{{2, 0}, Port::East}}, {}},
                   {"b", {{0, 0}, Port::West}, {{{2, 0}, Port::East}}, {}}};
  std::vector<ColorConfig> configs;
  for (unsigned color : {0u, 1u}) {
    std::string owner = color == 0 ? "a" : "b";
    configs.push_back({{0, 0}, color, W, E, owner});
    configs.push_back({{1, 0}, color, W, E, owner});
    configs.push_back({{2, 0}, color, W, E, owner});
  }
  std::vector<Finding> findings = verifyFlows(problem, {0, 1}, {configs});
  CHECK(getMessages(findings) ==
        Messages{"the link from PE (0, 0) east to PE (1, 0) carries flows "
                 "'a' and 'b' but holds 1",
                 "the link into PE (0, 0) from the west edge carries flows "
                 "'a' and 'b' but holds 1",
                 "the link from PE (1, 0) east to PE (2, 0) carries flows "
                 "'a' and 'b' but holds 1",
                 "the link from PE (2, 0) east off the fabric carries flows "
                 "'a' and 'b' but holds 1"});
  CHECK(findings[0].kind == FindingKind::LinkOverCapacity);
  CHECK(findings[0].flows == std::vector<std::string>{"a", "b"});
  CHECK(findings[0].pe == PE{0, 0});
  // A per-link capacity lifts one of them.
  problem.linkCapacities = {{{1, 0}, Port::East, 2}};
  CHECK(verifyFlows(problem, {0, 1}, {configs}).size() == 3);
}

TEST_CASE("malformed verifier input", "[verifier]") {
  RoutingProblem problem = makeProblem();
  std::vector<Finding> findings = verifyFlows(problem, {}, {});
  CHECK(getMessages(findings) ==
        Messages{"expected 1 color (one per flow), got 0"});
  CHECK(findings[0].kind == FindingKind::InvalidInput);
  problem.flows[0].sinks[0].pe = {7, 0};
  CHECK(verify(problem, getStraightTables()) ==
        Messages{"flow 'a': sink PE (7, 0) is outside the 4x3 mesh"});
}
