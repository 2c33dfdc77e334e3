//===- Image.cpp - drawing into an RGB raster -----------------------------===//

#include "tessera/Viz/Image.h"

#include "BitmapFont.h"

#include <algorithm>
#include <cstdlib>

using namespace tessera::viz;

Image::Image(unsigned width, unsigned height, RGB background)
    : width(width), height(height), pixels(size_t(width) * height * 3) {
  for (size_t i = 0; i < pixels.size(); i += 3) {
    pixels[i] = background.red;
    pixels[i + 1] = background.green;
    pixels[i + 2] = background.blue;
  }
}

RGB Image::getPixel(unsigned x, unsigned y) const {
  const uint8_t *pixel = pixels.data() + (size_t(y) * width + x) * 3;
  return {pixel[0], pixel[1], pixel[2]};
}

void Image::fillRect(int x, int y, int rectWidth, int rectHeight, RGB color) {
  int left = std::max(x, 0), top = std::max(y, 0);
  int right = std::min<int64_t>(int64_t(x) + rectWidth, width);
  int bottom = std::min<int64_t>(int64_t(y) + rectHeight, height);
  for (int row = top; row < bottom; ++row) {
    uint8_t *pixel = pixels.data() + (size_t(row) * width + left) * 3;
    for (int column = left; column < right; ++column, pixel += 3) {
      pixel[0] = color.red;
      pixel[1] = color.green;
      pixel[2] = color.blue;
    }
  }
}

void Image::fillArrow(int x, int y, int size, unsigned towards, RGB color) {
  // Along is the distance from the base towards the tip, across the distance
  // from the middle line, both doubled to stay in integers.
  for (int along = 0; along < size; ++along)
    for (int i = 0; i < size; ++i) {
      if (std::abs(2 * i - (size - 1)) > (size - 1) - along)
        continue;
      int column, row;
      switch (towards) {
      case 0: // north: base at the bottom
        column = i, row = size - 1 - along;
        break;
      case 1: // south
        column = i, row = along;
        break;
      case 2: // east: base on the left
        column = along, row = i;
        break;
      default: // west
        column = size - 1 - along, row = i;
        break;
      }
      fillRect(x + column, y + row, 1, 1, color);
    }
}

int Image::drawText(int x, int y, std::string_view text, int scale, RGB color) {
  int penX = x;
  for (char character : text) {
    const auto &glyph = getGlyph(character);
    for (int row = 0; row < GlyphHeight; ++row)
      for (int column = 0; column < GlyphWidth; ++column)
        if (glyph[row][column] == '#')
          fillRect(penX + column * scale, y + row * scale, scale, scale, color);
    penX += GlyphAdvance * scale;
  }
  return penX - x;
}

int Image::getTextWidth(std::string_view text, int scale) {
  return int(text.size()) * GlyphAdvance * scale;
}
