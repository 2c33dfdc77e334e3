//===- FlowProblem.cpp - fabric.flow ops as a routing problem -------------===//

#include "FlowProblem.h"

#include "tessera/Dialect/CSL/IR/CSLTarget.h"
#include "tessera/Target/TargetModel.h"

using namespace tessera;
using namespace tessera::fabric;

routing::RoutingProblem fabric::getMeshProblem(FabricOp fabric) {
  routing::RoutingProblem problem;
  for (RectangleOp rectangle : fabric.getBody().front().getOps<RectangleOp>()) {
    problem.width = static_cast<int>(rectangle.getSize()[0]);
    problem.height = static_cast<int>(rectangle.getSize()[1]);
  }
  const target::TargetModel &model =
      target::TargetModel::get(csl::toTargetArch(fabric.getArch()));
  std::span<const unsigned> reserved;
  if (fabric.getMemcpy())
    reserved = model.getMemcpyReservedColors();
  for (unsigned color = 0; color < model.getNumRoutableColors(); ++color)
    if (!llvm::is_contained(reserved, color))
      problem.colors.push_back(color);
  return problem;
}

std::optional<routing::Flow> fabric::getFlow(FlowOp flow) {
  std::optional<llvm::SmallVector<std::pair<int64_t, int64_t>>> ends =
      flow.getPlacedEnds();
  if (!ends)
    return std::nullopt;
  routing::Flow result;
  result.name = flow.getSymName().str();
  auto toPE = [](std::pair<int64_t, int64_t> end) {
    return routing::PE{static_cast<int>(end.first),
                       static_cast<int>(end.second)};
  };
  result.source = {toPE(ends->front()), routing::Port::Ramp};
  for (std::pair<int64_t, int64_t> sink : llvm::drop_begin(*ends))
    result.sinks.push_back({toPE(sink), routing::Port::Ramp});
  if (auto number = mlir::dyn_cast<mlir::IntegerAttr>(flow.getColor()))
    result.pinnedColor = static_cast<unsigned>(number.getInt());
  return result;
}

std::vector<int64_t> fabric::encodeRoute(const routing::FlowRoute &route) {
  std::vector<int64_t> numbers;
  for (const routing::RouteHop &hop : route.hops) {
    numbers.push_back(hop.pe.x);
    numbers.push_back(hop.pe.y);
    numbers.push_back(routing::getMask(hop.rx));
    numbers.push_back(hop.tx);
  }
  return numbers;
}

routing::FlowRoute fabric::decodeRoute(llvm::ArrayRef<int64_t> route) {
  routing::FlowRoute result;
  for (size_t i = 0; i + 3 < route.size(); i += 4) {
    routing::RouteHop hop;
    hop.pe = {static_cast<int>(route[i]), static_cast<int>(route[i + 1])};
    // The lowest port of the rx mask: coloring needs only the PEs, and
    // configs are written from the masks themselves.
    for (int p = routing::NumPorts - 1; p >= 0; --p)
      if (route[i + 2] & routing::getMask(routing::getPort(p)))
        hop.rx = routing::getPort(p);
    hop.tx = static_cast<routing::PortMask>(route[i + 3]);
    result.hops.push_back(hop);
  }
  return result;
}
