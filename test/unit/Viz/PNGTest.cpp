//===- PNGTest.cpp - heat maps as PNG, decoded back -----------------------===//

#include "TestSupport.h"

#include "tessera/Viz/ColorScale.h"
#include "tessera/Viz/HeatMap.h"
#include "tessera/Viz/PNG.h"

#include <catch2/catch.hpp>

using namespace tessera::viz;

namespace {

Image roundTrip(const Image &image) {
  std::string error;
  std::optional<Image> decoded = viztest::decodePNG(encodePNG(image), error);
  INFO(error);
  REQUIRE(decoded);
  return std::move(*decoded);
}

} // namespace

TEST_CASE("a PNG starts with the signature and an RGB header", "[png]") {
  Image image(3, 2, RGB{1, 2, 3});
  std::vector<uint8_t> bytes = encodePNG(image);
  REQUIRE(bytes.size() > 33);
  CHECK(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 8) ==
        std::vector<uint8_t>{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'});
  // IHDR: length 13, width 3, height 2, depth 8, RGB, no interlace.
  CHECK(std::vector<uint8_t>(bytes.begin() + 8, bytes.begin() + 29) ==
        std::vector<uint8_t>{0, 0, 0, 13, 'I', 'H', 'D', 'R', 0, 0, 0,
                             3, 0, 0, 0,  2,   8,   2,   0,   0, 0});
}

TEST_CASE("every pixel survives encoding", "[png]") {
  Image image(7, 5, colors::Background);
  for (unsigned y = 0; y < 5; ++y)
    for (unsigned x = 0; x < 7; ++x)
      image.fillRect(int(x), int(y), 1, 1,
                     RGB{uint8_t(x * 40), uint8_t(y * 60), uint8_t(x ^ y)});
  Image decoded = roundTrip(image);
  REQUIRE(decoded.getWidth() == 7);
  REQUIRE(decoded.getHeight() == 5);
  for (unsigned y = 0; y < 5; ++y)
    for (unsigned x = 0; x < 7; ++x)
      CHECK(decoded.getPixel(x, y) == image.getPixel(x, y));
}

TEST_CASE("a PE heat map's pixels", "[png]") {
  Image image = roundTrip(renderImage(
      buildPEHeatMap(viztest::makeSmallRecord(), PEMetric::BusyCycles)));
  CHECK(image.getWidth() == 508);
  CHECK(image.getHeight() == 124);
  // Cells of 24 pixels from (8, 30); the middle of each cell.
  auto cell = [&](unsigned x, unsigned y) {
    return image.getPixel(8 + 24 * x + 12, 30 + 24 * y + 12);
  };
  CHECK(cell(0, 0) == getScaleColor(0));   // 30, the least
  CHECK(cell(1, 0) == getScaleColor(128)); // 60
  CHECK(cell(2, 0) == getScaleColor(255)); // 90, the most
  CHECK(cell(0, 1) == colors::NoRecord);
  CHECK(cell(1, 1) == getScaleColor(64)); // 45
  // A cell fills 23 x 23 pixels; the 24th row and column are grid lines.
  CHECK(image.getPixel(8 + 22, 30 + 22) == getScaleColor(0));
  CHECK(image.getPixel(8 + 23, 30 + 10) == colors::Background);
  CHECK(image.getPixel(8 + 10, 30 + 23) == colors::Background);
  // The legend: one column per entry of the scale.
  for (unsigned i = 0; i < 256; ++i)
    CHECK(image.getPixel(8 + i, 86 + 6) == getScaleColor(i));
  CHECK(image.getPixel(8 + 256, 86 + 6) == colors::Background);
  // The title and the labels are drawn in black.
  auto inkIn = [&](unsigned x0, unsigned y0, unsigned x1, unsigned y1) {
    unsigned ink = 0;
    for (unsigned y = y0; y < y1; ++y)
      for (unsigned x = x0; x < x1; ++x)
        ink += image.getPixel(x, y) == colors::Text;
    return ink;
  };
  CHECK(inkIn(8, 8, 500, 22) > 200);
  // "30" under the left end, "90" under the right end (two glyphs of
  // 12 pixels, the last blank column trimmed).
  CHECK(inkIn(8, 102, 32, 116) > 20);
  CHECK(inkIn(264 - 22, 102, 264, 116) > 20);
  CHECK(inkIn(40, 102, 240, 116) == 0);
}

TEST_CASE("a link heat map's arrows and cores", "[png]") {
  Image image = roundTrip(
      renderImage(buildLinkHeatMap(viztest::makeSmallRecord(), std::nullopt)));
  // Cells of 36 pixels from (8, 30), blocks of 12. Values: east of (0,0) 8,
  // east of (1,0) 12, south of (1,0) 2, ramps of (2,0) 8 and (1,1) 2.
  auto block = [&](unsigned x, unsigned y, unsigned column, unsigned row,
                   unsigned dx, unsigned dy) {
    return image.getPixel(8 + 36 * x + 12 * column + dx,
                          30 + 36 * y + 12 * row + dy);
  };
  RGB eight = getScaleColor(getScaleIndex(8, 2, 12));
  CHECK(eight == getScaleColor(153));
  // East arrow of (0, 0): base on the left of its block, tip on the right.
  CHECK(block(0, 0, 2, 1, 0, 0) == eight);
  CHECK(block(0, 0, 2, 1, 0, 11) == eight);
  CHECK(block(0, 0, 2, 1, 10, 5) == eight);
  CHECK(block(0, 0, 2, 1, 11, 5) == colors::Background);
  CHECK(block(0, 0, 2, 1, 6, 0) == colors::Background);
  CHECK(block(1, 0, 2, 1, 0, 5) == getScaleColor(255));
  // South arrow of (1, 0): base at the top.
  CHECK(block(1, 0, 1, 2, 0, 0) == getScaleColor(0));
  CHECK(block(1, 0, 1, 2, 0, 11) == colors::Background);
  CHECK(block(1, 0, 1, 2, 5, 10) == getScaleColor(0));
  // Cores: a PE without ramp wavelets, one with, and one without a record.
  CHECK(block(0, 0, 1, 1, 6, 6) == colors::PECore);
  CHECK(block(2, 0, 1, 1, 6, 6) == eight);
  CHECK(block(1, 1, 1, 1, 6, 6) == getScaleColor(0));
  CHECK(block(0, 1, 1, 1, 6, 6) == colors::NoRecord);
  // No link leaves west of (1, 0): its block stays blank.
  CHECK(block(1, 0, 0, 1, 2, 6) == colors::Background);
}

TEST_CASE("a PNG that cannot be written says why", "[png]") {
  Status written = writePNG(Image(1, 1, RGB{}), "/nonexistent/x.png");
  REQUIRE(!written);
  CHECK(written.error() ==
        "cannot write '/nonexistent/x.png': No such file or directory");
}
