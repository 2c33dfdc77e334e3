//===- RegionPlacement.cpp - Put a layout's code regions in place ---------===//

#include "tessera/Frontend/Elaboration/RegionPlacement.h"

#include "tessera/Placement/RegionPlacer.h"

using namespace tessera;
using namespace tessera::frontend;
using namespace tessera::frontend::elaboration;

namespace {

std::string formatPE(PEPos pe) {
  return "PE (" + std::to_string(pe.first) + ", " + std::to_string(pe.second) +
         ")";
}

} // namespace

bool elaboration::placeLayoutRegions(LayoutDescription &layout,
                                     sema::DiagnosticEngine &diags) {
  if (layout.regions.empty())
    return true;
  placement::RegionProblem problem;
  problem.width = static_cast<int>(layout.rectangle->first);
  problem.height = static_cast<int>(layout.rectangle->second);
  for (const LayoutRegion &region : layout.regions) {
    placement::CodeRegion placed{region.name, static_cast<int>(region.width),
                                 static_cast<int>(region.height), std::nullopt};
    if (region.origin)
      placed.origin =
          placement::RegionPoint{static_cast<int>(region.origin->first),
                                 static_cast<int>(region.origin->second)};
    problem.regions.push_back(placed);
  }
  // Tiles the layout places itself are taken.
  for (const auto &[y, runs] : layout.placement.getRows())
    for (const Run &run : runs)
      for (int64_t x = run.begin; x < run.end; ++x)
        problem.blocked.push_back({static_cast<int>(x), static_cast<int>(y)});
  auto toPoint = [](PEPos pe) {
    return placement::RegionPoint{static_cast<int>(pe.first),
                                  static_cast<int>(pe.second)};
  };
  for (const Connection &connection : layout.connections)
    for (const PERef &sink : connection.to)
      if (connection.from.region && sink.region)
        problem.connections.push_back(
            {static_cast<int>(*connection.from.region),
             static_cast<int>(*sink.region), toPoint(connection.from.pe),
             toPoint(sink.pe), 1});

  placement::RegionPlacement result = placement::placeRegions(problem);
  if (!result.succeeded()) {
    // At the region the error is about, else at the first one to place.
    llvm::SMLoc loc = layout.regions.front().loc;
    if (result.failedRegion)
      loc = layout.regions[*result.failedRegion].loc;
    else
      for (const LayoutRegion &region : layout.regions)
        if (!region.origin) {
          loc = region.loc;
          break;
        }
    diags.error(loc, "cannot place the layout's code regions: " +
                         result.errors.front());
    return false;
  }
  for (size_t i = 0; i < layout.regions.size(); ++i) {
    layout.regions[i].placedByCompiler = !layout.regions[i].origin;
    layout.regions[i].origin = PEPos{result.origins[i].x, result.origins[i].y};
  }

  auto absolute = [&](unsigned region, PEPos local) {
    PEPos origin = *layout.regions[region].origin;
    return PEPos{origin.first + local.first, origin.second + local.second};
  };
  for (const RegionTile &tile : layout.regionTiles) {
    PEPos pe = absolute(tile.region, tile.local);
    if (std::optional<Run> first =
            layout.placement.set(pe.first, pe.second, tile.program, tile.loc)) {
      diags.error(tile.loc, formatPE(pe) + " is given code twice");
      diags.note(first->loc, "first given code here");
      return false;
    }
  }
  for (const RegionColorConfig &config : layout.regionConfigs) {
    PEPos pe = absolute(config.region, config.local);
    if (std::optional<Run> first = layout.colorConfigs[config.color].set(
            pe.first, pe.second, config.config, config.loc)) {
      diags.error(config.loc, layout.describeColor(config.color) + " of " +
                                  formatPE(pe) + " is configured twice");
      diags.note(first->loc, "first configured here");
      return false;
    }
  }
  auto resolve = [&](PERef &ref) {
    if (ref.region)
      ref = PERef{std::nullopt, absolute(*ref.region, ref.pe)};
  };
  for (Connection &connection : layout.connections) {
    resolve(connection.from);
    for (PERef &sink : connection.to)
      resolve(sink);
  }
  for (HostStream &stream : layout.hostStreams)
    resolve(stream.pe);
  return true;
}
