//===- RoutingProblemTest.cpp - malformed meshes and flows ----------------===//

#include "tessera/Routing/RoutingProblem.h"
#include "tessera/Routing/ColorAssigner.h"
#include "tessera/Routing/FlowRouter.h"
#include "tessera/Routing/Mesh.h"

#include "RoutingTestUtil.h"

#include <catch2/catch.hpp>

using namespace tessera::routing;
using namespace tessera::routing::test;

namespace {

using Messages = std::vector<std::string>;

/// The errors of a 4x4 mesh with PE (1, 1) blocked and `flows`.
Messages validate(std::vector<Flow> flows) {
  RoutingProblem problem = makeMesh(4, 4);
  problem.blockedPEs = {{1, 1}};
  problem.flows = std::move(flows);
  return validateProblem(problem);
}

} // namespace

TEST_CASE("a well-formed problem has no errors", "[problem]") {
  RoutingProblem problem = makeMesh(4, 4);
  problem.blockedPEs = {{1, 1}};
  problem.flows = {makeFlow("a", {0, 0}, {{3, 3}, {2, 0}}, 5)};
  problem.flows.push_back(
      {"edge", {{0, 3}, Port::West}, {{{3, 0}, Port::North}}, {}});
  problem.linkCapacities = {{{3, 0}, Port::East, 0}};
  CHECK(validateProblem(problem).empty());
}

TEST_CASE("the mesh and its blocked PEs", "[problem]") {
  RoutingProblem empty = makeMesh(0, 3);
  CHECK(validateProblem(empty) ==
        Messages{"the mesh must be at least 1x1, got 0x3"});
  RoutingProblem problem = makeMesh(4, 4);
  problem.blockedPEs = {{4, 0}, {0, -1}};
  CHECK(validateProblem(problem) ==
        Messages{"blocked PE (4, 0) is outside the 4x4 mesh",
                 "blocked PE (0, -1) is outside the 4x4 mesh"});
}

TEST_CASE("the allowed colors", "[problem]") {
  RoutingProblem problem = makeMesh(4, 4);
  problem.colors = {3, 4, 3};
  CHECK(validateProblem(problem) == Messages{"color 3 is listed twice"});
  problem.colors = {};
  CHECK(validateProblem(problem).empty()); // nothing to color
  problem.flows = {makeFlow("a", {0, 0}, {{1, 0}})};
  CHECK(validateProblem(problem) == Messages{"no colors are allowed"});
}

TEST_CASE("capacities", "[problem]") {
  RoutingProblem problem = makeMesh(4, 4);
  problem.linkCapacity = -1;
  problem.peCapacity = -2;
  problem.linkCapacities = {{{4, 0}, Port::West, 1},
                            {{0, 0}, Port::Ramp, 1},
                            {{0, 0}, Port::East, -1},
                            {{1, 0}, Port::East, 1},
                            {{1, 0}, Port::East, 2}};
  CHECK(validateProblem(problem) ==
        Messages{"link capacity -1 is negative",
                 "router capacity -2 is negative",
                 "link capacity for PE (4, 0) west: the PE is outside the "
                 "4x4 mesh",
                 "link capacity for PE (0, 0) ramp: only mesh ports have links",
                 "link capacity for PE (0, 0) east: -1 is negative",
                 "link capacity for PE (1, 0) east: given twice"});
}

TEST_CASE("flow names", "[problem]") {
  CHECK(
      validate({makeFlow("", {0, 0}, {{1, 0}}), makeFlow("a", {0, 0}, {{1, 0}}),
                makeFlow("a", {0, 1}, {{1, 0}})}) ==
      Messages{"flow 0 has no name", "flow 'a' is declared twice"});
}

TEST_CASE("sources", "[problem]") {
  Flow westOfInside{"c", {{1, 0}, Port::West}, {{{3, 3}, Port::Ramp}}, {}};
  Flow southOfTop{"d", {{3, 0}, Port::South}, {{{3, 3}, Port::Ramp}}, {}};
  CHECK(validate({makeFlow("a", {4, 0}, {{1, 0}}),
                  makeFlow("b", {1, 1}, {{1, 0}}), westOfInside, southOfTop}) ==
        Messages{"flow 'a': source PE (4, 0) is outside the 4x4 mesh",
                 "flow 'b': source PE (1, 1) is blocked",
                 "flow 'c': source PE (1, 0) west is not on the fabric edge",
                 "flow 'd': source PE (3, 0) south is not on the fabric "
                 "edge"});
}

TEST_CASE("sinks", "[problem]") {
  Flow none = makeFlow("a", {0, 0}, {});
  Flow edgeTwice{"e",
                 {{0, 0}, Port::Ramp},
                 {{{3, 2}, Port::East}, {{3, 2}, Port::East}},
                 {}};
  Flow notEdge{"f", {{0, 0}, Port::Ramp}, {{{2, 2}, Port::North}}, {}};
  CHECK(validate({none, makeFlow("b", {0, 0}, {{0, 4}}),
                  makeFlow("c", {0, 0}, {{1, 1}}),
                  makeFlow("d", {0, 0}, {{2, 0}, {3, 0}, {2, 0}}), edgeTwice,
                  notEdge}) ==
        Messages{"flow 'a' has no sinks",
                 "flow 'b': sink PE (0, 4) is outside the 4x4 mesh",
                 "flow 'c': sink PE (1, 1) is blocked",
                 "flow 'd': sink PE (2, 0) is listed twice",
                 "flow 'e': sink PE (3, 2) east is listed twice",
                 "flow 'f': sink PE (2, 2) north is not on the fabric edge"});
}

TEST_CASE("pinned colors must be allowed", "[problem]") {
  RoutingProblem problem = makeMesh(4, 4, 21);
  problem.flows = {makeFlow("a", {0, 0}, {{1, 0}}, 22)};
  CHECK(validateProblem(problem) ==
        Messages{"flow 'a' is pinned to color 22, which is not among the "
                 "allowed colors (0..20)"});
  problem.colors = {0, 1, 2, 3, 4, 6, 8, 9, 10, 11, 12};
  problem.flows[0].pinnedColor = 5;
  CHECK(validateProblem(problem) ==
        Messages{"flow 'a' is pinned to color 5, which is not among the "
                 "allowed colors (0..4, 6, 8..12)"});
}

TEST_CASE("the router, the assigner and the tables reject bad input",
          "[problem]") {
  RoutingProblem problem = makeMesh(4, 4);
  problem.flows = {makeFlow("a", {0, 0}, {{5, 0}})};
  Messages expected{"flow 'a': sink PE (5, 0) is outside the 4x4 mesh"};
  RoutingResult routing = routeFlows(problem);
  CHECK_FALSE(routing.succeeded());
  CHECK(routing.errors == expected);
  CHECK(routing.routes.empty());
  CHECK(assignColors(problem, {FlowRoute{}}).errors == expected);
  problem.flows[0].sinks[0].pe = {3, 0};
  RouterOptions options;
  options.maxIterations = 0;
  CHECK(routeFlows(problem, options).errors ==
        Messages{"the router needs at least 1 iteration, got 0"});
}

TEST_CASE("the mesh answers from the problem", "[problem]") {
  RoutingProblem problem = makeMesh(4, 3, 6);
  problem.blockedPEs = {{2, 1}};
  problem.linkCapacities = {{{0, 0}, Port::East, 2}};
  Mesh mesh(problem);
  CHECK(mesh.getNumPEs() == 12);
  CHECK(mesh.getIndex({2, 1}) == 6);
  CHECK(mesh.getPE(6) == PE{2, 1});
  CHECK(mesh.isBlocked({2, 1}));
  CHECK_FALSE(mesh.isBlocked({1, 2}));
  CHECK(mesh.facesEdge({0, 1}, Port::West));
  CHECK(mesh.facesEdge({3, 2}, Port::South));
  CHECK_FALSE(mesh.facesEdge({3, 2}, Port::North));
  CHECK_FALSE(mesh.facesEdge({0, 0}, Port::Ramp));
  CHECK(mesh.getLinkCapacity({0, 0}, Port::East) == 2);
  CHECK(mesh.getLinkCapacity({1, 0}, Port::East) == 6);
  CHECK(mesh.getEdgeEntryCapacity() == 6);
  CHECK(mesh.getPECapacity() == 6);
  problem.linkCapacity = 3;
  problem.peCapacity = 4;
  Mesh limited(problem);
  CHECK(limited.getLinkCapacity({1, 0}, Port::East) == 3);
  CHECK(limited.getPECapacity() == 4);
}

TEST_CASE("ports and their names", "[problem]") {
  CHECK(getMask(Port::West) == 1);
  CHECK(getMask(Port::Ramp) == 16);
  CHECK(getOpposite(Port::North) == Port::South);
  CHECK(getOpposite(Port::Ramp) == Port::Ramp);
  CHECK(getNeighbour({2, 2}, Port::North) == PE{2, 1});
  CHECK(getNeighbour({2, 2}, Port::West) == PE{1, 2});
  CHECK(formatPortMask(0) == "no port");
  CHECK(formatPortMask(getMask(Port::North)) == "north");
  CHECK(formatPortMask(1 | 8) == "west and north");
  CHECK(formatPortMask(1 | 2 | 16) == "west, east and ramp");
  CHECK(formatEndpoint({{4, 0}, Port::East}) == "PE (4, 0) east");
  CHECK(formatColorList({5, 1, 0}) == "0, 1, 5");
  CHECK(formatColorList({7, 2, 3, 4, 5}) == "2..5, 7");
}
