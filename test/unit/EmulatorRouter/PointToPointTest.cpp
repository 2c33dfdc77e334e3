//===- PointToPointTest.cpp - latency and throughput along a route
//---------===//

#include "TestFabric.h"

#include <catch2/catch.hpp>

using namespace routertest;

namespace {

/// Color 3 from (0, 0) east along row 0 to (4, 0)'s CE.
Fabric row5() {
  Fabric f(5, 1);
  f.route(0, 0, 3, routes(R, E));
  for (uint16_t x = 1; x < 4; ++x)
    f.route(x, 0, 3, routes(W, E));
  f.route(4, 0, 3, routes(W, R));
  return f;
}

} // namespace

TEST_CASE("a wavelet crosses four links in five cycles, one per router") {
  Harness h(row5());
  CHECK(h.net.getCycle() == 0);
  REQUIRE(h.net.inject(0, 0, data(3, 0xCAFE)));
  std::vector<unsigned> seen;
  for (unsigned cycle = 1; cycle <= 6; ++cycle) {
    h.net.step();
    seen.push_back(h.net.getDeliveredCount(4, 0, 3));
  }
  CHECK(seen == std::vector<unsigned>{0, 0, 0, 0, 1, 1});
  CHECK(h.net.getCycle() == 6);
  CHECK(h.drain(4, 0, 3) == std::vector<Wavelet>{got(3, 0xCAFE, 1)});

  const NetworkCounters &c = h.net.getCounters();
  CHECK(c.cycles == 6);
  CHECK(c.injected == 1);
  CHECK(c.hops == 5); // four links and the ramp
  CHECK(c.delivered == 1);
  CHECK(c.polled == 1);
  CHECK(c.withheld == 0);
  // In flight during cycles 0..4, moving in each: it never waited.
  CHECK(c.waitCycles == 0);
  for (unsigned x = 0; x < 4; ++x)
    CHECK(h.net.getLinkBusyCycles(x, 0, pe::Port::East) == 1);
  CHECK(h.net.getLinkBusyCycles(4, 0, pe::Port::Ramp) == 1);
  CHECK(h.net.getLinkBusyCycles(4, 0, pe::Port::East) == 0);
  CHECK(h.net.getLinkBusyCycles(1, 0, pe::Port::West) == 0);
}

TEST_CASE("a stream moves one wavelet per cycle with buffers of two") {
  Harness h(row5());
  CHECK(h.net.inject(0, 0, data(3, 1)));
  CHECK(h.net.inject(0, 0, data(3, 2)));
  CHECK(h.net.getInjectSpace(0, 0, 3) == 0);
  CHECK_FALSE(h.net.inject(0, 0, data(3, 3))); // full: nothing numbered
  h.net.step();
  CHECK(h.net.getInjectSpace(0, 0, 3) == 1);
  CHECK(h.net.inject(0, 0, data(3, 3)));
  std::vector<std::pair<uint64_t, uint32_t>> arrivals; // (cycle, payload)
  while (h.net.getCycle() < 10) {
    h.net.step();
    for (const Wavelet &w : h.drain(4, 0, 3))
      arrivals.push_back({h.net.getCycle(), w.payload});
  }
  CHECK(arrivals ==
        std::vector<std::pair<uint64_t, uint32_t>>{{5, 1}, {6, 2}, {7, 3}});
  CHECK(h.net.getCounters().injected == 3);
  // Queued behind a head: wavelet 2 in cycle 0 and wavelet 3 in cycle 1.
  CHECK(h.net.getCounters().waitCycles == 2);
  CHECK(h.net.getLinkBusyCycles(2, 0, pe::Port::East) == 3);
}

TEST_CASE("a full inject buffer refuses, by coordinates or by lane") {
  Harness h(row5());
  // No router or lane yet: inject would make them and take the wavelet.
  CHECK_FALSE(h.net.isInjectBufferFull(0, 0, 3));
  CHECK_FALSE(h.net.findDeliveryQueue(0, 0, 3));
  REQUIRE(h.net.inject(0, 0, data(3, 1)));
  std::optional<uint32_t> lane = h.net.findDeliveryQueue(0, 0, 3);
  REQUIRE(lane);
  CHECK_FALSE(h.net.isInjectBufferFull(0, 0, 3));
  CHECK_FALSE(h.net.isInjectBufferFullAt(*lane));
  REQUIRE(h.net.injectAt(*lane, data(3, 2)));
  CHECK(h.net.isInjectBufferFull(0, 0, 3));
  CHECK(h.net.isInjectBufferFullAt(*lane));
  CHECK_FALSE(h.net.injectAt(*lane, data(3, 3))); // full: nothing numbered
  // A lane number given for another color, or never given, takes nothing.
  CHECK_FALSE(h.net.injectAt(*lane, data(4, 3)));
  CHECK_FALSE(h.net.injectAt(1000, data(3, 3)));
  CHECK_FALSE(h.net.isInjectBufferFullAt(1000));
  // Bad calls are inject's to report: the query answers no and records
  // nothing.
  CHECK_FALSE(h.net.isInjectBufferFull(9, 0, 3));
  CHECK_FALSE(h.net.isInjectBufferFull(0, 0, 99));
  CHECK(h.net.getErrors().empty());
  h.net.step();
  CHECK_FALSE(h.net.isInjectBufferFullAt(*lane));
  REQUIRE(h.net.injectAt(*lane, data(3, 3)));
  std::vector<Wavelet> arrived;
  for (unsigned cycle = 0; cycle < 8; ++cycle) {
    h.net.step();
    for (const Wavelet &w : h.drain(4, 0, 3))
      arrived.push_back(w);
  }
  CHECK(arrived ==
        std::vector<Wavelet>{got(3, 1, 1), got(3, 2, 2), got(3, 3, 3)});
  CHECK(h.net.getCounters().injected == 3);
}

TEST_CASE("a route turns south and multicasts along the way") {
  // (0,0) -> (1,0) -> (1,1) -> (1,2); (1,1) also keeps a copy.
  Fabric f(2, 3);
  f.route(0, 0, 7, routes(R, E));
  f.route(1, 0, 7, routes(W, S));
  f.route(1, 1, 7, routes(N, S | R));
  f.route(1, 2, 7, routes(N, R));
  Harness h(f);
  REQUIRE(h.net.inject(0, 0, data(7, 42)));
  h.run(3);
  CHECK(h.net.getDeliveredCount(1, 1, 7) == 1);
  CHECK(h.net.getDeliveredCount(1, 2, 7) == 0);
  h.net.step();
  CHECK(h.drain(1, 2, 7) == std::vector<Wavelet>{got(7, 42, 1)});
  CHECK(h.drain(1, 1, 7) == std::vector<Wavelet>{got(7, 42, 1)});
  CHECK(h.net.getCounters().hops == 5); // E, S, S and two ramps
  CHECK(h.net.getLastStepDeliveries() ==
        std::vector<DeliveryNote>{{{1, 2}, 7}});
}

TEST_CASE("a CE may send to itself") {
  Fabric f(1, 1);
  f.route(0, 0, 0, routes(R, R));
  Harness h(f);
  REQUIRE(h.net.inject(0, 0, data(0, 5)));
  CHECK(h.net.peekDelivered(0, 0, 0) == std::nullopt);
  h.net.step();
  // Peeking leaves the wavelet for the poll.
  CHECK(h.net.peekDelivered(0, 0, 0) == got(0, 5, 1));
  CHECK(h.net.getDeliveredCount(0, 0, 0) == 1);
  CHECK(h.drain(0, 0, 0) == std::vector<Wavelet>{got(0, 5, 1)});
  CHECK(h.net.isIdle());
}

TEST_CASE("a delivery queue polled by its number") {
  Harness h(row5());
  // Row 0's routers exist once a wavelet has passed; (4, 0) has no lane
  // for color 5 and so no queue.
  REQUIRE(h.net.inject(0, 0, data(3, 0xBEEF)));
  REQUIRE(h.net.inject(0, 0, data(3, 0xF00D)));
  h.run(7);
  std::optional<uint32_t> queue = h.net.findDeliveryQueue(4, 0, 3);
  REQUIRE(queue);
  CHECK_FALSE(h.net.findDeliveryQueue(4, 0, 5));
  CHECK_FALSE(h.net.findDeliveryQueue(9, 0, 3));
  CHECK(h.net.peekDeliveryQueue(*queue) == got(3, 0xBEEF, 1));
  CHECK(h.net.pollDeliveryQueue(*queue) == got(3, 0xBEEF, 1));
  CHECK(h.net.getWaveletsAwaitingCE() == 1);
  // Dropping a head already peeked says whether it was the last.
  CHECK(h.net.peekDeliveryQueue(*queue) == got(3, 0xF00D, 2));
  bool nowEmpty = false;
  CHECK(h.net.dropDeliveryHead(*queue, nowEmpty));
  CHECK(nowEmpty);
  CHECK_FALSE(h.net.dropDeliveryHead(*queue, nowEmpty));
  CHECK_FALSE(h.net.pollDeliveryQueue(*queue));
  CHECK(h.net.getCounters().polled == 2);
  CHECK(h.net.getWaveletsAwaitingCE() == 0);
  // A number the network never gave is an empty queue.
  CHECK_FALSE(h.net.peekDeliveryQueue(1u << 30));
  CHECK_FALSE(h.net.pollDeliveryQueue(1u << 30));
  CHECK_FALSE(h.net.dropDeliveryHead(1u << 30, nowEmpty));
}
