//===- RouteCheckerTest.cpp - the checks of tessera-verify-routes ---------===//

#include "RouteChecker.h"

#include <catch2/catch.hpp>

using namespace tessera::fabric;

namespace {

constexpr uint8_t W = routePortBit(RoutePort::West);
constexpr uint8_t E = routePortBit(RoutePort::East);
constexpr uint8_t S = routePortBit(RoutePort::South);
constexpr uint8_t N = routePortBit(RoutePort::North);
constexpr uint8_t R = routePortBit(RoutePort::Ramp);

constexpr unsigned memcpyColors[] = {21, 22, 23};

ColorRoute makeRoute(PERange range, int64_t color, uint8_t rx, uint8_t tx) {
  ColorRoute route;
  route.range = range;
  route.color = color;
  route.rx = rx;
  route.tx = tx;
  return route;
}

PERange box(int64_t x, int64_t y, int64_t width, int64_t height,
            int64_t stepX = 1, int64_t stepY = 1) {
  return PERange{x, y, width, height, stepX, stepY};
}

/// A checker for a `width` x `height` fabric with the rectangle at
/// (offsetX, offsetY).
RouteChecker makeChecker(int64_t width, int64_t height, int64_t offsetX = 0,
                         int64_t offsetY = 0, bool memcpy = false) {
  std::span<const unsigned> reserved;
  if (memcpy)
    reserved = memcpyColors;
  return RouteChecker({width, height, offsetX, offsetY}, reserved);
}

std::vector<std::string> messages(const std::vector<RouteProblem> &problems) {
  std::vector<std::string> texts;
  for (const RouteProblem &problem : problems)
    texts.push_back(problem.message);
  return texts;
}

} // namespace

TEST_CASE("counts group their digits", "[route-checker]") {
  CHECK(formatCount(0) == "0");
  CHECK(formatCount(999) == "999");
  CHECK(formatCount(1000) == "1,000");
  CHECK(formatCount(745499) == "745,499");
  CHECK(formatCount(1234567) == "1,234,567");
}

TEST_CASE("a route inside the fabric with one rx port is fine",
          "[route-checker]") {
  RouteChecker checker = makeChecker(6, 4);
  // An eastward stream over the middle of the fabric, switching south.
  ColorRoute route = makeRoute(box(1, 1, 4, 2), 3, W, R | E);
  route.positions = {{false, RoutePort::South}, {true, RoutePort::North}};
  route.setsCurrentPosition = true;
  route.setsRingMode = true;
  route.setsPopMode = true;
  CHECK(checker.check(route).empty());
  // No ports at all is fine too.
  CHECK(checker.check(makeRoute(box(0, 0, 6, 4), 4, 0, 0)).empty());
}

TEST_CASE("a color received from several ports at once", "[route-checker]") {
  RouteChecker checker = makeChecker(10, 10);
  std::vector<RouteProblem> problems =
      checker.check(makeRoute(box(3, 0, 4, 2), 5, W | E, R));
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].kind == RouteProblemKind::ReceivedFromSeveral);
  CHECK(problems[0].x == 3);
  CHECK(problems[0].y == 0);
  CHECK(problems[0].otherPEs == 7);
  CHECK(problems[0].message == "PE (3, 0) color 5 is received from west and "
                               "east at once (and 7 other PEs of this range)");

  CHECK(messages(
            checker.check(makeRoute(box(3, 2, 1, 1), 1, W | E | N | R, 0))) ==
        std::vector<std::string>{"PE (3, 2) color 1 is received from west, "
                                 "east, north and ramp at once"});

  // Positions on either side never add ports to the rx set.
  ColorRoute switched = makeRoute(box(3, 2, 1, 1), 1, W, E);
  switched.positions = {{true, RoutePort::North}, {false, RoutePort::South}};
  CHECK(checker.check(switched).empty());
}

TEST_CASE("one PE of many has a singular suffix", "[route-checker]") {
  RouteChecker checker = makeChecker(10, 10);
  CHECK(messages(checker.check(makeRoute(box(0, 4, 2, 1), 5, S | N, R))) ==
        std::vector<std::string>{"PE (0, 4) color 5 is received from south "
                                 "and north at once (and 1 other PE of this "
                                 "range)"});
}

TEST_CASE("a whole wafer is one error with a count", "[route-checker]") {
  RouteChecker checker = makeChecker(757, 996, 4, 1);
  CHECK(messages(checker.check(makeRoute(box(0, 0, 750, 994), 5, W | E, R))) ==
        std::vector<std::string>{"PE (0, 0) color 5 is received from west and "
                                 "east at once (and 745,499 other PEs of this "
                                 "range)"});
}

TEST_CASE("a route sent off the fabric edge", "[route-checker]") {
  SECTION("the rectangle's west column at the fabric's west edge") {
    RouteChecker checker = makeChecker(8, 4);
    std::vector<RouteProblem> problems =
        checker.check(makeRoute(box(0, 0, 3, 3), 2, R, W));
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].kind == RouteProblemKind::SentOffFabric);
    CHECK(problems[0].otherPEs == 2);
    CHECK(problems[0].message == "PE (0, 0) color 2 is sent west, off the "
                                 "fabric edge (and 2 other PEs of this range)");
  }
  SECTION("with offsets the west edge sends into the margin") {
    RouteChecker checker = makeChecker(8, 4, 1, 0);
    CHECK(checker.check(makeRoute(box(0, 1, 3, 3), 2, R, W)).empty());
  }
  SECTION("the east edge follows the fabric's width, not the rectangle's") {
    // A 4-wide rectangle at x offset 4 of an 8-wide fabric ends at its edge.
    RouteChecker checker = makeChecker(8, 4, 4, 0);
    CHECK(messages(checker.check(makeRoute(box(0, 0, 4, 1), 2, W, E))) ==
          std::vector<std::string>{"PE (3, 0) color 2 is sent east, off the "
                                   "fabric edge"});
    RouteChecker wider = makeChecker(9, 4, 4, 0);
    CHECK(wider.check(makeRoute(box(0, 0, 4, 1), 2, W, E)).empty());
  }
  SECTION("every edge at once counts corner PEs once") {
    RouteChecker checker = makeChecker(4, 3);
    std::vector<RouteProblem> problems =
        checker.check(makeRoute(box(0, 0, 4, 3), 2, R, W | E | N | S));
    REQUIRE(problems.size() == 1);
    // Columns 0 and 3 (3 PEs each) and rows 0 and 2 (4 each) share 4.
    CHECK(problems[0].otherPEs == 9);
    CHECK(problems[0].message ==
          "PE (0, 0) color 2 is sent west and north, off the fabric edge "
          "(and 9 other PEs of this range)");
  }
  SECTION("a one-column fabric has one column at both edges") {
    RouteChecker checker = makeChecker(1, 3);
    CHECK(messages(checker.check(makeRoute(box(0, 0, 1, 3), 2, R, W | E))) ==
          std::vector<std::string>{"PE (0, 0) color 2 is sent west and east, "
                                   "off the fabric edge (and 2 other PEs of "
                                   "this range)"});
  }
  SECTION("a step that skips the edge column") {
    RouteChecker checker = makeChecker(5, 1);
    // Columns 0 and 3 of 0..4: the east edge (4) is not in the range.
    CHECK(checker.check(makeRoute(box(0, 0, 5, 1, 3, 1), 2, R, E)).empty());
    // Columns 0, 2 and 4.
    CHECK(messages(checker.check(makeRoute(box(0, 0, 5, 1, 2, 1), 2, R, E))) ==
          std::vector<std::string>{"PE (4, 0) color 2 is sent east, off the "
                                   "fabric edge"});
  }
  SECTION("the first PE is the first by row, then column") {
    RouteChecker checker = makeChecker(4, 2);
    // Columns 1 and 3, rows 0 and 1: east hits (3, 0) and (3, 1), south
    // (1, 1) and (3, 1).
    std::vector<RouteProblem> problems =
        checker.check(makeRoute(box(1, 0, 3, 2, 2, 1), 6, R, E | S));
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].x == 3);
    CHECK(problems[0].y == 0);
    CHECK(problems[0].message == "PE (3, 0) color 6 is sent east, off the "
                                 "fabric edge (and 2 other PEs of this range)");
    // South alone: the bottom row.
    CHECK(messages(checker.check(makeRoute(box(1, 0, 3, 2), 6, R, S))) ==
          std::vector<std::string>{"PE (1, 1) color 6 is sent south, off the "
                                   "fabric edge (and 2 other PEs of this "
                                   "range)"});
  }
  SECTION("a tx switch position counts") {
    RouteChecker checker = makeChecker(4, 2);
    ColorRoute route = makeRoute(box(0, 0, 4, 1), 6, W, R);
    route.positions = {{false, RoutePort::North}};
    CHECK(messages(checker.check(route)) ==
          std::vector<std::string>{
              "PE (0, 0) color 6 is sent north, off the fabric edge (and 3 "
              "other PEs of this range)",
              "PE (0, 0) color 6 is received from west, off the fabric "
              "edge"});
  }
}

TEST_CASE("a route received from beyond the fabric edge", "[route-checker]") {
  RouteChecker checker = makeChecker(4, 4);
  std::vector<RouteProblem> problems =
      checker.check(makeRoute(box(0, 3, 4, 1), 2, S, R));
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].kind == RouteProblemKind::ReceivedFromOffFabric);
  CHECK(problems[0].message == "PE (0, 3) color 2 is received from south, "
                               "off the fabric edge (and 3 other PEs of this "
                               "range)");
  // An rx switch position counts.
  ColorRoute route = makeRoute(box(1, 1, 2, 2), 2, W, R);
  route.positions = {{true, RoutePort::East}, {true, RoutePort::North}};
  CHECK(checker.check(route).empty());
  route.range = box(2, 0, 2, 2);
  CHECK(messages(checker.check(route)) ==
        std::vector<std::string>{"PE (2, 0) color 2 is received from north, "
                                 "off the fabric edge (and 2 other PEs of "
                                 "this range)"});
}

TEST_CASE("colors memcpy reserves", "[route-checker]") {
  RouteChecker withMemcpy = makeChecker(11, 4, 4, 1, /*memcpy=*/true);
  std::vector<RouteProblem> problems =
      withMemcpy.check(makeRoute(box(1, 2, 1, 1), 21, W, R));
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].kind == RouteProblemKind::ReservedColor);
  CHECK(problems[0].otherPEs == 0);
  CHECK(problems[0].message == "PE (1, 2) color 21 is reserved by the memcpy "
                               "infrastructure (--memcpy)");
  CHECK(messages(withMemcpy.check(makeRoute(box(0, 0, 4, 2), 23, W, R))) ==
        std::vector<std::string>{"PE (0, 0) color 23 is reserved by the "
                                 "memcpy infrastructure (--memcpy) (and 7 "
                                 "other PEs of this range)"});
  CHECK(withMemcpy.check(makeRoute(box(0, 0, 4, 2), 20, W, R)).empty());

  RouteChecker without = makeChecker(11, 4, 4, 1);
  CHECK(without.check(makeRoute(box(1, 2, 1, 1), 21, W, R)).empty());
}

TEST_CASE("switch settings without switch positions", "[route-checker]") {
  RouteChecker checker = makeChecker(8, 8);
  ColorRoute route = makeRoute(box(2, 2, 2, 1), 1, W, R);
  route.setsCurrentPosition = true;
  std::vector<RouteProblem> problems = checker.check(route);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].kind == RouteProblemKind::SwitchWithoutPositions);
  CHECK(problems[0].message ==
        "PE (2, 2) color 1 sets current_switch_pos but has no switch "
        "positions (and 1 other PE of this range)");

  route.setsCurrentPosition = false;
  route.setsPopMode = true;
  CHECK(messages(checker.check(route)) ==
        std::vector<std::string>{"PE (2, 2) color 1 sets pop_mode but has no "
                                 "switch positions (and 1 other PE of this "
                                 "range)"});

  route.setsCurrentPosition = true;
  route.setsRingMode = true;
  CHECK(messages(checker.check(route)) ==
        std::vector<std::string>{"PE (2, 2) color 1 sets current_switch_pos, "
                                 "ring_mode and pop_mode but has no switch "
                                 "positions (and 1 other PE of this range)"});

  route.positions = {{false, RoutePort::East}};
  CHECK(checker.check(route).empty());
}

TEST_CASE("one route reports each kind once, in kind order",
          "[route-checker]") {
  RouteChecker checker = makeChecker(11, 4, 4, 1, /*memcpy=*/true);
  // Column 6 is the fabric's east edge.
  ColorRoute route = makeRoute(box(0, 0, 7, 2), 22, W | E, R | N);
  route.setsPopMode = true;
  CHECK(messages(checker.check(route)) ==
        std::vector<std::string>{
            "PE (0, 0) color 22 is reserved by the memcpy infrastructure "
            "(--memcpy) (and 13 other PEs of this range)",
            "PE (0, 0) color 22 is received from west and east at once (and "
            "13 other PEs of this range)",
            "PE (6, 0) color 22 is received from east, off the fabric edge "
            "(and 1 other PE of this range)",
            "PE (0, 0) color 22 sets pop_mode but has no switch positions (and "
            "13 other PEs of this range)"});
}
