//===- PlaceRegions.cpp - tessera-place-regions ---------------------------===//
//
// A thin adapter over TesseraPlacement's region placer: the code regions
// are the problem's regions, flows between their PEs its connections, and
// PEs placed outside any region are taken. Regions without a position get
// the placer's origin as `at`.
//
//===----------------------------------------------------------------------===//

#include "tessera/Dialect/Fabric/Transforms/Passes.h"

#include "tessera/Placement/RegionPlacer.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace tessera::fabric {
#define GEN_PASS_DEF_PLACEREGIONS
#include "tessera/Dialect/Fabric/Transforms/Passes.h.inc"
} // namespace tessera::fabric

using namespace tessera;
using namespace tessera::fabric;

namespace {

placement::RegionPoint toPoint(int64_t x, int64_t y) {
  return {static_cast<int>(x), static_cast<int>(y)};
}

struct PlaceRegionsPass
    : tessera::fabric::impl::PlaceRegionsBase<PlaceRegionsPass> {
  void runOnOperation() override {
    FabricOp fabric = getOperation();
    mlir::Block &body = fabric.getBody().front();
    placement::RegionProblem problem;
    for (RectangleOp rectangle : body.getOps<RectangleOp>()) {
      problem.width = static_cast<int>(rectangle.getSize()[0]);
      problem.height = static_cast<int>(rectangle.getSize()[1]);
    }

    std::vector<CodeRegionOp> regions;
    llvm::DenseMap<mlir::StringAttr, int> indexOf;
    for (CodeRegionOp region : body.getOps<CodeRegionOp>()) {
      indexOf[region.getSymNameAttr()] = static_cast<int>(regions.size());
      regions.push_back(region);
      placement::CodeRegion placed;
      placed.name = region.getSymName().str();
      placed.width = static_cast<int>(region.getSize()[0]);
      placed.height = static_cast<int>(region.getSize()[1]);
      if (std::optional<llvm::ArrayRef<int64_t>> origin = region.getOrigin())
        placed.origin = toPoint((*origin)[0], (*origin)[1]);
      problem.regions.push_back(placed);
    }
    if (llvm::none_of(regions, [](CodeRegionOp r) { return !r.getOrigin(); }))
      return;

    for (PlaceOp place : body.getOps<PlaceOp>()) {
      if (place.getCodeRegionAttr())
        continue;
      PERange range = place.getRange();
      for (int64_t y = range.y; y <= range.lastY(); y += range.stepY)
        for (int64_t x = range.x; x <= range.lastX(); x += range.stepX)
          problem.blocked.push_back(toPoint(x, y));
    }

    for (FlowOp flow : body.getOps<FlowOp>()) {
      mlir::ArrayAttr ends = flow.getEndsInAttr();
      if (!ends)
        continue;
      auto regionOf = [&](size_t end) {
        auto ref = mlir::cast<mlir::FlatSymbolRefAttr>(ends[end]);
        return indexOf.lookup(ref.getAttr());
      };
      llvm::ArrayRef<int64_t> from = flow.getFrom();
      for (auto [i, sink] : llvm::enumerate(flow.getSinks()))
        problem.connections.push_back({regionOf(0), regionOf(i + 1),
                                       toPoint(from[0], from[1]),
                                       toPoint(sink.first, sink.second), 1});
    }

    placement::RegionPlacement result = placement::placeRegions(problem);
    if (!result.succeeded()) {
      // At the region the error is about, else at the first one to place.
      CodeRegionOp at = result.failedRegion ? regions[*result.failedRegion]
                                            : *llvm::find_if(regions, [](auto r) {
                                                return !r.getOrigin();
                                              });
      at.emitError("cannot place the code regions: ") << result.errors.front();
      return signalPassFailure();
    }
    mlir::Builder builder(&getContext());
    for (auto [region, origin] : llvm::zip(regions, result.origins))
      if (!region.getOrigin())
        region.setOriginAttr(builder.getDenseI64ArrayAttr({origin.x, origin.y}));
  }
};

} // namespace
