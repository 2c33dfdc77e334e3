//===- HeatMapPainter.h - the grid of a heat map as shapes ------*- C++ -*-===//
//
// Decides once what the grid of a heat map consists of, so that the SVG and
// PNG renderers only translate shapes into their format.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_VIZ_HEATMAPPAINTER_H
#define TESSERA_VIZ_HEATMAPPAINTER_H

#include "tessera/Viz/HeatMap.h"

namespace tessera::viz {

/// A square: a PE's block, a link map's PE core, or the square an arrow
/// fills.
struct GridShape {
  int x = 0, y = 0, size = 0;
  RGB color;
  unsigned peX = 0, peY = 0;
  /// The recorded value, if any.
  std::optional<uint64_t> value;
  /// The link this shape stands for; nullopt for a PE.
  std::optional<Direction> link;
};

class GridCanvas {
public:
  virtual ~GridCanvas() = default;
  virtual void drawSquare(const GridShape &shape) = 0;
  /// An arrow filling `shape`'s square, pointing towards `shape.link`.
  virtual void drawArrow(const GridShape &shape) = 0;
};

/// Draws the cells of every PE, row by row from the top, left to right.
void paintGrid(const HeatMap &map, const HeatMapLayout &layout,
               GridCanvas &canvas);

} // namespace tessera::viz

#endif // TESSERA_VIZ_HEATMAPPAINTER_H
