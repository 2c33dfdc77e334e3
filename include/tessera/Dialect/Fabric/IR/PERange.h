//===- PERange.h - a strided rectangular range of PEs -----------*- C++ -*-===//
#ifndef TESSERA_DIALECT_FABRIC_IR_PERANGE_H
#define TESSERA_DIALECT_FABRIC_IR_PERANGE_H

#include <cstdint>
#include <optional>
#include <utility>

namespace tessera::fabric {

/// The PEs (x + i * stepX, y + j * stepY) that lie inside the box of
/// width x height at (x, y). Placements and color configurations cover such
/// ranges, so a pattern repeated over the wafer is one operation.
struct PERange {
  int64_t x = 0;
  int64_t y = 0;
  int64_t width = 1;
  int64_t height = 1;
  int64_t stepX = 1;
  int64_t stepY = 1;

  bool contains(int64_t px, int64_t py) const;
  /// The last column and row the range covers.
  int64_t lastX() const { return x + (width - 1) / stepX * stepX; }
  int64_t lastY() const { return y + (height - 1) / stepY * stepY; }
  /// The first PE (by column, then row) that both ranges cover.
  std::optional<std::pair<int64_t, int64_t>>
  firstCommonPE(const PERange &other) const;
};

} // namespace tessera::fabric

#endif // TESSERA_DIALECT_FABRIC_IR_PERANGE_H
