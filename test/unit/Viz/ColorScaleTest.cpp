//===- ColorScaleTest.cpp - the heat map colour scale ---------------------===//

#include "tessera/Viz/ColorScale.h"

#include <catch2/catch.hpp>

using namespace tessera::viz;

TEST_CASE("the scale runs through its stops", "[colorscale]") {
  CHECK(getScaleColor(0) == RGB{24, 28, 72});
  CHECK(getScaleColor(255) == RGB{253, 231, 60});
  CHECK(getScaleStop(2) == RGB{34, 150, 140});
  // Index 64 is 1/255 past the second stop.
  CHECK(getScaleColor(64) == RGB{38, 86, 150});
  // Halfway between the last two stops: (150+253)/2, (200+231)/2, (70+60)/2.
  CHECK(getScaleColor(223) == RGB{201, 215, 65});
  CHECK(getScaleColor(1000) == getScaleColor(255));
}

TEST_CASE("values map to the nearest entry", "[colorscale]") {
  CHECK(getScaleIndex(30, 30, 90) == 0);
  CHECK(getScaleIndex(90, 30, 90) == 255);
  CHECK(getScaleIndex(60, 30, 90) == 128);
  CHECK(getScaleIndex(45, 30, 90) == 64);
  CHECK(getScaleIndex(7, 7, 7) == 0);
  CHECK(getScaleIndex(UINT64_MAX / 4 * 3, 0, UINT64_MAX) == 191);
  CHECK(getScaleIndex(UINT64_MAX, 0, UINT64_MAX) == 255);
}

TEST_CASE("colours print as hex", "[colorscale]") {
  CHECK(formatHexColor({24, 28, 72}) == "#181c48");
  CHECK(formatHexColor({255, 0, 10}) == "#ff000a");
}
