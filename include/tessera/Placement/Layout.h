//===- Layout.h - rectangles for planned rows -------------------*- C++ -*-===//
//
// Turns rows of kernels into positions: rows are stacked from the top, each
// row's slots stand side by side without gaps and every kernel is centred
// in its band. Which way a row runs and where it starts are chosen row by
// row to shorten the wires to the other rows; shiftKernels then moves
// single kernels within the room their band and neighbours leave.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLACEMENT_LAYOUT_H
#define TESSERA_PLACEMENT_LAYOUT_H

#include "tessera/Placement/StripPacker.h"
#include "tessera/Placement/WireLength.h"

#include <utility>
#include <vector>

namespace tessera::placement {

/// Everything indexed by position in the order.
struct RowsLayout {
  std::vector<Rect> rects;
  /// The band each kernel owns (absolute rows) and the slot it is in,
  /// numbered across the whole grid so that slot s and s + 1 of a row are
  /// neighbours.
  std::vector<int64_t> bandTop, bandHeight;
  std::vector<int> slot;
};

/// `wires` are pairs of positions.
RowsLayout layoutRows(const StripPacker &packer, const std::vector<Row> &rows,
                      const std::vector<std::pair<int, int>> &wires);

/// Moves single kernels within the free space they own (up and down inside
/// their band, sideways up to the neighbouring slots) wherever that
/// shortens their wires; never makes rectangles overlap.
void shiftKernels(const StripPacker &packer, const std::vector<Row> &rows,
                  const std::vector<std::pair<int, int>> &wires,
                  RowsLayout &layout);

} // namespace tessera::placement

#endif // TESSERA_PLACEMENT_LAYOUT_H
