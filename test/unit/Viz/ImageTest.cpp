//===- ImageTest.cpp - drawing into an RGB raster -------------------------===//

#include "tessera/Viz/Image.h"

#include <catch2/catch.hpp>

using namespace tessera::viz;

namespace {

constexpr RGB White{255, 255, 255};
constexpr RGB Red{255, 0, 0};

/// The image as rows of '#' (not white) and '.'.
std::vector<std::string> sketch(const Image &image) {
  std::vector<std::string> rows;
  for (unsigned y = 0; y < image.getHeight(); ++y) {
    std::string row;
    for (unsigned x = 0; x < image.getWidth(); ++x)
      row += image.getPixel(x, y) == White ? '.' : '#';
    rows.push_back(row);
  }
  return rows;
}

} // namespace

TEST_CASE("rectangles are clipped to the image", "[image]") {
  Image image(4, 3, White);
  image.fillRect(-1, 1, 3, 5, Red);
  CHECK(sketch(image) == std::vector<std::string>{"....", "##..", "##.."});
  CHECK(image.getPixel(1, 2) == Red);
}

TEST_CASE("arrows point the way they are asked to", "[image]") {
  Image east(5, 5, White), north(5, 5, White);
  east.fillArrow(0, 0, 5, 2, Red);
  north.fillArrow(0, 0, 5, 0, Red);
  CHECK(sketch(east) ==
        std::vector<std::string>{"#....", "###..", "#####", "###..", "#...."});
  CHECK(sketch(north) ==
        std::vector<std::string>{"..#..", "..#..", ".###.", ".###.", "#####"});
}

TEST_CASE("text is drawn in the 5x7 font", "[image]") {
  Image image(12, 7, White);
  CHECK(image.drawText(0, 0, "1a", 1, Red) == 12);
  CHECK(Image::getTextWidth("1a", 2) == 24);
  CHECK(sketch(image) ==
        std::vector<std::string>{"..#....###..", ".##...#...#.", "..#...#...#.",
                                 "..#...#####.", "..#...#...#.", "..#...#...#.",
                                 ".###..#...#."});
}
