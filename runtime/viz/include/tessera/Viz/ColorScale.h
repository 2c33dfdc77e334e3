//===- ColorScale.h - the colours of every picture --------------*- C++ -*-===//
//
// One 256-entry scale from dark blue (least) through green to yellow (most),
// shared by the PNG and SVG heat maps and the HTML report so that the same
// value has the same colour everywhere.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_VIZ_COLORSCALE_H
#define TESSERA_VIZ_COLORSCALE_H

#include "tessera/Viz/Image.h"

#include <cstdint>
#include <string>

namespace tessera::viz {

constexpr unsigned ColorScaleSize = 256;

/// Entry `index` (0..255) of the scale.
RGB getScaleColor(unsigned index);

/// The scale runs linearly between this many evenly spaced stops; SVG
/// gradients use them.
constexpr unsigned NumScaleStops = 5;
RGB getScaleStop(unsigned stop);

/// The entry of `value` when `min` maps to 0 and `max` to 255, rounded to the
/// nearest; 0 when min == max.
unsigned getScaleIndex(uint64_t value, uint64_t min, uint64_t max);

/// "#rrggbb".
std::string formatHexColor(RGB color);

/// Fixed colours of the pictures.
namespace colors {
constexpr RGB Background{255, 255, 255};
constexpr RGB Text{0, 0, 0};
/// A PE the run record has no record of (it ran no program).
constexpr RGB NoRecord{224, 224, 224};
/// The core of a PE in a link map when its ramp carried nothing recorded.
constexpr RGB PECore{150, 150, 150};
} // namespace colors

} // namespace tessera::viz

#endif // TESSERA_VIZ_COLORSCALE_H
