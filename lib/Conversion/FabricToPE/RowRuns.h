//===- RowRuns.h - strided PE ranges as sorted row runs ---------*- C++ -*-===//
//
// The fabric file stores placements and routes as row runs: PEs
// (x .. x+length-1, y) sharing one value, sorted by (y, x), disjoint and
// merged with equal neighbours. Plain C++ (no MLIR): a range adds one
// segment per row (or per PE when it skips columns), so a layout with one
// op per PE costs one segment per PE and a sort, never a per-PE map.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_LIB_CONVERSION_FABRICTOPE_ROWRUNS_H
#define TESSERA_LIB_CONVERSION_FABRICTOPE_ROWRUNS_H

#include "tessera/Dialect/Fabric/IR/PERange.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace tessera::fabric {

/// PEs (x .. x+length-1, y) carry `value`.
struct RowRun {
  uint32_t x = 0, y = 0, length = 1;
  uint32_t value = 0;
  bool operator==(const RowRun &) const = default;
};

class RowRunBuilder {
public:
  /// Adds the PEs of `range`, which lies in the first quadrant below 2^32,
  /// with `value`.
  void add(const PERange &range, uint32_t value);

  /// The runs sorted by (y, x); neighbours on a row merge when
  /// `sameValue(left, right)` holds (a merged run keeps the left value).
  /// When two ranges share a PE, returns the first shared PE, (x, y) in
  /// (y, x) order, and leaves `runs` unspecified.
  std::optional<std::pair<uint32_t, uint32_t>>
  build(llvm::function_ref<bool(uint32_t, uint32_t)> sameValue,
        std::vector<RowRun> &runs);

private:
  std::vector<RowRun> segments;
};

} // namespace tessera::fabric

#endif // TESSERA_LIB_CONVERSION_FABRICTOPE_ROWRUNS_H
