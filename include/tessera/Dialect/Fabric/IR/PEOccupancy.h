//===- PEOccupancy.h - first overlap among PE ranges ------------*- C++ -*-===//
//
// The fabric verifier checks that no two placements (or configs of one
// color) share a PE. Comparing ranges pairwise is quadratic, and a layout
// with one program per PE has 745,500 of them, so past a few ranges the
// PEs of the rectangle record which range holds them.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_DIALECT_FABRIC_IR_PEOCCUPANCY_H
#define TESSERA_DIALECT_FABRIC_IR_PEOCCUPANCY_H

#include "tessera/Dialect/Fabric/IR/PERange.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tessera::fabric {

/// Ranges inside a width x height rectangle, added one by one.
class PEOccupancy {
public:
  PEOccupancy(int64_t width, int64_t height) : width(width), height(height) {}

  /// The index of the first earlier range that shares a PE with `range`
  /// (as a pairwise scan in order would find it); when there is none,
  /// records `range` and returns nullopt.
  std::optional<size_t> add(const PERange &range);

private:
  void mark(const PERange &range, uint32_t owner);

  int64_t width, height;
  std::vector<PERange> ranges;
  /// Per PE, 1 + the index of the range holding it, or 0; empty while
  /// ranges are few (or the rectangle too large to map).
  std::vector<uint32_t> owners;
};

} // namespace tessera::fabric

#endif // TESSERA_DIALECT_FABRIC_IR_PEOCCUPANCY_H
