//===- ColorSwapTest.cpp - relabelling c and c^1 on entry (WSE-2)
//----------===//

#include "TestFabric.h"

#include <catch2/catch.hpp>

using namespace routertest;

namespace {

pe::RouterConfig swapped(pe::RouterConfig config, bool x, bool y) {
  config.colorSwapX = x;
  config.colorSwapY = y;
  return config;
}

/// The SDK's color swap tutorial: a row of four where colors 0 and 1 both
/// swap on E/W entry; (0,0)'s CE sends color 1 to itself and east.
Fabric tutorial(target::Arch arch) {
  Fabric f(4, 1, arch);
  for (uint8_t color : {0, 1}) {
    f.route(0, 0, color, swapped(routes(R, R | E), true, false));
    f.route(1, 0, color, swapped(routes(W, R | E), true, false));
    f.route(2, 0, color, swapped(routes(W, R | E), true, false));
    f.route(3, 0, color, swapped(routes(W, R), true, false));
  }
  return f;
}

/// The color each PE of the row received the wavelet on.
std::vector<unsigned> receivedColors(Harness &h) {
  h.run(6);
  std::vector<unsigned> colors;
  for (unsigned x = 0; x < 4; ++x)
    for (uint8_t color : {0, 1})
      for (const Wavelet &w : h.drain(x, 0, color)) {
        CHECK(w.payload == 7);
        CHECK(w.id == 1);
        CHECK(w.color == color);
        colors.push_back(color);
      }
  return colors;
}

} // namespace

TEST_CASE("color swap x relabels wavelets entering from the west") {
  Harness h(tutorial(target::Arch::WSE2));
  REQUIRE(h.net.inject(0, 0, data(1, 7)));
  // Blue on PEs 0 and 2, red on 1 and 3, as the tutorial's sums say.
  CHECK(receivedColors(h) == std::vector<unsigned>{1, 0, 1, 0});
  CHECK(h.net.getLaneState(1, 0, 0)->colorSwapX);
  CHECK(*h.net.getColorConfigWord(1, 0, 0) == (W << 5 | (R | E) | 1u << 11));
}

TEST_CASE("WSE-3 has no color swap") {
  Harness h(tutorial(target::Arch::WSE3));
  REQUIRE(h.net.inject(0, 0, data(1, 7)));
  CHECK(receivedColors(h) == std::vector<unsigned>{1, 1, 1, 1});
  CHECK_FALSE(h.net.getLaneState(1, 0, 0)->colorSwapX);
  // The swap bits do not exist: writing them reads back 0.
  REQUIRE(h.net.setColorConfigWord(1, 0, 0, 0x0C00 | R << 5 | R));
  CHECK(*h.net.getColorConfigWord(1, 0, 0) == (R << 5 | R));
  CHECK(h.net.getErrors().empty());
}

TEST_CASE("color swap y relabels wavelets entering from north or south") {
  Fabric f(1, 2);
  f.route(0, 0, 4, routes(R, S));
  f.route(0, 1, 4, swapped(routes(N, R), false, true));
  f.route(0, 1, 5, routes(N, R));
  Harness h(f);
  REQUIRE(h.net.inject(0, 0, data(4, 9)));
  h.run(2);
  CHECK(h.drain(0, 1, 5) == std::vector<Wavelet>{got(5, 9, 1)});
  CHECK(h.net.getDeliveredCount(0, 1, 4) == 0);
}

TEST_CASE("with both swap flags the CE's own wavelets swap too") {
  Fabric f(1, 1);
  f.route(0, 0, 2, swapped(routes(R, R), true, true));
  f.route(0, 0, 3, routes(R, R));
  Harness h(f);
  CHECK(h.net.getInjectSpace(0, 0, 2) == 2);
  REQUIRE(h.net.inject(0, 0, data(2, 1)));
  CHECK(h.net.getInjectSpace(0, 0, 2) == 1); // color 3's buffer
  CHECK(h.net.getInjectSpace(0, 0, 3) == 1);
  h.net.step();
  CHECK(h.drain(0, 0, 3) == std::vector<Wavelet>{got(3, 1, 1)});
}

TEST_CASE("by lane number, the CE's own wavelets swap too") {
  Fabric f(1, 1);
  f.route(0, 0, 2, swapped(routes(R, R), true, true));
  f.route(0, 0, 3, routes(R, R));
  f.route(0, 0, 4, swapped(routes(R, R), true, true));
  Harness h(f);
  REQUIRE(h.net.inject(0, 0, data(2, 1)));
  std::optional<uint32_t> lane = h.net.findDeliveryQueue(0, 0, 2);
  REQUIRE(lane);
  CHECK_FALSE(h.net.isInjectBufferFullAt(*lane)); // color 3's, one taken
  REQUIRE(h.net.injectAt(*lane, data(2, 2)));
  CHECK(h.net.isInjectBufferFullAt(*lane));
  CHECK(h.net.isInjectBufferFull(0, 0, 2));
  CHECK(h.net.getInjectSpace(0, 0, 3) == 0);
  h.run(3);
  CHECK(h.drain(0, 0, 3) == std::vector<Wavelet>{got(3, 1, 1), got(3, 2, 2)});
  // Color 5 has no lane yet: injectAt makes it, as inject would.
  REQUIRE(h.net.inject(0, 0, data(4, 7)));
  std::optional<uint32_t> four = h.net.findDeliveryQueue(0, 0, 4);
  REQUIRE(four);
  REQUIRE(h.net.injectAt(*four, data(4, 8)));
  CHECK(h.net.getInjectSpace(0, 0, 5) == 0);
}

TEST_CASE("a swap to a color the neighbour does not route is an error") {
  Fabric f(2, 1);
  f.route(0, 0, 6, routes(R, E));
  f.route(1, 0, 6, swapped(routes(W, R), true, false));
  Harness h(f);
  REQUIRE(h.net.inject(0, 0, data(6, 1)));
  h.run(3);
  REQUIRE(h.net.getErrors().size() == 1);
  CHECK(h.net.getErrors()[0].message ==
        "PE (1, 0) does not route color 7, but wavelet 1 arrived from the "
        "west on it");
  CHECK(h.net.listBuffered() ==
        std::vector<BufferedWavelet>{
            {{1, 0}, 7, false, pe::Port::West, 0, got(7, 1, 1), 0}});
}

TEST_CASE("changing a swap flag reroutes the next wavelet at once") {
  Fabric f(2, 1);
  f.route(0, 0, 0, routes(R, E));
  f.route(1, 0, 0, routes(W, R));
  f.route(1, 0, 1, routes(W, R));
  Harness h(f);
  uint16_t plain = W << 5 | R;
  std::vector<unsigned> colors;
  for (uint16_t word : {plain, uint16_t(plain | 1u << 11), plain}) {
    REQUIRE(h.net.setColorConfigWord(1, 0, 0, word));
    REQUIRE(h.net.inject(0, 0, data(0, 1)));
    h.run(2);
    for (uint8_t color : {0, 1})
      if (h.net.pollDelivered(1, 0, color))
        colors.push_back(color);
  }
  CHECK(colors == std::vector<unsigned>{0, 1, 0});
}
