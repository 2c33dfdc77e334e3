//===- HeatMapPainter.cpp - the grid of a heat map as shapes --------------===//

#include "HeatMapPainter.h"

#include "tessera/Viz/ColorScale.h"

using namespace tessera::viz;

namespace {

RGB colorOf(const HeatMap &map, uint64_t value) {
  return getScaleColor(getScaleIndex(value, map.min, map.max));
}

void paintPECell(const HeatMap &map, const HeatMapLayout &layout, unsigned x,
                 unsigned y, GridCanvas &canvas) {
  GridShape shape;
  shape.x = layout.gridX + int(x) * layout.cellSize;
  shape.y = layout.gridY + int(y) * layout.cellSize;
  shape.size = layout.cellSize - (layout.hasGridLines ? 1 : 0);
  shape.peX = x;
  shape.peY = y;
  shape.value = map.peValues[size_t(y) * map.fabricWidth + x];
  shape.color = shape.value ? colorOf(map, *shape.value) : colors::NoRecord;
  canvas.drawSquare(shape);
}

/// A 3 x 3 arrangement of blocks: the core in the middle, each link's arrow
/// in the block on its side; the corners stay blank.
void paintLinkCell(const HeatMap &map, const HeatMapLayout &layout, unsigned x,
                   unsigned y, GridCanvas &canvas) {
  size_t index = size_t(y) * map.fabricWidth + x;
  const auto &links = map.linkValues[index];
  int block = layout.linkBlock;
  int cellX = layout.gridX + int(x) * layout.cellSize;
  int cellY = layout.gridY + int(y) * layout.cellSize;

  GridShape core;
  core.x = cellX + block;
  core.y = cellY + block;
  core.size = block;
  core.peX = x;
  core.peY = y;
  core.link = Direction::Ramp;
  if (const auto &ramp = links[unsigned(Direction::Ramp)]) {
    core.value = *ramp;
    core.color = colorOf(map, *ramp);
  } else {
    core.color = map.hasPERecord[index] ? colors::PECore : colors::NoRecord;
  }
  canvas.drawSquare(core);

  // Block offsets (in blocks) of north, south, east and west.
  static constexpr int Offsets[4][2] = {{1, 0}, {1, 2}, {2, 1}, {0, 1}};
  for (unsigned direction = 0; direction < 4; ++direction) {
    if (!links[direction])
      continue;
    GridShape arrow;
    arrow.x = cellX + Offsets[direction][0] * block;
    arrow.y = cellY + Offsets[direction][1] * block;
    arrow.size = block;
    arrow.peX = x;
    arrow.peY = y;
    arrow.value = *links[direction];
    arrow.link = Direction(direction);
    arrow.color = colorOf(map, *links[direction]);
    canvas.drawArrow(arrow);
  }
}

} // namespace

void tessera::viz::paintGrid(const HeatMap &map, const HeatMapLayout &layout,
                             GridCanvas &canvas) {
  for (unsigned y = 0; y < map.fabricHeight; ++y)
    for (unsigned x = 0; x < map.fabricWidth; ++x) {
      if (map.showsLinks)
        paintLinkCell(map, layout, x, y, canvas);
      else
        paintPECell(map, layout, x, y, canvas);
    }
}
