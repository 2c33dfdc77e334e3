//===- ColorScale.cpp - the heat map colour scale -------------------------===//

#include "tessera/Viz/ColorScale.h"

#include <cmath>

using namespace tessera::viz;

namespace {

// Five stops, evenly spaced; the scale interpolates linearly between them.
// Brightness rises monotonically so that the order survives greyscale.
constexpr RGB Stops[] = {{24, 28, 72},
                         {38, 86, 150},
                         {34, 150, 140},
                         {150, 200, 70},
                         {253, 231, 60}};
constexpr unsigned NumSegments = NumScaleStops - 1;

uint8_t mix(uint8_t from, uint8_t to, double fraction) {
  return uint8_t(std::lround(from + (double(to) - from) * fraction));
}

} // namespace

RGB tessera::viz::getScaleColor(unsigned index) {
  if (index >= ColorScaleSize)
    index = ColorScaleSize - 1;
  unsigned position = index * NumSegments;
  unsigned segment = position / (ColorScaleSize - 1);
  if (segment == NumSegments)
    return Stops[NumSegments];
  double fraction =
      double(position - segment * (ColorScaleSize - 1)) / (ColorScaleSize - 1);
  const RGB &from = Stops[segment], &to = Stops[segment + 1];
  return {mix(from.red, to.red, fraction), mix(from.green, to.green, fraction),
          mix(from.blue, to.blue, fraction)};
}

RGB tessera::viz::getScaleStop(unsigned stop) {
  return Stops[stop < NumScaleStops ? stop : NumScaleStops - 1];
}

unsigned tessera::viz::getScaleIndex(uint64_t value, uint64_t min,
                                     uint64_t max) {
  if (max <= min || value <= min)
    return 0;
  if (value >= max)
    return ColorScaleSize - 1;
  uint64_t range = max - min, offset = value - min;
  // Exact in integers unless the product would overflow.
  if (offset <= (UINT64_MAX - range / 2) / (ColorScaleSize - 1))
    return unsigned((offset * (ColorScaleSize - 1) + range / 2) / range);
  return unsigned(std::lround(static_cast<long double>(offset) /
                              static_cast<long double>(range) *
                              (ColorScaleSize - 1)));
}

std::string tessera::viz::formatHexColor(RGB color) {
  static const char Digits[] = "0123456789abcdef";
  std::string text = "#";
  for (uint8_t channel : {color.red, color.green, color.blue}) {
    text += Digits[channel >> 4];
    text += Digits[channel & 15];
  }
  return text;
}
