//===- Image.h - an 8-bit RGB raster ----------------------------*- C++ -*-===//
#ifndef TESSERA_VIZ_IMAGE_H
#define TESSERA_VIZ_IMAGE_H

#include <cstdint>
#include <string_view>
#include <vector>

namespace tessera::viz {

struct RGB {
  uint8_t red = 0, green = 0, blue = 0;
  friend bool operator==(const RGB &, const RGB &) = default;
};

/// Width x height pixels, row by row from the top, 3 bytes each. Drawing
/// clips to the image.
class Image {
public:
  Image(unsigned width, unsigned height, RGB background);

  unsigned getWidth() const { return width; }
  unsigned getHeight() const { return height; }
  RGB getPixel(unsigned x, unsigned y) const;
  const uint8_t *getRow(unsigned y) const {
    return pixels.data() + size_t(y) * width * 3;
  }

  void fillRect(int x, int y, int rectWidth, int rectHeight, RGB color);

  /// A filled isosceles triangle in the size x size square at (x, y): its
  /// base on the square's side opposite `towards`, its tip in the middle of
  /// the side `towards` (0 north, 1 south, 2 east, 3 west).
  void fillArrow(int x, int y, int size, unsigned towards, RGB color);

  /// Text in the 5x7 bitmap font, each font pixel `scale` x `scale`; the
  /// top-left corner at (x, y). Returns the width drawn.
  int drawText(int x, int y, std::string_view text, int scale, RGB color);

  /// How wide drawText draws `text`.
  static int getTextWidth(std::string_view text, int scale);
  static int getTextHeight(int scale) { return 7 * scale; }

private:
  unsigned width, height;
  std::vector<uint8_t> pixels;
};

} // namespace tessera::viz

#endif // TESSERA_VIZ_IMAGE_H
