//===- VerifyRoutes.cpp - tessera-verify-routes ---------------------------===//
//
// A thin adapter: each fabric.color_config becomes a ColorRoute, and every
// problem RouteChecker finds is an error (or a warning) at the op, whose
// location MLIRGen sets to the @set_color_config call.
//
//===----------------------------------------------------------------------===//

#include "tessera/Dialect/Fabric/Transforms/Passes.h"

#include "RouteChecker.h"

#include "tessera/Dialect/CSL/IR/CSLTarget.h"

namespace tessera::fabric {
#define GEN_PASS_DEF_VERIFYROUTES
#include "tessera/Dialect/Fabric/Transforms/Passes.h.inc"
} // namespace tessera::fabric

using namespace tessera;
using namespace tessera::fabric;

namespace {

RoutePort toRoutePort(Direction direction) {
  switch (direction) {
  case Direction::West:
    return RoutePort::West;
  case Direction::East:
    return RoutePort::East;
  case Direction::South:
    return RoutePort::South;
  case Direction::North:
    return RoutePort::North;
  case Direction::Ramp:
    return RoutePort::Ramp;
  }
  return RoutePort::Ramp;
}

// The dialect's direction sets use the color config word's bits.
static_assert(static_cast<uint32_t>(DirectionSet::West) ==
                  routePortBit(RoutePort::West) &&
              static_cast<uint32_t>(DirectionSet::East) ==
                  routePortBit(RoutePort::East) &&
              static_cast<uint32_t>(DirectionSet::South) ==
                  routePortBit(RoutePort::South) &&
              static_cast<uint32_t>(DirectionSet::North) ==
                  routePortBit(RoutePort::North) &&
              static_cast<uint32_t>(DirectionSet::Ramp) ==
                  routePortBit(RoutePort::Ramp));

ColorRoute toColorRoute(ColorConfigOp config) {
  ColorRoute route;
  route.range = config.getRange();
  route.color = static_cast<int64_t>(config.getColor());
  route.rx = static_cast<uint8_t>(config.getRx());
  route.tx = static_cast<uint8_t>(config.getTx());
  for (SwitchPositionAttr position : config.getSwitchPositions())
    route.positions.push_back({position.getSide() == RouteSide::Rx,
                               toRoutePort(position.getDirection())});
  route.setsCurrentPosition = config.getCurrentSwitchPos().has_value();
  route.setsRingMode = config.getRingMode();
  return route;
}

struct VerifyRoutesPass
    : tessera::fabric::impl::VerifyRoutesBase<VerifyRoutesPass> {
  void runOnOperation() override {
    FabricOp fabric = getOperation();
    llvm::ArrayRef<int64_t> dims = fabric.getDims();
    llvm::ArrayRef<int64_t> offsets = fabric.getOffsets();
    mlir::Block &body = fabric.getBody().front();
    // The verifier ensures one rectangle; without it nothing converges.
    int64_t width = 0, height = 0;
    for (RectangleOp rectangle : body.getOps<RectangleOp>()) {
      width = rectangle.getSize()[0];
      height = rectangle.getSize()[1];
    }
    FabricGeometry geometry{dims[0],    dims[1], offsets[0],
                            offsets[1], width,   height};
    const target::TargetModel &model =
        target::TargetModel::get(csl::toTargetArch(fabric.getArch()));
    std::span<const unsigned> reserved;
    if (fabric.getMemcpy())
      reserved = model.getMemcpyReservedColors();
    RouteChecker checker(geometry, reserved);

    // Converging streams depend on the neighbours' routes, so the checker
    // sees all of them at once.
    auto configOps = body.getOps<ColorConfigOp>();
    std::vector<ColorConfigOp> configs;
    std::vector<ColorRoute> routes;
    configs.reserve(llvm::range_size(configOps));
    routes.reserve(configs.capacity());
    for (ColorConfigOp config : configOps) {
      configs.push_back(config);
      routes.push_back(toColorRoute(config));
    }
    bool failed = false;
    for (const RouteProblem &problem : checker.checkAll(routes)) {
      mlir::InFlightDiagnostic diag =
          configs[problem.route].emitError(problem.message);
      for (const auto &[sender, pe] : problem.senders)
        diag.attachNote(configs[sender].getLoc())
            << "PE (" << pe.first << ", " << pe.second << ") sends it here";
      failed = true;
    }
    if (failed)
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
