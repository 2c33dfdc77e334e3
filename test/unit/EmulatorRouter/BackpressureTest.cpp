//===- BackpressureTest.cpp - full buffers stall, never drop
//---------------===//

#include "TestFabric.h"

#include <catch2/catch.hpp>

using namespace routertest;

namespace {

/// Color 1 from (0, 0) to (1, 0), which keeps a copy and passes it east to
/// (2, 0).
Fabric multicastRow() {
  Fabric f(3, 1);
  f.route(0, 0, 1, routes(R, E));
  f.route(1, 0, 1, routes(W, R | E));
  f.route(2, 0, 1, routes(W, R));
  return f;
}

} // namespace

TEST_CASE("a multicast waits until the ramp and east both accept") {
  Harness h(multicastRow());
  REQUIRE(h.net.setDeliveryQueueDepth(1, 0, 1, 1));
  REQUIRE(h.net.inject(0, 0, data(1, 10)));
  REQUIRE(h.net.inject(0, 0, data(1, 20)));
  h.net.step();
  REQUIRE(h.net.inject(0, 0, data(1, 30)));
  h.run(3);
  // (1, 0)'s CE has not taken wavelet 1, so wavelet 2 stays where it is:
  // not even (2, 0), which has room, gets its copy.
  CHECK(h.net.getLastStepMoves() == 0);
  CHECK(h.net.getDeliveredCount(2, 0, 1) == 1);
  CHECK(h.net.listBuffered() ==
        std::vector<BufferedWavelet>{
            {{1, 0}, 1, false, pe::Port::West, 0, got(1, 20, 2), 0},
            {{1, 0}, 1, false, pe::Port::West, 1, got(1, 30, 3), 0},
            {{1, 0}, 1, true, pe::Port::Ramp, 0, got(1, 10, 1), 0},
            {{2, 0}, 1, true, pe::Port::Ramp, 0, got(1, 10, 1), 0},
        });
  CHECK(h.net.getWaveletsInFlight() == 2);
  CHECK(h.net.getWaveletsAwaitingCE() == 2);

  CHECK(h.net.pollDelivered(1, 0, 1) == got(1, 10, 1));
  h.net.step();
  CHECK(h.net.getLastStepMoves() == 1);
  CHECK(h.net.getDeliveredCount(1, 0, 1) == 1);

  std::vector<Wavelet> middle{got(1, 10, 1)}, last;
  for (unsigned i = 0; i < 10; ++i) {
    for (const Wavelet &w : h.drain(1, 0, 1))
      middle.push_back(w);
    for (const Wavelet &w : h.drain(2, 0, 1))
      last.push_back(w);
    h.net.step();
  }
  std::vector<Wavelet> all{got(1, 10, 1), got(1, 20, 2), got(1, 30, 3)};
  CHECK(middle == all);
  CHECK(last == all);
  CHECK(h.net.isIdle());
  CHECK(h.net.getCounters().injected == 3);
  CHECK(h.net.getCounters().delivered == 6);
  CHECK(h.net.getCounters().polled == 6);
}

TEST_CASE("a stalled color fills every buffer back to the CE") {
  Fabric f(3, 1);
  for (uint8_t color : {1, 2}) {
    f.route(0, 0, color, routes(R, E));
    f.route(1, 0, color, routes(W, E));
    f.route(2, 0, color, routes(W, R));
  }
  Harness h(f);
  unsigned accepted = 0;
  for (unsigned cycle = 0; cycle < 12; ++cycle) {
    while (h.net.inject(0, 0, data(1, accepted)))
      ++accepted;
    h.net.step();
  }
  // Two in each of: (2,0)'s delivery queue and west buffer, (1,0)'s west
  // buffer and (0,0)'s inject buffer.
  CHECK(accepted == 8);
  CHECK(h.net.getWaveletsInFlight() == 6);
  CHECK(h.net.getWaveletsAwaitingCE() == 2);
  CHECK(h.net.getLastStepMoves() == 0);
  CHECK_FALSE(h.net.isIdle());
  CHECK(h.net.getLinkBusyCycles(1, 0, pe::Port::East) == 4);

  // Color 2 shares the links and is not held up.
  REQUIRE(h.net.inject(0, 0, data(2, 99)));
  h.run(3);
  CHECK(h.drain(2, 0, 2) == std::vector<Wavelet>{got(2, 99, 9)});

  // Draining the CE lets the stream finish, in order.
  std::vector<uint32_t> seen;
  for (unsigned cycle = 0; cycle < 12; ++cycle) {
    for (const Wavelet &w : h.drain(2, 0, 1))
      seen.push_back(w.payload);
    h.net.step();
  }
  CHECK(seen == std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7});
}
