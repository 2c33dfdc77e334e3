//===- ParkingTest.cpp - waiting wavelets leave the worklist --------------===//
//
// A lane whose head wavelet waits for a full delivery queue, or for a full
// buffer of a lane that waits too, is parked (docs/Emulator.md "Parked
// lanes"): the step no longer visits it until something could let it go.
// Parking must not change what happens: each case pins the cycle a parked
// wavelet moves again after what woke it, and the counters a visit every
// cycle would have kept.
//
//===----------------------------------------------------------------------===//

#include "TestFabric.h"

#include <catch2/catch.hpp>

using namespace routertest;

namespace {

/// Color 1 from (0, 0)'s CE through (1, 0) to (2, 0)'s CE, whose delivery
/// queue holds one wavelet.
struct Row {
  Row() : h(fabric()) { REQUIRE(h.net.setDeliveryQueueDepth(2, 0, 1, 1)); }
  static Fabric fabric() {
    Fabric f(3, 1);
    f.route(0, 0, 1, routes(R, E));
    f.route(1, 0, 1, routes(W, E));
    f.route(2, 0, 1, routes(W, R));
    return f;
  }
  /// Injects payloads 1..n at (0, 0), as room allows, while stepping.
  void fill(unsigned cycles, unsigned n) {
    for (unsigned i = 0; i < cycles; ++i) {
      while (next <= n && h.net.inject(0, 0, data(1, next)))
        ++next;
      h.net.step();
    }
  }
  Harness h;
  uint32_t next = 1;
};

/// (1, 0) takes color 1 from the west and from its own CE into a delivery
/// queue of one; (0, 0) sends it east.
struct WestAndRamp {
  WestAndRamp() : h(fabric()) {
    REQUIRE(h.net.setDeliveryQueueDepth(1, 0, 1, 1));
  }
  static Fabric fabric() {
    Fabric f(2, 1);
    f.route(0, 0, 1, routes(R, E));
    f.route(1, 0, 1, routes(W | R, R));
    return f;
  }
  Harness h;
};

} // namespace

TEST_CASE("a stalled row moves again the cycle after its CE takes one") {
  Row row;
  row.fill(20, 7);
  // The delivery queue (1), both link buffers (2 + 2) and the inject
  // buffer (2) are full; nothing moved for many cycles.
  CHECK(row.h.net.getWaveletsInFlight() == 6);
  CHECK(row.h.net.getLastStepMoves() == 0);
  uint64_t waited = row.h.net.getCounters().waitCycles;

  // Each poll frees one slot, and the row moves one wavelet per router in
  // the next step, front first: a slot travels back one router a cycle.
  std::vector<std::pair<uint64_t, size_t>> moves; // (cycle, moves)
  std::vector<uint32_t> seen;
  for (unsigned i = 0; i < 4; ++i) {
    if (std::optional<Wavelet> w = row.h.net.pollDelivered(2, 0, 1))
      seen.push_back(w->payload);
    row.h.net.step();
    moves.push_back({row.h.net.getCycle(), row.h.net.getLastStepMoves()});
  }
  CHECK(seen == std::vector<uint32_t>{1, 2, 3, 4});
  CHECK(moves == std::vector<std::pair<uint64_t, size_t>>{
                     {21, 1}, {22, 2}, {23, 3}, {24, 3}});
  // A wavelet waits every cycle it does not move, parked or not: 6, 5, 4
  // and 3 in flight less the moves.
  CHECK(row.h.net.getCounters().waitCycles == waited + 5 + 3 + 1 + 0);
  // 5 + 3 + 1 hops before (payload 1 was delivered), one per move since.
  CHECK(row.h.net.getCounters().hops == 9 + 1 + 2 + 3 + 3);
}

TEST_CASE("a parked lane counts its port conflict every cycle") {
  WestAndRamp fabric;
  Harness &h = fabric.h;
  REQUIRE(h.net.inject(1, 0, data(1, 0xB1)));
  REQUIRE(h.net.inject(1, 0, data(1, 0xB2)));
  REQUIRE(h.net.inject(0, 0, data(1, 0xA1)));
  // Cycle 0: B1 is delivered and A1 crosses; from cycle 1 on both ports
  // are ready and the queue is full.
  h.run(10);
  CHECK(h.net.getCounters().rxConflicts == 9);
  CHECK(h.net.getLastStepMoves() == 0);
  // Served after the ramp, the west goes first once there is room.
  CHECK(h.drain(1, 0, 1) == std::vector<Wavelet>{got(1, 0xB1, 1)});
  h.net.step();
  CHECK(h.net.getCounters().rxConflicts == 10);
  CHECK(h.drain(1, 0, 1) == std::vector<Wavelet>{got(1, 0xA1, 3)});
  h.net.step();
  CHECK(h.net.getCounters().rxConflicts == 10);
  CHECK(h.drain(1, 0, 1) == std::vector<Wavelet>{got(1, 0xB2, 2)});
}

TEST_CASE("a wavelet arriving at a parked lane's other port is seen") {
  // As above, but the CE's wavelet comes after the lane waited alone.
  WestAndRamp fabric;
  Harness &h = fabric.h;
  REQUIRE(h.net.inject(0, 0, data(1, 0xA1)));
  REQUIRE(h.net.inject(0, 0, data(1, 0xA2)));
  h.run(6);
  CHECK(h.net.getCounters().rxConflicts == 0);
  REQUIRE(h.net.inject(1, 0, data(1, 0xB1)));
  h.run(4);
  CHECK(h.net.getCounters().rxConflicts == 4);
  // The west was served last: the ramp goes first.
  CHECK(h.drain(1, 0, 1) == std::vector<Wavelet>{got(1, 0xA1, 1)});
  h.net.step();
  CHECK(h.drain(1, 0, 1) == std::vector<Wavelet>{got(1, 0xB1, 3)});
}

TEST_CASE("a parked lane with a conflict gains a third ready port") {
  // (1, 0) takes color 1 from the west, the east and its CE into a
  // delivery queue of one.
  Fabric f(3, 1);
  f.route(0, 0, 1, routes(R, E));
  f.route(2, 0, 1, routes(R, W));
  f.route(1, 0, 1, routes(W | E | R, R));
  Harness h(f);
  REQUIRE(h.net.setDeliveryQueueDepth(1, 0, 1, 1));
  std::vector<Wavelet> order;
  auto takeOneEachCycle = [&](unsigned cycles) {
    for (unsigned i = 0; i < cycles; ++i) {
      h.net.step();
      for (const Wavelet &w : h.drain(1, 0, 1))
        order.push_back(w);
    }
  };
  SECTION("by an arrival") {
    REQUIRE(h.net.inject(1, 0, data(1, 0xB1)));
    REQUIRE(h.net.inject(1, 0, data(1, 0xB2)));
    REQUIRE(h.net.inject(0, 0, data(1, 0xA1)));
    h.run(10); // parked with the west and the ramp ready from cycle 1
    REQUIRE(h.net.getCounters().rxConflicts == 9);
    REQUIRE(h.net.inject(2, 0, data(1, 0xC1)));
    h.run(5); // one conflict a cycle still, with three ports ready
    CHECK(h.net.getCounters().rxConflicts == 14);
    // The first step still finds B1 in the queue (a conflict); then, after
    // the ramp (B1, cycle 0): west, east (two more), ramp.
    takeOneEachCycle(4);
    CHECK(order == std::vector<Wavelet>{got(1, 0xB1, 1), got(1, 0xA1, 3),
                                        got(1, 0xC1, 4), got(1, 0xB2, 2)});
    CHECK(h.net.getCounters().rxConflicts == 17);
  }
  SECTION("by the CE's injection") {
    REQUIRE(h.net.inject(0, 0, data(1, 0xA1)));
    REQUIRE(h.net.inject(0, 0, data(1, 0xA2)));
    REQUIRE(h.net.inject(2, 0, data(1, 0xC1)));
    REQUIRE(h.net.inject(2, 0, data(1, 0xC2)));
    // Cycle 1 delivers A1; from cycle 2 on the west and the east wait.
    h.run(10);
    REQUIRE(h.net.getCounters().rxConflicts == 9);
    REQUIRE(h.net.inject(1, 0, data(1, 0xB1)));
    h.run(5);
    CHECK(h.net.getCounters().rxConflicts == 14);
    // A1 waits in the queue for the first step; after the west (A1):
    // east, ramp, west (three conflicts), east.
    takeOneEachCycle(5);
    CHECK(order == std::vector<Wavelet>{got(1, 0xA1, 1), got(1, 0xC1, 3),
                                        got(1, 0xB1, 5), got(1, 0xA2, 2),
                                        got(1, 0xC2, 4)});
    CHECK(h.net.getCounters().rxConflicts == 18);
  }
}

TEST_CASE("a deeper delivery queue lets a parked wavelet go") {
  Row row;
  row.fill(20, 7);
  REQUIRE(row.h.net.getLastStepMoves() == 0);
  REQUIRE(row.h.net.setDeliveryQueueDepth(2, 0, 1, 3));
  row.h.net.step();
  CHECK(row.h.net.getLastStepMoves() == 1);
  CHECK(row.h.net.getDeliveredCount(2, 0, 1) == 2);
  row.h.net.step();
  CHECK(row.h.net.getLastStepMoves() == 2);
  CHECK(row.h.net.getDeliveredCount(2, 0, 1) == 3);
}

TEST_CASE("a new route lets a parked wavelet go") {
  SECTION("a color config word") {
    Row row;
    row.fill(20, 7);
    REQUIRE(row.h.net.getLastStepMoves() == 0);
    // (1, 0) now delivers to its own CE instead.
    REQUIRE(row.h.net.setColorConfigWord(1, 0, 1, uint16_t(W << 5 | R)));
    // (1, 0) delivers; (0, 0) found its west buffer full when the cycle
    // began, and goes in the next.
    row.h.net.step();
    CHECK(row.h.net.getLastStepMoves() == 1);
    CHECK(row.h.drain(1, 0, 1) == std::vector<Wavelet>{got(1, 4, 4)});
    row.h.net.step();
    CHECK(row.h.net.getLastStepMoves() == 2);
    CHECK(row.h.drain(1, 0, 1) == std::vector<Wavelet>{got(1, 5, 5)});
  }
  SECTION("the CE advancing a switch") {
    Fabric f(3, 1);
    f.route(0, 0, 1, routes(R, E));
    pe::RouterConfig relay = routes(W, E);
    relay.positions[0] = txPos(pe::Port::Ramp);
    f.route(1, 0, 1, relay);
    f.route(2, 0, 1, routes(W, R));
    Harness h(f);
    REQUIRE(h.net.setDeliveryQueueDepth(2, 0, 1, 1));
    for (uint32_t payload = 1; payload <= 5; ++payload)
      while (!h.net.inject(0, 0, data(1, payload)))
        h.net.step();
    h.run(10);
    REQUIRE(h.net.getLastStepMoves() == 0);
    REQUIRE(h.net.advanceSwitch(1, 0, 1));
    h.net.step();
    CHECK(h.net.getLastStepMoves() == 1);
    CHECK(h.drain(1, 0, 1) == std::vector<Wavelet>{got(1, 4, 4)});
  }
}
