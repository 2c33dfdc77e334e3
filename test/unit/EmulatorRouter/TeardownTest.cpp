//===- TeardownTest.cpp - halting and resuming a color
//---------------------===//

#include "TestFabric.h"

#include <catch2/catch.hpp>

using namespace routertest;

namespace {

/// Color 1 from (0,0) through (1,0) to (2,0)'s CE. The first two pop every
/// command, so a command in slot 1 is (1,0)'s alone.
Fabric popRow() {
  pe::RouterConfig first = routes(R, E), middle = routes(W, E);
  for (pe::RouterConfig *config : {&first, &middle}) {
    config->positions[0] = txPos(pe::Port::East);
    config->popMode = pe::PopMode::AlwaysPop;
  }
  Fabric f(3, 1);
  f.route(0, 0, 1, first);
  f.route(1, 0, 1, middle);
  f.route(2, 0, 1, routes(W, R));
  return f;
}

} // namespace

TEST_CASE("a TEARDOWN command halts the color until the CE exits") {
  Harness h(popRow());
  uint32_t command = slots({0, Tdn});
  REQUIRE(h.net.inject(0, 0, ctrl(1, command)));
  h.run(2);
  // (1,0) passed the wavelet on, then entered teardown in cycle 1.
  CHECK(h.net.takeTeardownEvents() ==
        std::vector<TeardownEvent>{{1, {1, 0}, 1}});
  CHECK(h.net.takeTeardownEvents().empty());
  CHECK(h.net.isInTeardown(1, 0, 1));
  CHECK_FALSE(h.net.isInTeardown(0, 0, 1));
  CHECK(*h.net.getColorConfigWord(1, 0, 1) >> 14 == 1);
  CHECK(h.net.getCounters().teardowns == 1);
  h.net.step();
  uint32_t popped = control::popSlot(control::popSlot(command));
  CHECK(h.drain(2, 0, 1) == std::vector<Wavelet>{got(1, popped, 1, true)});

  // Traffic piles up in front of (1,0): two in its west buffer, two in
  // (0,0)'s inject buffer.
  unsigned accepted = 0;
  for (unsigned cycle = 0; cycle < 6; ++cycle) {
    while (h.net.inject(0, 0, data(1, 100 + accepted)))
      ++accepted;
    h.net.step();
  }
  CHECK(accepted == 4);
  CHECK(h.net.getLastStepMoves() == 0);
  CHECK(h.net.getWaveletsInFlight() == 4);
  CHECK(h.net.getDeliveredCount(2, 0, 1) == 0);

  REQUIRE(h.net.exitTeardown(1, 0, 1));
  CHECK_FALSE(h.net.isInTeardown(1, 0, 1));
  std::vector<uint32_t> seen;
  for (unsigned cycle = 0; cycle < 8; ++cycle) {
    h.net.step();
    for (const Wavelet &w : h.drain(2, 0, 1))
      seen.push_back(w.payload);
  }
  CHECK(seen == std::vector<uint32_t>{100, 101, 102, 103});
  CHECK(h.net.isIdle());
  // Exiting a color that is not in teardown changes nothing.
  CHECK(h.net.exitTeardown(1, 0, 1));
  CHECK(h.net.takeTeardownEvents().empty());
}

TEST_CASE("a color configured with teardown starts halted") {
  pe::RouterConfig halted = routes(W, R);
  halted.teardown = true;
  Fabric f(2, 1);
  f.route(0, 0, 1, routes(R, E));
  f.route(1, 0, 1, halted);
  Harness h(f);
  CHECK(h.net.isInTeardown(1, 0, 1));
  REQUIRE(h.net.inject(0, 0, data(1, 5)));
  h.run(5);
  CHECK(h.net.getDeliveredCount(1, 0, 1) == 0);
  CHECK(h.net.getWaveletsInFlight() == 1);
  REQUIRE(h.net.exitTeardown(1, 0, 1));
  h.net.step();
  CHECK(h.drain(1, 0, 1) == std::vector<Wavelet>{got(1, 5, 1)});
}

TEST_CASE("the config word's TIP bit halts and resumes without an event") {
  Fabric f(1, 1);
  f.route(0, 0, 2, routes(R, R));
  Harness h(f);
  uint16_t word = *h.net.getColorConfigWord(0, 0, 2);
  REQUIRE(h.net.setColorConfigWord(0, 0, 2, word | 0x4000));
  CHECK(h.net.isInTeardown(0, 0, 2));
  REQUIRE(h.net.inject(0, 0, data(2, 1)));
  h.run(3);
  CHECK(h.net.getDeliveredCount(0, 0, 2) == 0);
  CHECK(h.net.takeTeardownEvents().empty());
  REQUIRE(h.net.setColorConfigWord(0, 0, 2, word));
  h.net.step();
  CHECK(h.net.getDeliveredCount(0, 0, 2) == 1);
}

TEST_CASE("a teardown command at the router that sent it halts it there") {
  // No popping anywhere: every router on the way executes slot 0.
  Fabric f(2, 1);
  f.route(0, 0, 3, routes(R, E));
  f.route(1, 0, 3, routes(W, R));
  Harness h(f);
  REQUIRE(h.net.inject(0, 0, ctrl(3, slots({Tdn}))));
  h.run(2);
  CHECK(h.net.takeTeardownEvents() ==
        std::vector<TeardownEvent>{{0, {0, 0}, 3}, {1, {1, 0}, 3}});
  CHECK(h.net.getDeliveredCount(1, 0, 3) == 1);
}
