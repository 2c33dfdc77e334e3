//===- CodeRegions.cpp - ops given in a code region's coordinates ---------===//
//
// A fabric.place or fabric.flow may name code regions; everything that
// needs positions in the rectangle reads them through these, so a region
// the user fixed works at once and one the compiler places works once
// tessera-place-regions has given it an origin.
//
//===----------------------------------------------------------------------===//

#include "tessera/Dialect/Fabric/IR/FabricOps.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::fabric;

namespace {

/// The origin of the code region `ref` names, if it is one with a position.
std::optional<std::pair<int64_t, int64_t>> getOriginOf(Operation *user,
                                                       Attribute ref) {
  auto symbol = dyn_cast_if_present<FlatSymbolRefAttr>(ref);
  if (!symbol)
    return std::nullopt;
  auto region =
      SymbolTable::lookupNearestSymbolFrom<CodeRegionOp>(user, symbol);
  if (!region || !region.getOrigin())
    return std::nullopt;
  ArrayRef<int64_t> origin = *region.getOrigin();
  return std::make_pair(origin[0], origin[1]);
}

} // namespace

std::optional<PERange> PlaceOp::getPlacedRange() {
  PERange range = getRange();
  if (!getCodeRegionAttr())
    return range;
  std::optional<std::pair<int64_t, int64_t>> origin =
      getOriginOf(*this, getCodeRegionAttr());
  if (!origin)
    return std::nullopt;
  range.x += origin->first;
  range.y += origin->second;
  return range;
}

std::optional<SmallVector<std::pair<int64_t, int64_t>>>
FlowOp::getPlacedEnds() {
  SmallVector<std::pair<int64_t, int64_t>> ends;
  ends.emplace_back(getFrom()[0], getFrom()[1]);
  ends.append(getSinks());
  ArrayAttr regions = getEndsInAttr();
  if (!regions)
    return ends;
  if (regions.size() != ends.size())
    return std::nullopt; // the verifier reports it
  for (auto [end, region] : llvm::zip(ends, regions)) {
    std::optional<std::pair<int64_t, int64_t>> origin =
        getOriginOf(*this, region);
    if (!origin)
      return std::nullopt;
    end.first += origin->first;
    end.second += origin->second;
  }
  return ends;
}
