//===- SwitchTest.cpp - control wavelets and switch positions
//--------------===//

#include "TestFabric.h"

#include <catch2/catch.hpp>

using namespace routertest;

namespace {

pe::RouterConfig withSwitch(pe::RouterConfig config,
                            std::vector<pe::SwitchPosition> positions,
                            pe::PopMode popMode = pe::PopMode::NoPop,
                            bool ring = false) {
  for (size_t i = 0; i < positions.size(); ++i)
    config.positions[i] = positions[i];
  config.popMode = popMode;
  config.ringMode = ring;
  return config;
}

unsigned positionOf(const Harness &h, unsigned x, unsigned y, unsigned color) {
  return h.net.getLaneState(x, y, color)->position;
}

/// A row of four on color 1 from (0, 0)'s CE to (3, 0)'s; `first3[i]` is
/// the config of PE (i, 0), `last` that of (3, 0).
Fabric chain(const std::vector<pe::RouterConfig> &first3,
             pe::RouterConfig last) {
  Fabric f(4, 1);
  for (uint16_t x = 0; x < 3; ++x)
    f.route(x, 0, 1, first3[x]);
  f.route(3, 0, 1, last);
  return f;
}

} // namespace

TEST_CASE("a switch advances after its control wavelet has passed") {
  pe::RouterConfig relay = withSwitch(routes(W, E), {txPos(pe::Port::Ramp)});
  Harness h(chain({routes(R, E), relay, relay}, routes(W, R)));
  uint32_t advance = slots({Adv});
  REQUIRE(h.net.inject(0, 0, ctrl(1, advance)));
  h.run(4);
  // The wavelet went east at (1,0) and (2,0) before each switched to the
  // ramp, so it reached (3,0).
  CHECK(h.drain(3, 0, 1) == std::vector<Wavelet>{got(1, advance, 1, true)});
  CHECK(positionOf(h, 1, 0, 1) == 1);
  CHECK(positionOf(h, 2, 0, 1) == 1);
  CHECK(h.net.getLaneState(1, 0, 1)->tx == R);
  CHECK(h.net.getCounters().switchCommands == 4); // every router executes it

  // Data right behind takes the new route.
  REQUIRE(h.net.inject(0, 0, data(1, 7)));
  h.run(2);
  CHECK(h.drain(1, 0, 1) == std::vector<Wavelet>{got(1, 7, 2)});

  // Without ring mode the last position stays.
  REQUIRE(h.net.inject(0, 0, ctrl(1, advance)));
  h.run(2);
  CHECK(h.drain(1, 0, 1) == std::vector<Wavelet>{got(1, advance, 3, true)});
  CHECK(positionOf(h, 1, 0, 1) == 1);
  CHECK(h.net.isIdle());
}

TEST_CASE("ring mode wraps from the last position to 0") {
  for (bool ring : {false, true}) {
    Fabric f(2, 1);
    f.route(0, 0, 1, routes(R, E));
    f.route(1, 0, 1,
            withSwitch(routes(W, R),
                       {txPos(pe::Port::Ramp), rxPos(pe::Port::West)},
                       pe::PopMode::NoPop, ring));
    Harness h(f);
    std::vector<unsigned> positions;
    size_t delivered = 0;
    for (unsigned i = 0; i < 3; ++i) {
      REQUIRE(h.net.inject(0, 0, ctrl(1, slots({Adv}))));
      h.run(2);
      positions.push_back(positionOf(h, 1, 0, 1));
      delivered += h.drain(1, 0, 1).size();
    }
    CHECK(positions == (ring ? std::vector<unsigned>{1, 2, 0}
                             : std::vector<unsigned>{1, 2, 2}));
    CHECK(delivered == 3);
  }
}

TEST_CASE("always_pop gives each router the next command") {
  pe::RouterConfig pass =
      withSwitch(routes(W, E), {txPos(pe::Port::East)}, pe::PopMode::AlwaysPop);
  pe::RouterConfig first =
      withSwitch(routes(R, E), {txPos(pe::Port::East)}, pe::PopMode::AlwaysPop);
  pe::RouterConfig last = withSwitch(routes(W, R), {txPos(pe::Port::Ramp)});
  Harness h(chain({first, pass, pass}, last));
  uint32_t payload = slots({Adv, 0, Adv, 0, Adv});
  REQUIRE(h.net.inject(0, 0, ctrl(1, payload)));
  h.run(4);
  std::vector<unsigned> positions;
  for (unsigned x = 0; x < 4; ++x)
    positions.push_back(positionOf(h, x, 0, 1));
  CHECK(positions == std::vector<unsigned>{1, 0, 1, 0});
  // Three routers popped; the last does not pop and saw a NOP.
  uint32_t popped =
      control::popSlot(control::popSlot(control::popSlot(payload)));
  CHECK(h.drain(3, 0, 1) == std::vector<Wavelet>{got(1, popped, 1, true)});
}

TEST_CASE("pop_on_advance pops only where the command advances") {
  pe::RouterConfig pass = withSwitch(routes(W, E), {txPos(pe::Port::East)},
                                     pe::PopMode::PopOnAdvance);
  pe::RouterConfig first = withSwitch(routes(R, E), {txPos(pe::Port::East)},
                                      pe::PopMode::PopOnAdvance);
  pe::RouterConfig last = withSwitch(routes(W, R), {txPos(pe::Port::Ramp)});
  Harness h(chain({first, pass, pass}, last));
  uint32_t payload = slots({Adv, Adv, 0, Adv});
  REQUIRE(h.net.inject(0, 0, ctrl(1, payload)));
  h.run(4);
  std::vector<unsigned> positions;
  for (unsigned x = 0; x < 4; ++x)
    positions.push_back(positionOf(h, x, 0, 1));
  CHECK(positions == std::vector<unsigned>{1, 1, 0, 0});
  uint32_t popped = control::popSlot(control::popSlot(payload));
  CHECK(h.drain(3, 0, 1) == std::vector<Wavelet>{got(1, popped, 1, true)});
}

TEST_CASE("pop_on_advance at the last position passes the advance on") {
  // cholesky's row: a router at its last position (no ring mode) injects
  // an advance; it cannot move, so it does not pop, and the next router
  // advances. With ring mode the first router wraps and pops, and the next
  // one sees a NOP.
  for (bool ring : {false, true}) {
    pe::RouterConfig source =
        withSwitch(routes(W, R), {txPos(pe::Port::East), rxPos(pe::Port::Ramp)},
                   pe::PopMode::PopOnAdvance, ring);
    source.currentPosition = 2;
    pe::RouterConfig next =
        withSwitch(routes(W, R), {txPos(pe::Port::East), rxPos(pe::Port::Ramp)},
                   pe::PopMode::PopOnAdvance);
    Fabric f(2, 1);
    f.route(0, 0, 1, source);
    f.route(1, 0, 1, next);
    Harness h(f);
    uint32_t payload = slots({Adv, 0});
    REQUIRE(h.net.inject(0, 0, ctrl(1, payload)));
    h.run(3);
    CHECK(positionOf(h, 0, 0, 1) == (ring ? 0u : 2u));
    CHECK(positionOf(h, 1, 0, 1) == (ring ? 0u : 1u));
    // The CE sees the payload as it reached its router.
    uint32_t reached = ring ? control::popSlot(payload) : payload;
    CHECK(h.drain(1, 0, 1) == std::vector<Wavelet>{got(1, reached, 1, true)});
  }
}

TEST_CASE("each position replaces one side of the route it switches from") {
  // pos1 sends east only, pos2 then receives from the ramp: at position 2
  // the route is ramp -> east (pos1's tx stays), not ramp -> ramp and east.
  pe::RouterConfig config =
      withSwitch(routes(W, R | E), {txPos(pe::Port::East), rxPos(pe::Port::Ramp)});
  Fabric f(2, 1);
  config.currentPosition = 2;
  f.route(0, 0, 1, config);
  f.route(1, 0, 1, routes(W, R));
  Harness h(f);
  CHECK(h.net.getLaneState(0, 0, 1)->rx == R);
  CHECK(h.net.getLaneState(0, 0, 1)->tx == E);
  REQUIRE(h.net.inject(0, 0, data(1, 5)));
  h.run(3);
  CHECK(h.drain(0, 0, 1).empty());
  CHECK(h.drain(1, 0, 1) == std::vector<Wavelet>{got(1, 5, 1)});
}

TEST_CASE("a router without switch positions pops by its pop mode too") {
  // fft-1d-2d's sending PE has always_pop and no positions: it pops the NOP
  // meant for itself, so the next router sees the advance meant for it.
  pe::RouterConfig first =
      withSwitch(routes(R, E), {txPos(pe::Port::East)}, pe::PopMode::AlwaysPop);
  pe::RouterConfig bare = routes(W, E);
  bare.popMode = pe::PopMode::AlwaysPop;
  pe::RouterConfig pass =
      withSwitch(routes(W, E), {txPos(pe::Port::East)}, pe::PopMode::AlwaysPop);
  pe::RouterConfig last = withSwitch(routes(W, R), {txPos(pe::Port::Ramp)});
  Harness h(chain({first, bare, pass}, last));
  uint32_t payload = slots({Adv, Adv, 0});
  REQUIRE(h.net.inject(0, 0, ctrl(1, payload)));
  h.run(4);
  std::vector<unsigned> positions;
  for (unsigned x = 0; x < 4; ++x)
    positions.push_back(positionOf(h, x, 0, 1));
  CHECK(positions == std::vector<unsigned>{1, 0, 0, 0});
  uint32_t popped =
      control::popSlot(control::popSlot(control::popSlot(payload)));
  CHECK(h.drain(3, 0, 1) == std::vector<Wavelet>{got(1, popped, 1, true)});
}

TEST_CASE("a reset command returns the switch to position 0") {
  pe::RouterConfig target =
      withSwitch(routes(W, R), {txPos(pe::Port::Ramp), txPos(pe::Port::Ramp)});
  target.currentPosition = 2;
  Fabric f(2, 1);
  f.route(0, 0, 1, routes(R, E));
  f.route(1, 0, 1, target);
  Harness h(f);
  CHECK(positionOf(h, 1, 0, 1) == 2);
  REQUIRE(h.net.inject(0, 0, ctrl(1, slots({Rst}))));
  h.run(2);
  CHECK(positionOf(h, 1, 0, 1) == 0);
  CHECK(h.net.getCounters().switchCommands == 2);
}

TEST_CASE("ce_ignore keeps a control wavelet from the CE") {
  Fabric f(1, 1);
  f.route(0, 0, 0, routes(R, R));
  Harness h(f);
  REQUIRE(h.net.inject(0, 0, ctrl(0, slots({Ignore}))));
  REQUIRE(h.net.inject(0, 0, ctrl(0, slots({0}))));
  h.run(2);
  CHECK(h.drain(0, 0, 0) == std::vector<Wavelet>{got(0, slots({0}), 2, true)});
  CHECK(h.net.getCounters().withheld == 1);
  CHECK(h.net.getCounters().hops == 1);
  CHECK(h.net.getLinkBusyCycles(0, 0, pe::Port::Ramp) == 1);
  CHECK(h.net.isIdle());
}

TEST_CASE("advanceSwitch waits for the wavelets the CE sent before it") {
  Fabric f(2, 2);
  f.route(0, 0, 1,
          withSwitch(routes(R, E), {txPos(pe::Port::South)}, pe::PopMode::NoPop,
                     /*ring=*/true));
  f.route(1, 0, 1, routes(W, R));
  f.route(0, 1, 1, routes(N, R));
  Harness h(f);
  REQUIRE(h.net.inject(0, 0, data(1, 1)));
  REQUIRE(h.net.inject(0, 0, data(1, 2)));
  REQUIRE(h.net.advanceSwitch(0, 0, 1));
  CHECK(h.net.listBuffered() ==
        std::vector<BufferedWavelet>{
            {{0, 0}, 1, false, pe::Port::Ramp, 0, got(1, 1, 1), 0},
            {{0, 0}, 1, false, pe::Port::Ramp, 1, got(1, 2, 2), 1},
        });
  h.net.step();
  CHECK(positionOf(h, 0, 0, 1) == 0);
  h.net.step();
  CHECK(positionOf(h, 0, 0, 1) == 1);
  CHECK(h.net.getCounters().switchCommands == 1);
  REQUIRE(h.net.inject(0, 0, data(1, 3)));
  h.run(3);
  CHECK(payloads(h.drain(1, 0, 1)) == std::vector<uint32_t>{1, 2});
  CHECK(payloads(h.drain(0, 1, 1)) == std::vector<uint32_t>{3});

  // Nothing waiting: at once (ring mode wraps to 0).
  REQUIRE(h.net.advanceSwitch(0, 0, 1));
  CHECK(positionOf(h, 0, 0, 1) == 0);
  CHECK(h.net.getCounters().switchCommands == 2);
}
