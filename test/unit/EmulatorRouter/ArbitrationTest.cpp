//===- ArbitrationTest.cpp - who gets a shared link
//------------------------===//

#include "TestFabric.h"

#include <catch2/catch.hpp>

using namespace routertest;

TEST_CASE("two colors sharing a link alternate, lower color first") {
  Fabric f(2, 1);
  for (uint8_t color : {3, 5}) {
    f.route(0, 0, color, routes(R, E));
    f.route(1, 0, color, routes(W, R));
  }
  Harness h(f);
  // Injected color 5 first: arrival order at the router does not matter.
  REQUIRE(h.net.inject(0, 0, data(5, 0xB1)));
  REQUIRE(h.net.inject(0, 0, data(5, 0xB2)));
  REQUIRE(h.net.inject(0, 0, data(3, 0xA1)));
  REQUIRE(h.net.inject(0, 0, data(3, 0xA2)));
  std::vector<std::pair<uint64_t, uint32_t>> arrivals; // (cycle, payload)
  for (unsigned i = 0; i < 6; ++i) {
    h.net.step();
    for (uint8_t color : {3, 5})
      for (const Wavelet &w : h.drain(1, 0, color))
        arrivals.push_back({h.net.getCycle(), w.payload});
  }
  CHECK(arrivals == std::vector<std::pair<uint64_t, uint32_t>>{
                        {2, 0xA1}, {3, 0xB1}, {4, 0xA2}, {5, 0xB2}});
  CHECK(h.net.getLinkBusyCycles(0, 0, pe::Port::East) == 4);
  CHECK(h.net.getLinkBusyCycles(1, 0, pe::Port::Ramp) == 4);
  // Wavelets left behind: three in cycle 0, two in cycle 1, one in cycle 2.
  CHECK(h.net.getCounters().waitCycles == 3 + 2 + 1);
}

TEST_CASE("a multicast gets its links in turn with single-link colors") {
  // At (0,0): color 0 goes east, color 1 east and to the CE, color 2 to the
  // CE. Color 1 needs both links the others take.
  Fabric f(2, 1);
  f.route(0, 0, 0, routes(R, E));
  f.route(0, 0, 1, routes(R, E | R));
  f.route(0, 0, 2, routes(R, R));
  f.route(1, 0, 0, routes(W, R));
  f.route(1, 0, 1, routes(W, R));
  Harness h(f, NetworkOptions{2, 2, 8});
  std::vector<std::vector<uint8_t>> toCE; // colors (0,0)'s CE got per cycle
  for (unsigned i = 0; i < 6; ++i) {
    for (uint8_t color : {0, 1, 2})
      while (h.net.inject(0, 0, data(color, color))) {
      }
    h.net.step();
    std::vector<uint8_t> colors;
    for (uint8_t color : {1, 2})
      if (h.net.pollDelivered(0, 0, color))
        colors.push_back(color);
    toCE.push_back(colors);
    h.drain(1, 0, 0);
    h.drain(1, 0, 1);
  }
  // Cycle 0: colors 0 and 2 rank first on their links; cycle 1: color 1
  // ranks first on both; and so on.
  CHECK(toCE ==
        std::vector<std::vector<uint8_t>>{{2}, {1}, {2}, {1}, {2}, {1}});
  CHECK(h.net.getLinkBusyCycles(0, 0, pe::Port::East) == 6);
  CHECK(h.net.getLinkBusyCycles(0, 0, pe::Port::Ramp) == 6);
}

TEST_CASE("a color receiving on two ports takes them in turn") {
  Fabric f(2, 1);
  f.route(0, 0, 1, routes(R, E));
  f.route(1, 0, 1, routes(W | R, R));
  Harness h(f, NetworkOptions{2, 2, 8});
  REQUIRE(h.net.inject(0, 0, data(1, 0xA1)));
  REQUIRE(h.net.inject(0, 0, data(1, 0xA2)));
  REQUIRE(h.net.inject(1, 0, data(1, 0xB1)));
  REQUIRE(h.net.inject(1, 0, data(1, 0xB2)));
  h.run(5);
  // Cycle 0 only the ramp is ready; then west and ramp alternate, starting
  // after the port served last.
  CHECK(payloads(h.drain(1, 0, 1)) ==
        std::vector<uint32_t>{0xB1, 0xA1, 0xB2, 0xA2});
  CHECK(h.net.getCounters().rxConflicts == 2);
}

TEST_CASE("three colors delivering take the ramp in turn beside a fourth "
          "going east") {
  // At (0,0) colors 0, 1 and 2 loop back to the CE (one link each, the
  // same one) and color 3 goes east: four requests in one cycle.
  Fabric f(2, 1);
  for (uint8_t color : {0, 1, 2})
    f.route(0, 0, color, routes(R, R));
  f.route(0, 0, 3, routes(R, E));
  f.route(1, 0, 3, routes(W, R));
  Harness h(f, NetworkOptions{2, 2, 8});
  std::vector<uint8_t> toCE; // the color (0,0)'s CE got, per cycle
  unsigned east = 0;
  for (unsigned i = 0; i < 6; ++i) {
    for (uint8_t color : {0, 1, 2, 3})
      while (h.net.inject(0, 0, data(color, color))) {
      }
    h.net.step();
    for (uint8_t color : {0, 1, 2})
      if (h.net.pollDelivered(0, 0, color))
        toCE.push_back(color);
    east += unsigned(h.drain(1, 0, 3).size());
  }
  // The ramp serves the colors after the one it served last; color 3's
  // link is its own, so it moves every cycle (from cycle 1 on at (1,0)).
  CHECK(toCE == std::vector<uint8_t>{0, 1, 2, 0, 1, 2});
  CHECK(east == 5);
  CHECK(h.net.getLinkBusyCycles(0, 0, pe::Port::Ramp) == 6);
  CHECK(h.net.getLinkBusyCycles(0, 0, pe::Port::East) == 6);
}
