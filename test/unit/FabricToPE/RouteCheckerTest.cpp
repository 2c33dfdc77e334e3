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
/// (offsetX, offsetY), reaching the fabric's east and south edges.
RouteChecker makeChecker(int64_t width, int64_t height, int64_t offsetX = 0,
                         int64_t offsetY = 0, bool memcpy = false) {
  std::span<const unsigned> reserved;
  if (memcpy)
    reserved = memcpyColors;
  return RouteChecker(
      {width, height, offsetX, offsetY, width - offsetX, height - offsetY},
      reserved);
}

/// A checker for a rectangle of `width` x `height` inside memcpy's margins.
RouteChecker makeRectangleChecker(int64_t width, int64_t height) {
  return RouteChecker({width + 7, height + 2, 4, 1, width, height},
                      memcpyColors);
}

std::vector<std::string> messages(const std::vector<RouteProblem> &problems) {
  std::vector<std::string> texts;
  for (const RouteProblem &problem : problems)
    texts.push_back(problem.message);
  return texts;
}

} // namespace


TEST_CASE("a route inside the fabric with one rx port is fine",
          "[route-checker]") {
  RouteChecker checker = makeChecker(6, 4);
  // An eastward stream over the middle of the fabric, switching south.
  ColorRoute route = makeRoute(box(1, 1, 4, 2), 3, W, R | E);
  route.positions = {{false, RoutePort::South}, {true, RoutePort::North}};
  route.setsCurrentPosition = true;
  route.setsRingMode = true;
  CHECK(checker.check(route).empty());
  // No ports at all is fine too.
  CHECK(checker.check(makeRoute(box(0, 0, 6, 4), 4, 0, 0)).empty());
}

TEST_CASE("two neighbours streaming into one PE", "[route-checker]") {
  // Row 0 of the rectangle is not the fabric's edge.
  RouteChecker checker = makeChecker(10, 10, 1, 1);
  // (2, 0) sends east and (4, 0) west, into (3, 0).
  std::vector<ColorRoute> routes = {
      makeRoute(box(2, 0, 1, 1), 5, R, E),
      makeRoute(box(3, 0, 1, 1), 5, W | E, R),
      makeRoute(box(4, 0, 1, 1), 5, R, W),
  };
  std::vector<RouteProblem> problems = checker.checkAll(routes);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].kind == RouteProblemKind::ReceivedFromSeveral);
  CHECK(problems[0].route == 1);
  CHECK(problems[0].x == 3);
  CHECK(problems[0].y == 0);
  CHECK(problems[0].otherPEs == 0);
  CHECK(problems[0].message ==
        "PE (3, 0) color 5 is received from west and east at once");

  SECTION("one neighbour sending is a stream, not a conflict") {
    routes[2].tx = R;
    CHECK(checker.checkAll(routes).empty());
  }
  SECTION("a neighbour sending elsewhere does not count") {
    routes[2].tx = E | S | N;
    CHECK(checker.checkAll(routes).empty());
  }
  SECTION("another color does not count") {
    routes[2].color = 6;
    CHECK(checker.checkAll(routes).empty());
  }
  SECTION("a neighbour's switch position does not count") {
    routes[2].tx = R;
    routes[2].positions = {{false, RoutePort::West}};
    CHECK(checker.checkAll(routes).empty());
  }
  SECTION("the receiver's switch positions do not count") {
    routes[1].rx = W;
    routes[1].positions = {{true, RoutePort::East}};
    CHECK(checker.checkAll(routes).empty());
  }
  SECTION("the ramp never counts") {
    routes[1].rx = W | R;
    CHECK(checker.checkAll(routes).empty());
    routes[2].tx = R;
    routes[1].rx = W | E | R;
    CHECK(checker.checkAll(routes).empty());
  }
  SECTION("the message lists only the directions streams arrive from") {
    // (3, 1) sends north into (3, 0) too; (3, 0) also accepts south.
    routes[2].tx = R;
    routes[1].rx = W | E | S | N | R;
    routes.push_back(makeRoute(box(3, 1, 1, 1), 5, R, N | E));
    CHECK(messages(checker.checkAll(routes)) ==
          std::vector<std::string>{
              "PE (3, 0) color 5 is received from west and south at once"});
  }
}

TEST_CASE("streams converge from every pair of directions", "[route-checker]") {
  RouteChecker checker = makeChecker(5, 5);
  // Senders all around (2, 2): west, east, south and north of it.
  ColorRoute west = makeRoute(box(1, 2, 1, 1), 1, R, E);
  ColorRoute east = makeRoute(box(3, 2, 1, 1), 1, R, W);
  ColorRoute south = makeRoute(box(2, 3, 1, 1), 1, R, N);
  ColorRoute north = makeRoute(box(2, 1, 1, 1), 1, R, S);
  ColorRoute center = makeRoute(box(2, 2, 1, 1), 1, W | E | S | N, R);
  CHECK(messages(checker.checkAll(
            std::vector<ColorRoute>{west, east, south, north, center})) ==
        std::vector<std::string>{"PE (2, 2) color 1 is received from west, "
                                 "east, south and north at once"});
  CHECK(messages(
            checker.checkAll(std::vector<ColorRoute>{south, center, north})) ==
        std::vector<std::string>{
            "PE (2, 2) color 1 is received from south and north at once"});
  CHECK(messages(
            checker.checkAll(std::vector<ColorRoute>{center, east, north})) ==
        std::vector<std::string>{
            "PE (2, 2) color 1 is received from east and north at once"});
  CHECK(checker.checkAll(std::vector<ColorRoute>{center, north}).empty());
}

TEST_CASE("a route converging on itself counts its PEs", "[route-checker]") {
  // A bus both ways along a row: every PE but the two ends receives from
  // both neighbours; the ends' outer neighbours lie outside the rectangle.
  RouteChecker checker = makeRectangleChecker(6, 3);
  std::vector<RouteProblem> problems =
      checker.check(makeRoute(box(0, 1, 6, 1), 5, W | E, W | E | R));
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].x == 1);
  CHECK(problems[0].y == 1);
  CHECK(problems[0].otherPEs == 3);
  CHECK(problems[0].message == "PE (1, 1) color 5 is received from west and "
                               "east at once (and 3 other PEs of this range)");

  // Every second column: the neighbours of each PE configure nothing.
  CHECK(
      checker.check(makeRoute(box(0, 1, 6, 1, 2, 1), 5, W | E, W | E)).empty());
  // Two PEs: each hears only the other.
  CHECK(checker.check(makeRoute(box(2, 1, 2, 1), 5, W | E, W | E)).empty());
}

TEST_CASE("the first PE and the count by row, then column", "[route-checker]") {
  RouteChecker checker = makeRectangleChecker(10, 10);
  // Receivers on columns 1, 3 and 5 of rows 0..3, senders both ways on
  // columns 0, 2 and 4 of rows 1..3: row 0 hears no one and column 5 only
  // its west neighbour.
  std::vector<ColorRoute> routes = {
      makeRoute(box(1, 0, 5, 4, 2, 1), 2, W | E, R),
      makeRoute(box(0, 1, 5, 3, 2, 1), 2, R, W | E),
  };
  std::vector<RouteProblem> problems = checker.checkAll(routes);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].x == 1);
  CHECK(problems[0].y == 1);
  CHECK(problems[0].otherPEs == 5);
  CHECK(problems[0].message == "PE (1, 1) color 2 is received from west and "
                               "east at once (and 5 other PEs of this range)");
}

TEST_CASE("one PE of many has a singular suffix", "[route-checker]") {
  RouteChecker checker = makeChecker(10, 10);
  std::vector<ColorRoute> routes = {
      makeRoute(box(0, 3, 2, 1), 5, R, S),
      makeRoute(box(0, 4, 2, 1), 5, S | N, R),
      makeRoute(box(0, 5, 2, 1), 5, R, N),
  };
  CHECK(messages(checker.checkAll(routes)) ==
        std::vector<std::string>{"PE (0, 4) color 5 is received from south "
                                 "and north at once (and 1 other PE of this "
                                 "range)"});
}

TEST_CASE("the rectangle bounds the neighbours", "[route-checker]") {
  // The rectangle is 4x2 at (4, 1) of an 11x4 fabric; the PEs around it
  // are memcpy's, which configure none of its colors.
  RouteChecker checker = makeRectangleChecker(4, 2);
  CHECK(checker
            .checkAll(std::vector<ColorRoute>{
                makeRoute(box(0, 0, 1, 2), 3, W | E | S | N, R),
                makeRoute(box(1, 0, 1, 2), 3, R, W)})
            .empty());

  std::vector<ColorRoute> routes = {
      makeRoute(box(0, 0, 1, 1), 3, R, E),
      makeRoute(box(1, 0, 1, 1), 3, W | E, R),
      makeRoute(box(2, 0, 1, 1), 3, R, W),
  };
  CHECK(messages(checker.checkAll(routes)) ==
        std::vector<std::string>{
            "PE (1, 0) color 3 is received from west and east at once"});
  // Without a rectangle no PE sends.
  RouteChecker none({11, 4, 4, 1, 0, 0}, {});
  CHECK(none.checkAll(routes).empty());

  // A range reaching beyond the rectangle is checked inside it only.
  CHECK(messages(checker.check(makeRoute(box(0, 0, 6, 1), 3, W | E, W | E))) ==
        std::vector<std::string>{"PE (1, 0) color 3 is received from west and "
                                 "east at once (and 1 other PE of this "
                                 "range)"});
}

TEST_CASE("problems come by route, then kind", "[route-checker]") {
  RouteChecker checker = makeChecker(11, 4, 4, 1, /*memcpy=*/true);
  std::vector<ColorRoute> routes = {
      makeRoute(box(0, 0, 1, 1), 22, R, E),
      makeRoute(box(1, 0, 1, 1), 22, W | E, R),
      makeRoute(box(2, 0, 1, 1), 22, R, W),
      makeRoute(box(1, 1, 2, 1), 7, W | E, W | E),
  };
  routes[1].setsRingMode = true;
  std::vector<RouteProblem> problems = checker.checkAll(routes);
  std::vector<std::pair<size_t, RouteProblemKind>> order;
  for (const RouteProblem &problem : problems)
    order.emplace_back(problem.route, problem.kind);
  CHECK(order == std::vector<std::pair<size_t, RouteProblemKind>>{
                     {0, RouteProblemKind::ReservedColor},
                     {1, RouteProblemKind::ReservedColor},
                     {1, RouteProblemKind::ReceivedFromSeveral},
                     {1, RouteProblemKind::SwitchWithoutPositions},
                     {2, RouteProblemKind::ReservedColor},
                 });
}

TEST_CASE("a whole wafer is one error with a count", "[route-checker]") {
  RouteChecker checker = makeRectangleChecker(750, 994);
  CHECK(messages(checker.check(
            makeRoute(box(0, 0, 750, 994), 5, W | E, W | E | R))) ==
        std::vector<std::string>{"PE (1, 0) color 5 is received from west and "
                                 "east at once (and 743,511 other PEs of this "
                                 "range)"});

  // One route per PE: a checkerboard of senders east and west, and
  // receivers from both sides between them on every other row.
  std::vector<ColorRoute> routes;
  for (int64_t y = 0; y < 994; ++y)
    for (int64_t x = 0; x < 750; ++x) {
      if (y % 2)
        routes.push_back(makeRoute(box(x, y, 1, 1), 5, N, R));
      else if (x % 2)
        routes.push_back(makeRoute(box(x, y, 1, 1), 5, W | E, R | S));
      else
        routes.push_back(makeRoute(box(x, y, 1, 1), 5, R, W | E));
    }
  std::vector<RouteProblem> problems = checker.checkAll(routes);
  // Odd columns of even rows, but column 749 has no east neighbour:
  // 374 PEs in each of 497 rows.
  REQUIRE(problems.size() == 374 * 497);
  CHECK(problems.front().message ==
        "PE (1, 0) color 5 is received from west and east at once");
  CHECK(problems.back().message ==
        "PE (747, 992) color 5 is received from west and east at once");
}

TEST_CASE("a large area is scanned in tiles", "[route-checker]") {
  // 5000x4000 PEs exceed one grid, so rows come in bands; streams across a
  // band's border still meet, and every PE is counted once.
  RouteChecker checker = makeRectangleChecker(5000, 4000);
  CHECK(messages(
            checker.check(makeRoute(box(0, 0, 5000, 4000), 4, S | N, S | N))) ==
        std::vector<std::string>{"PE (0, 1) color 4 is received from south "
                                 "and north at once (and 19,989,999 other "
                                 "PEs of this range)"});
  CHECK(messages(
            checker.check(makeRoute(box(0, 0, 5000, 4000), 4, W | E, W | E))) ==
        std::vector<std::string>{"PE (1, 0) color 4 is received from west and "
                                 "east at once (and 19,991,999 other PEs of "
                                 "this range)"});
}

TEST_CASE("tiles one row high past four million columns", "[route-checker]") {
  RouteChecker checker = makeRectangleChecker(5000000, 3);
  // The receivers span more than one tile's 4,194,304 columns; those on
  // rows 1 and 2 straddle the first tile's east border.
  std::vector<ColorRoute> routes = {
      makeRoute(box(0, 0, 10, 1), 9, W | E, R),
      makeRoute(box(4194300, 1, 10, 2), 9, W | E, W | E),
  };
  std::vector<RouteProblem> problems = checker.checkAll(routes);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].message == "PE (4194301, 1) color 9 is received from west "
                               "and east at once (and 15 other PEs of this "
                               "range)");
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
  route.setsRingMode = true;
  CHECK(messages(checker.check(route)) ==
        std::vector<std::string>{"PE (2, 2) color 1 sets ring_mode but has no "
                                 "switch positions (and 1 other PE of this "
                                 "range)"});
  route.setsCurrentPosition = true;
  CHECK(messages(checker.check(route)) ==
        std::vector<std::string>{"PE (2, 2) color 1 sets current_switch_pos "
                                 "and ring_mode but has no switch positions "
                                 "(and 1 other PE of this range)"});

  route.positions = {{false, RoutePort::East}};
  CHECK(checker.check(route).empty());
}

TEST_CASE("one route reports each kind once, in kind order",
          "[route-checker]") {
  RouteChecker checker = makeChecker(11, 4, 4, 1, /*memcpy=*/true);
  // Column 6 is the fabric's east edge.
  ColorRoute route = makeRoute(box(0, 0, 7, 2), 22, W | E, R | N | E | W);
  route.setsRingMode = true;
  std::vector<RouteProblem> problems = checker.check(route);
  CHECK(messages(problems) ==
        std::vector<std::string>{
            "PE (0, 0) color 22 is reserved by the memcpy infrastructure "
            "(--memcpy) (and 13 other PEs of this range)",
            "PE (1, 0) color 22 is received from west and east at once (and "
            "9 other PEs of this range)",
            "PE (6, 0) color 22 is sent east, off the fabric edge (and 1 "
            "other PE of this range)",
            "PE (6, 0) color 22 is received from east, off the fabric edge "
            "(and 1 other PE of this range)",
            "PE (0, 0) color 22 sets ring_mode but has no switch positions "
            "(and 13 other PEs of this range)"});
}
