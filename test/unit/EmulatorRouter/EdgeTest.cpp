//===- EdgeTest.cpp - host streams through the rectangle's edge -----------===//

#include "TestFabric.h"

#include <catch2/catch.hpp>

using namespace routertest;

namespace {

std::vector<std::string> messages(const Network &net) {
  std::vector<std::string> out;
  for (const RouteError &error : net.getErrors())
    out.push_back(error.message);
  return out;
}

/// Every wavelet waiting in an exit's queue, removed.
std::vector<Wavelet> drainExit(Network &net, unsigned x, unsigned y,
                               pe::Port port, unsigned color) {
  std::vector<Wavelet> out;
  while (std::optional<Wavelet> w = net.pollEdgeExit(x, y, port, color))
    out.push_back(*w);
  return out;
}

} // namespace

TEST_CASE("a stream entering at the west edge crosses the row to a CE") {
  Fabric f(3, 1);
  f.route(0, 0, 3, routes(W, E));
  f.route(1, 0, 3, routes(W, E));
  f.route(2, 0, 3, routes(W, R));
  Harness h(f);
  CHECK(h.net.getEdgeInjectSpace(0, 0, pe::Port::West, 3) == 2);
  REQUIRE(h.net.injectAtEdge(0, 0, pe::Port::West, data(3, 10)));
  REQUIRE(h.net.injectAtEdge(0, 0, pe::Port::West, data(3, 11)));
  // The port's input buffer (linkBufferDepth) is full now.
  CHECK(h.net.getEdgeInjectSpace(0, 0, pe::Port::West, 3) == 0);
  CHECK_FALSE(h.net.injectAtEdge(0, 0, pe::Port::West, data(3, 12)));
  CHECK(h.net.listBuffered() ==
        std::vector<BufferedWavelet>{
            {{0, 0}, 3, false, pe::Port::West, 0, got(3, 10, 1), 0},
            {{0, 0}, 3, false, pe::Port::West, 1, got(3, 11, 2), 0}});
  // One router per cycle, as from a neighbour: two links, then the ramp.
  h.run(3);
  CHECK(h.drain(2, 0, 3) == std::vector<Wavelet>{got(3, 10, 1)});
  std::vector<Wavelet> seen{got(3, 10, 1)};
  for (uint32_t payload = 12; payload < 16;) {
    if (h.net.injectAtEdge(0, 0, pe::Port::West, data(3, payload)))
      ++payload;
    h.net.step();
    for (const Wavelet &w : h.drain(2, 0, 3))
      seen.push_back(w);
  }
  h.run(4);
  for (const Wavelet &w : h.drain(2, 0, 3))
    seen.push_back(w);
  CHECK(payloads(seen) == std::vector<uint32_t>{10, 11, 12, 13, 14, 15});
  CHECK(seen.back().id == 6);
  CHECK(h.net.isIdle());
  CHECK(h.net.getErrors().empty());
  // Each crossed the edge link, two links and the ramp.
  const NetworkCounters &c = h.net.getCounters();
  CHECK(c.injected == 6);
  CHECK(c.edgeIn == 6);
  CHECK(c.edgeOut == 0);
  CHECK(c.hops == 6 * 4);
  CHECK(c.delivered == 6);
}

TEST_CASE("a PE sends east off the fabric through a declared exit") {
  Fabric f(2, 1);
  f.route(0, 0, 4, routes(R, E));
  f.route(1, 0, 4, routes(W, E | R)); // a copy also to its own CE
  Harness h(f, NetworkOptions{2, 2, 8, 8});
  REQUIRE(h.net.declareEdgeExit(1, 0, pe::Port::East, 4));
  REQUIRE(h.net.declareEdgeExit(1, 0, pe::Port::East, 4)); // harmless
  std::vector<Wavelet> left;
  uint32_t next = 0;
  for (unsigned cycle = 0; cycle < 12; ++cycle) {
    if (next < 5 && h.net.inject(0, 0, data(4, 100 + next)))
      ++next;
    h.net.step();
    for (const Wavelet &w : drainExit(h.net, 1, 0, pe::Port::East, 4))
      left.push_back(w);
  }
  CHECK(left == std::vector<Wavelet>{got(4, 100, 1), got(4, 101, 2),
                                     got(4, 102, 3), got(4, 103, 4),
                                     got(4, 104, 5)});
  CHECK(payloads(h.drain(1, 0, 4)) ==
        std::vector<uint32_t>{100, 101, 102, 103, 104});
  CHECK(h.net.getErrors().empty());
  CHECK(h.net.getLinkBusyCycles(1, 0, pe::Port::East) == 5);
  const NetworkCounters &c = h.net.getCounters();
  CHECK(c.edgeOut == 5);
  CHECK(c.edgeIn == 0);
  // East link, the exit and (1, 0)'s ramp.
  CHECK(c.hops == 5 * 3);
}

TEST_CASE("a stream enters at the north edge and leaves at the south") {
  Fabric f(1, 2);
  f.route(0, 0, 7, routes(N, S));
  f.route(0, 1, 7, routes(N, S));
  Harness h(f);
  REQUIRE(h.net.declareEdgeExit(0, 1, pe::Port::South, 7));
  REQUIRE(h.net.injectAtEdge(0, 0, pe::Port::North, ctrl(7, 0x1234)));
  h.run(2);
  CHECK(h.net.getEdgeExitCount(0, 1, pe::Port::South, 7) == 1);
  CHECK(h.net.pollEdgeExit(0, 1, pe::Port::South, 7) ==
        got(7, 0x1234, 1, true));
  CHECK(h.net.pollEdgeExit(0, 1, pe::Port::South, 7) == std::nullopt);
  CHECK(h.net.getErrors().empty());
}

TEST_CASE("without a declared exit a route off the edge stays an error") {
  Fabric f(2, 1);
  f.route(0, 0, 4, routes(R, E));
  f.route(1, 0, 4, routes(W, E));
  f.route(1, 0, 5, routes(R, E));
  Harness h(f);
  // Declared for another color and another PE's port: neither applies.
  REQUIRE(h.net.declareEdgeExit(1, 0, pe::Port::East, 6));
  REQUIRE(h.net.declareEdgeExit(0, 0, pe::Port::West, 4));
  REQUIRE(h.net.inject(1, 0, data(5, 1)));
  h.run(3);
  CHECK(messages(h.net) ==
        std::vector<std::string>{"PE (1, 0) color 5: wavelet 1 is sent "
                                 "east, off the 2x1 rectangle"});
  CHECK(h.net.getErrors()[0].kind == RouteErrorKind::LeavesRectangle);
  CHECK(h.net.getWaveletsInFlight() == 1);
  CHECK(h.net.getEdgeExitCount(1, 0, pe::Port::East, 6) == 0);
  CHECK(h.net.getCounters().edgeOut == 0);
}

TEST_CASE("an exit the host does not drain holds the stream back") {
  Fabric f(2, 1);
  f.route(0, 0, 4, routes(R, E));
  f.route(1, 0, 4, routes(W, E));
  Harness h(f);
  REQUIRE(h.net.declareEdgeExit(1, 0, pe::Port::East, 4));
  uint32_t accepted = 0;
  for (unsigned cycle = 0; cycle < 12; ++cycle) {
    while (h.net.inject(0, 0, data(4, accepted)))
      ++accepted;
    h.net.step();
  }
  // Two in the exit (edgeExitDepth), two in (1, 0)'s west buffer, two in
  // (0, 0)'s inject buffer; nothing moves and nothing is dropped.
  CHECK(accepted == 6);
  CHECK(h.net.getEdgeExitCount(1, 0, pe::Port::East, 4) == 2);
  CHECK(h.net.getWaveletsInFlight() == 4);
  CHECK(h.net.getLastStepMoves() == 0);
  CHECK_FALSE(h.net.isIdle());
  CHECK(h.net.getErrors().empty());

  // Taking one makes room for one more; (1, 0)'s west buffer was full at
  // the start of the cycle, so (0, 0) waits one more.
  CHECK(h.net.pollEdgeExit(1, 0, pe::Port::East, 4) == got(4, 0, 1));
  h.net.step();
  CHECK(h.net.getLastStepMoves() == 1);
  CHECK(h.net.getEdgeExitCount(1, 0, pe::Port::East, 4) == 2);

  std::vector<uint32_t> seen{0};
  for (unsigned cycle = 0; cycle < 8; ++cycle) {
    for (const Wavelet &w : drainExit(h.net, 1, 0, pe::Port::East, 4))
      seen.push_back(w.payload);
    h.net.step();
  }
  CHECK(seen == std::vector<uint32_t>{0, 1, 2, 3, 4, 5});
  CHECK(h.net.isIdle());
}

TEST_CASE("a deeper exit takes more before it holds back") {
  Fabric f(1, 1);
  f.route(0, 0, 2, routes(R, W));
  Harness h(f, NetworkOptions{2, 2, 2, 5});
  REQUIRE(h.net.declareEdgeExit(0, 0, pe::Port::West, 2));
  for (unsigned cycle = 0; cycle < 10; ++cycle) {
    h.net.inject(0, 0, data(2, cycle));
    h.net.step();
  }
  CHECK(h.net.getEdgeExitCount(0, 0, pe::Port::West, 2) == 5);
  CHECK(h.net.getWaveletsInFlight() == 2);
}

TEST_CASE("host wavelets arriving where the color is not received are "
          "reported") {
  Fabric f(2, 1);
  f.route(0, 0, 3, routes(R, E)); // receives only from the ramp
  Harness h(f);
  REQUIRE(h.net.injectAtEdge(0, 0, pe::Port::West, data(3, 1)));
  REQUIRE(h.net.injectAtEdge(0, 0, pe::Port::West, data(6, 2)));
  h.run(2);
  CHECK(messages(h.net) ==
        std::vector<std::string>{
            "PE (0, 0) color 3: wavelet 1 arrived from the west, but no "
            "switch position of the color receives from the west",
            "PE (0, 0) does not route color 6, but wavelet 2 arrived from "
            "the west on it"});
  CHECK(h.net.getWaveletsInFlight() == 2);
}

TEST_CASE("edge calls on ports that do not face off the rectangle do "
          "nothing") {
  Fabric f(2, 2);
  f.route(0, 0, 1, routes(W, R));
  Harness h(f);
  CHECK_FALSE(h.net.injectAtEdge(1, 0, pe::Port::West, data(1, 1)));
  CHECK_FALSE(h.net.injectAtEdge(0, 0, pe::Port::South, data(1, 1)));
  CHECK_FALSE(h.net.injectAtEdge(0, 0, pe::Port::Ramp, data(1, 1)));
  CHECK_FALSE(h.net.injectAtEdge(0, 0, pe::Port(7), data(1, 1)));
  CHECK_FALSE(h.net.declareEdgeExit(0, 1, pe::Port::East, 1));
  CHECK_FALSE(h.net.declareEdgeExit(1, 1, pe::Port::North, 1));
  CHECK_FALSE(h.net.pollEdgeExit(0, 0, pe::Port::West, 1));
  CHECK(messages(h.net) ==
        std::vector<std::string>{
            "injectAtEdge: the west port of PE (1, 0) does not face off the "
            "2x2 rectangle",
            "injectAtEdge: the south port of PE (0, 0) does not face off the "
            "2x2 rectangle",
            "injectAtEdge: the ramp of PE (0, 0) leads to its CE, not off "
            "the rectangle",
            "injectAtEdge: port 7 of PE (0, 0) does not exist",
            "declareEdgeExit: the east port of PE (0, 1) does not face off "
            "the 2x2 rectangle",
            "declareEdgeExit: the north port of PE (1, 1) does not face off "
            "the 2x2 rectangle",
            "pollEdgeExit: PE (0, 0) has no exit declared for color 1 "
            "through its west port"});
  for (const RouteError &error : h.net.getErrors())
    CHECK(error.kind == RouteErrorKind::NotAnEdgePort);
  CHECK(h.net.getErrors()[0].port == pe::Port::West);
  CHECK(h.net.getErrors()[3].port == std::nullopt);
  CHECK(h.net.getCounters().injected == 0);
  CHECK(h.net.isIdle());
  // Queries answer nothing.
  CHECK(h.net.getEdgeInjectSpace(1, 0, pe::Port::West, 1) == 0);
  CHECK(h.net.getEdgeInjectSpace(0, 0, pe::Port::Ramp, 1) == 0);
  CHECK(h.net.getEdgeExitCount(0, 0, pe::Port::West, 1) == 0);
  CHECK(h.net.getEdgeExitCount(0, 0, pe::Port(9), 1) == 0);
}

TEST_CASE("edge calls naming a bad PE or color do nothing") {
  Fabric f(2, 1, target::Arch::WSE3);
  Harness h(f, NetworkOptions{2, 2, 2, 0});
  CHECK(h.net.getOptions().edgeExitDepth == 2);
  CHECK_FALSE(h.net.injectAtEdge(2, 0, pe::Port::East, data(1, 1)));
  CHECK_FALSE(h.net.injectAtEdge(0, 0, pe::Port::West, data(24, 1)));
  CHECK_FALSE(h.net.declareEdgeExit(0, 5, pe::Port::West, 1));
  CHECK_FALSE(h.net.declareEdgeExit(1, 0, pe::Port::East, 30));
  CHECK_FALSE(h.net.pollEdgeExit(9, 0, pe::Port::East, 1));
  CHECK(messages(h.net) ==
        std::vector<std::string>{
            "edge exit depth 0 is not between 1 and 64; using 2",
            "injectAtEdge: PE (2, 0) is outside the 2x1 rectangle",
            "injectAtEdge: color 24 is not routable on wse3 (colors 0 to 23)",
            "declareEdgeExit: PE (0, 5) is outside the 2x1 rectangle",
            "declareEdgeExit: color 30 is not routable on wse3 (colors 0 to "
            "23)",
            "pollEdgeExit: PE (9, 0) is outside the 2x1 rectangle"});
  CHECK(h.net.getErrors()[1].kind == RouteErrorKind::OutsideRectangle);
  CHECK(h.net.getErrors()[2].kind == RouteErrorKind::BadColor);
  CHECK(h.net.getEdgeInjectSpace(2, 0, pe::Port::East, 1) == 0);
  CHECK(h.net.getEdgeInjectSpace(0, 0, pe::Port::West, 24) == 0);
  CHECK(h.net.getEdgeExitCount(2, 0, pe::Port::East, 1) == 0);
}
