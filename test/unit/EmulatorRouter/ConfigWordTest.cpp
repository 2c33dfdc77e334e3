//===- ConfigWordTest.cpp - the color and switch config words
//--------------===//

#include "TestFabric.h"

#include <catch2/catch.hpp>

using namespace routertest;

TEST_CASE("config words encode the fabric file's router config") {
  pe::RouterConfig config = routes(W | R, E);
  config.positions[0] = rxPos(pe::Port::North);
  config.positions[1] = txPos(pe::Port::South);
  config.currentPosition = 1;
  config.ringMode = true;
  config.popMode = pe::PopMode::PopOnAdvance;
  config.colorSwapX = true;
  Fabric f(2, 2);
  f.route(1, 1, 9, config);
  Harness h(f);
  // tx E, rx W and RAMP, swap E/W, pop on advance.
  CHECK(h.net.getColorConfigWord(1, 1, 9) ==
        uint16_t(E | (W | R) << 5 | 1u << 11 | 2u << 12));
  // pos1 = north | rx, pos2 = south, pos3 unset (5), ring, position 1.
  CHECK(h.net.getSwitchConfigWord(1, 1, 9) ==
        uint16_t(0xB | 0x2 << 4 | 0x5 << 8 | 1u << 12 | 1u << 13));
  LaneState state = *h.net.getLaneState(1, 1, 9);
  CHECK(state.configured);
  CHECK(state.baseRx == (W | R));
  CHECK(state.rx == N); // position 1 receives from the north only
  CHECK(state.tx == E);
  CHECK(state.positions == config.positions);
  CHECK(state.popMode == pe::PopMode::PopOnAdvance);
  CHECK(state.ringMode);
  CHECK(state.deliveryQueueDepth == 2);
  // Unconfigured colors and untouched PEs read 0.
  CHECK(h.net.getColorConfigWord(0, 0, 9) == uint16_t(0));
  CHECK(h.net.getSwitchConfigWord(1, 1, 8) == uint16_t(0));
  CHECK_FALSE(h.net.getLaneState(0, 0, 9)->configured);
  // Outside the rectangle or the colors: none.
  CHECK(h.net.getColorConfigWord(2, 0, 9) == std::nullopt);
  CHECK(h.net.getSwitchConfigWord(0, 0, 24) == std::nullopt);
  CHECK(h.net.getLaneState(0, 2, 0) == std::nullopt);
}

TEST_CASE("writing the color config word reroutes the color") {
  Fabric f(2, 1);
  f.route(0, 0, 1, routes(R, E));
  Harness h(f);
  REQUIRE(h.net.inject(0, 0, data(1, 1)));
  h.net.step();
  // (1,0) does not route color 1 yet: the wavelet waits there.
  CHECK(h.net.getErrors().size() == 1);
  REQUIRE(h.net.setColorConfigWord(1, 0, 1, W << 5 | R));
  CHECK(h.net.getColorConfigWord(1, 0, 1) == uint16_t(W << 5 | R));
  h.net.step();
  CHECK(h.drain(1, 0, 1) == std::vector<Wavelet>{got(1, 1, 1)});
  // The point-to-point bit and pop mode 3 read back as written.
  REQUIRE(h.net.setColorConfigWord(1, 0, 1, 0xB000 | W << 5 | R));
  CHECK(h.net.getColorConfigWord(1, 0, 1) == uint16_t(0xB000 | W << 5 | R));
  CHECK(h.net.getLaneState(1, 0, 1)->popMode == pe::PopMode::NoPop);
}

TEST_CASE("writing the switch config word moves and redefines positions") {
  Fabric f(2, 2);
  f.route(0, 0, 1, routes(R, E));
  f.route(1, 0, 1, routes(W, R));
  f.route(0, 1, 1, routes(N, R));
  Harness h(f);
  // Position 1: tx south, positions 2 and 3 unset; current position 1.
  REQUIRE(h.net.setSwitchConfigWord(0, 0, 1, 0x552 | 1u << 13));
  CHECK(h.net.getLaneState(0, 0, 1)->tx == S);
  REQUIRE(h.net.inject(0, 0, data(1, 1)));
  h.run(2);
  CHECK(h.drain(0, 1, 1).size() == 1);
  // Direction 7 is no position: position 1 now routes as position 0. The
  // word reads back as written.
  REQUIRE(h.net.setSwitchConfigWord(0, 0, 1, 0x55F | 1u << 13));
  CHECK(h.net.getSwitchConfigWord(0, 0, 1) == uint16_t(0x55F | 1u << 13));
  CHECK(h.net.getLaneState(0, 0, 1)->tx == E);
  CHECK(h.net.getLaneState(0, 0, 1)->positions[0] == std::nullopt);
  REQUIRE(h.net.inject(0, 0, data(1, 2)));
  h.run(2);
  CHECK(h.drain(1, 0, 1).size() == 1);
  // Advancing past the last set position (none) without ring mode stays.
  REQUIRE(h.net.advanceSwitch(0, 0, 1));
  CHECK(h.net.getLaneState(0, 0, 1)->position == 1);
}

TEST_CASE("a delivery queue can take the depth of its input queue") {
  Fabric f(1, 1);
  f.route(0, 0, 0, routes(R, R));
  Harness h(f, NetworkOptions{2, 8, 2});
  REQUIRE(h.net.inject(0, 0, data(0, 1)));
  REQUIRE(h.net.inject(0, 0, data(0, 2)));
  h.run(2);
  // Grown while holding two: they stay, in order, and four more fit.
  REQUIRE(h.net.setDeliveryQueueDepth(0, 0, 0, 6));
  CHECK(h.net.getLaneState(0, 0, 0)->deliveryQueueDepth == 6);
  for (uint32_t i = 3; i <= 7; ++i)
    REQUIRE(h.net.inject(0, 0, data(0, i)));
  h.run(6);
  CHECK(h.net.getDeliveredCount(0, 0, 0) == 6);
  CHECK(h.net.getWaveletsInFlight() == 1);
  CHECK(payloads(h.drain(0, 0, 0)) == std::vector<uint32_t>{1, 2, 3, 4, 5, 6});
  h.net.step();
  CHECK(payloads(h.drain(0, 0, 0)) == std::vector<uint32_t>{7});
  // Set before first use: no wavelet moves.
  REQUIRE(h.net.setDeliveryQueueDepth(0, 0, 5, 3));
  CHECK(h.net.getLaneState(0, 0, 5)->deliveryQueueDepth == 3);
}
