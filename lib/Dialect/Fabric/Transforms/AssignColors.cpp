//===- AssignColors.cpp - tessera-assign-colors ---------------------------===//
//
// A thin adapter over TesseraRouting's color assigner. Each color symbol,
// and each physical color a flow is pinned to, is one group: the PEs its
// flows cross, plus, for a physical color, the PEs where a fabric.color_config
// already configures it there. Groups meeting at a PE get distinct colors.
// Then every routed flow becomes fabric.color_config ops of its color,
// instance params naming a symbol get the number, and the symbols go.
//
//===----------------------------------------------------------------------===//

#include "tessera/Dialect/Fabric/Transforms/Passes.h"

#include "FlowProblem.h"

#include "tessera/Routing/ColorAssigner.h"

#include "mlir/IR/Builders.h"

#include <map>
#include <set>
#include <variant>

namespace tessera::fabric {
#define GEN_PASS_DEF_ASSIGNCOLORS
#include "tessera/Dialect/Fabric/Transforms/Passes.h.inc"
} // namespace tessera::fabric

using namespace tessera;
using namespace tessera::fabric;

namespace {

/// A group's key: a symbol's name, or a physical color.
using GroupKey = std::variant<std::string, int64_t>;

GroupKey getKey(FlowOp flow) {
  if (auto symbol = mlir::dyn_cast<mlir::FlatSymbolRefAttr>(flow.getColor()))
    return symbol.getValue().str();
  return mlir::cast<mlir::IntegerAttr>(flow.getColor()).getInt();
}

std::string describe(const GroupKey &key) {
  if (const std::string *name = std::get_if<std::string>(&key))
    return "@" + *name;
  return "color " + std::to_string(std::get<int64_t>(key));
}

struct AssignColorsPass
    : tessera::fabric::impl::AssignColorsBase<AssignColorsPass> {
  void runOnOperation() override {
    FabricOp fabric = getOperation();
    mlir::Block &body = fabric.getBody().front();
    routing::RoutingProblem problem = getMeshProblem(fabric);

    std::map<GroupKey, std::set<routing::PE>> groups;
    std::vector<FlowOp> flows;
    for (ColorSymbolOp symbol : body.getOps<ColorSymbolOp>())
      groups[GroupKey(symbol.getSymName().str())];
    for (FlowOp flow : body.getOps<FlowOp>()) {
      std::optional<llvm::ArrayRef<int64_t>> route = flow.getRoute();
      if (!route) {
        flow.emitError("flow has no route: run tessera-route-flows first");
        return signalPassFailure();
      }
      flows.push_back(flow);
      std::set<routing::PE> &pes = groups[getKey(flow)];
      for (const routing::RouteHop &hop : decodeRoute(*route).hops)
        pes.insert(hop.pe);
    }
    if (groups.empty())
      return;
    // A physical color configured by hand where flows pass takes part too.
    std::set<routing::PE> crossed;
    for (const auto &[key, pes] : groups)
      crossed.insert(pes.begin(), pes.end());
    for (ColorConfigOp config : body.getOps<ColorConfigOp>()) {
      PERange range = config.getRange();
      if (!llvm::is_contained(problem.colors,
                              static_cast<unsigned>(config.getColor())))
        continue;
      for (routing::PE pe : crossed)
        if (range.contains(pe.x, pe.y))
          groups[GroupKey(static_cast<int64_t>(config.getColor()))].insert(pe);
    }

    std::vector<GroupKey> keys;
    std::vector<routing::ColorGroup> colorGroups;
    for (const auto &[key, pes] : groups) {
      std::optional<unsigned> pinned;
      if (const int64_t *color = std::get_if<int64_t>(&key))
        pinned = static_cast<unsigned>(*color);
      colorGroups.push_back(
          {describe(key), std::vector<routing::PE>(pes.begin(), pes.end()),
           pinned});
      keys.push_back(key);
    }
    routing::ColoringResult result = routing::assignGroupColors(
        problem.width, problem.height, problem.colors, colorGroups);
    if (!result.succeeded()) {
      fabric.emitError(result.errors.front());
      return signalPassFailure();
    }
    std::map<GroupKey, unsigned> colors;
    for (size_t i = 0; i < keys.size(); ++i)
      colors[keys[i]] = result.colors[i];

    mlir::OpBuilder builder(&getContext());
    for (FlowOp flow : flows) {
      builder.setInsertionPoint(flow);
      llvm::ArrayRef<int64_t> route = *flow.getRoute();
      for (size_t i = 0; i + 3 < route.size(); i += 4)
        ColorConfigOp::create(builder, flow.getLoc(), colors[getKey(flow)],
                              {route[i], route[i + 1]}, /*size=*/{},
                              /*step=*/{},
                              static_cast<DirectionSet>(route[i + 2]),
                              static_cast<DirectionSet>(route[i + 3]), {}, {},
                              {}, {}, false, {}, {}, false, false, false);
      flow.erase();
    }
    // Params naming a symbol get the number, as FabricGen writes colors.
    for (InstanceOp instance : body.getOps<InstanceOp>()) {
      mlir::DictionaryAttr params = instance.getParamsAttr();
      if (!params)
        continue;
      llvm::SmallVector<mlir::NamedAttribute> entries;
      bool changed = false;
      for (mlir::NamedAttribute entry : params) {
        auto symbol = mlir::dyn_cast<mlir::FlatSymbolRefAttr>(entry.getValue());
        auto it = symbol ? colors.find(GroupKey(symbol.getValue().str()))
                         : colors.end();
        if (it == colors.end()) {
          entries.push_back(entry);
          continue;
        }
        changed = true;
        entries.push_back(builder.getNamedAttr(
            entry.getName(),
            builder.getDictionaryAttr(builder.getNamedAttr(
                "csl.color", builder.getI64IntegerAttr(it->second)))));
      }
      if (changed)
        instance.setParamsAttr(builder.getDictionaryAttr(entries));
    }
    for (ColorSymbolOp symbol :
         llvm::make_early_inc_range(body.getOps<ColorSymbolOp>()))
      symbol.erase();
  }
};

} // namespace
