//===- FabricToPE.cpp - the fabric file from the fabric dialect -----------===//
//
// Header fields come from the fabric op, placement runs from fabric.place
// and route runs from fabric.color_config; RowRunBuilder turns their ranges
// into the file's sorted, merged row runs. Coordinates stay relative to the
// rectangle, as in the dialect and the file.
//
//===----------------------------------------------------------------------===//

#include "tessera/Conversion/FabricToPE/FabricToPE.h"

#include "RouterConfig.h"
#include "RowRuns.h"

#include "tessera/Dialect/CSL/IR/CSLTarget.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::fabric;

namespace {

/// "(3, 4)"
std::string formatPE(int64_t x, int64_t y) {
  return "(" + std::to_string(x) + ", " + std::to_string(y) + ")";
}

class FabricFileBuilder {
public:
  FabricFileBuilder(FabricOp fabric,
                    const llvm::StringMap<uint16_t> &programIndex,
                    pe::FabricFile &file)
      : fabric(fabric), programIndex(programIndex), file(file) {}

  LogicalResult run() {
    if (failed(buildHeader()))
      return failure();
    // Both, so that one run reports the errors of both.
    bool placed = succeeded(buildPlacement());
    bool routed = succeeded(buildRoutes());
    return success(placed && routed);
  }

private:
  LogicalResult buildHeader();
  LogicalResult buildPlacement();
  LogicalResult buildRoutes();
  /// The program index of `instance`, or a diagnostic at it (once).
  std::optional<uint16_t> getProgram(InstanceOp instance);
  /// Guards against IR the verifier would reject: the range must lie in the
  /// rectangle, so that coordinates fit the file and the runs stay small.
  LogicalResult checkRange(Operation *op, const PERange &range);

  FabricOp fabric;
  const llvm::StringMap<uint16_t> &programIndex;
  pe::FabricFile &file;
  /// Resolved instances; nullopt once reported.
  llvm::DenseMap<Operation *, std::optional<uint16_t>> programs;
};

} // namespace

LogicalResult FabricFileBuilder::buildHeader() {
  RectangleOp rectangle;
  for (auto op : fabric.getBody().front().getOps<RectangleOp>()) {
    rectangle = op;
    break;
  }
  if (!rectangle)
    return fabric.emitError() << "the fabric has no fabric.rectangle";

  ArrayRef<int64_t> dims = fabric.getDims();
  ArrayRef<int64_t> offsets = fabric.getOffsets();
  ArrayRef<int64_t> size = rectangle.getSize();
  auto fits = [](ArrayRef<int64_t> pair) {
    return pair[0] >= 0 && pair[0] <= UINT16_MAX && pair[1] >= 0 &&
           pair[1] <= UINT16_MAX;
  };
  for (auto [name, pair] : {std::pair{"dims", dims},
                            {"offsets", offsets},
                            {"rectangle size", size}})
    if (!fits(pair))
      return fabric.emitError()
             << name << " " << formatPE(pair[0], pair[1])
             << " do not fit the fabric file's 16 bits (0..65535)";

  file.arch = csl::toTargetArch(fabric.getArch());
  file.dimsWidth = dims[0];
  file.dimsHeight = dims[1];
  file.offsetX = offsets[0];
  file.offsetY = offsets[1];
  file.rectWidth = size[0];
  file.rectHeight = size[1];
  file.memcpy = fabric.getMemcpy();
  // cslc's --channels defaults to 1 under --memcpy; without memcpy there
  // are none.
  file.channels = fabric.getChannels().value_or(file.memcpy ? 1 : 0);
  return success();
}

LogicalResult FabricFileBuilder::checkRange(Operation *op,
                                            const PERange &range) {
  if (range.x >= 0 && range.y >= 0 && range.width >= 1 && range.height >= 1 &&
      range.stepX >= 1 && range.stepY >= 1 && range.lastX() < file.rectWidth &&
      range.lastY() < file.rectHeight)
    return success();
  return op->emitError() << "the range at " << formatPE(range.x, range.y)
                         << " does not lie inside the " << file.rectWidth << "x"
                         << file.rectHeight << " rectangle";
}

std::optional<uint16_t> FabricFileBuilder::getProgram(InstanceOp instance) {
  auto [it, inserted] = programs.try_emplace(instance, std::nullopt);
  if (!inserted)
    return it->second;
  FlatSymbolRefAttr program = instance.getProgramAttr();
  if (!program) {
    instance.emitError() << "instance '" << instance.getSymName()
                         << "' is placed but names no csl.program";
    return std::nullopt;
  }
  auto index = programIndex.find(program.getValue());
  if (index == programIndex.end()) {
    instance.emitError() << "program '" << program.getValue()
                         << "' of instance '" << instance.getSymName()
                         << "' has no program binary";
    return std::nullopt;
  }
  if (index->second >= file.programs.size()) {
    size_t count = file.programs.size();
    instance.emitError() << "program '" << program.getValue()
                         << "' has binary index " << index->second
                         << ", but the fabric file lists " << count
                         << (count == 1 ? " program" : " programs");
    return std::nullopt;
  }
  return it->second = index->second;
}

LogicalResult FabricFileBuilder::buildPlacement() {
  Block &body = fabric.getBody().front();
  // The fabric's symbol table would scan the body per lookup.
  llvm::DenseMap<StringAttr, InstanceOp> instances;
  for (InstanceOp instance : body.getOps<InstanceOp>())
    instances.try_emplace(instance.getSymNameAttr(), instance);

  RowRunBuilder builder;
  bool ok = true;
  for (PlaceOp place : body.getOps<PlaceOp>()) {
    InstanceOp instance = instances.lookup(place.getInstanceAttr().getAttr());
    if (!instance) {
      place.emitError() << "'" << place.getInstance()
                        << "' does not name a fabric.instance";
      ok = false;
      continue;
    }
    std::optional<PERange> placed = place.getPlacedRange();
    if (!placed) {
      place.emitError() << "'" << place.getInstance()
                        << "' is placed in a code region without a position: "
                           "run tessera-place-regions first";
      ok = false;
      continue;
    }
    std::optional<uint16_t> program = getProgram(instance);
    PERange range = *placed;
    if (!program || failed(checkRange(place, range))) {
      ok = false;
      continue;
    }
    builder.add(range, *program);
  }
  if (!ok)
    return failure();

  std::vector<RowRun> runs;
  if (auto pe = builder.build(
          [](uint32_t left, uint32_t right) { return left == right; }, runs))
    return fabric.emitError()
           << "PE " << formatPE(pe->first, pe->second) << " is placed twice";
  file.placement.clear();
  file.placement.reserve(runs.size());
  for (const RowRun &run : runs)
    file.placement.push_back({uint16_t(run.x), uint16_t(run.y),
                              uint16_t(run.length), uint16_t(run.value)});
  return success();
}

LogicalResult FabricFileBuilder::buildRoutes() {
  const target::TargetModel &model = target::TargetModel::get(file.arch);
  unsigned numColors = model.getNumRoutableColors();
  std::vector<RowRunBuilder> byColor(numColors);
  // One config per op, shared with the op before when equal: layouts often
  // repeat one config over many single-PE ops.
  std::vector<pe::RouterConfig> configs;
  bool ok = true;
  for (ColorConfigOp op : fabric.getBody().front().getOps<ColorConfigOp>()) {
    int64_t color = static_cast<int64_t>(op.getColor());
    PERange range = op.getRange();
    if (color < 0 || color >= numColors) {
      op.emitError() << "color " << color << " is not routable on "
                     << model.getName();
      ok = false;
      continue;
    }
    FailureOr<pe::RouterConfig> config = toRouterConfig(op);
    if (failed(config) || failed(checkRange(op, range))) {
      ok = false;
      continue;
    }
    if (configs.empty() || !(configs.back() == *config))
      configs.push_back(*config);
    byColor[color].add(range, configs.size() - 1);
  }
  if (!ok)
    return failure();

  auto sameConfig = [&](uint32_t left, uint32_t right) {
    return left == right || configs[left] == configs[right];
  };
  file.routes.clear();
  for (unsigned color = 0; color < numColors; ++color) {
    std::vector<RowRun> runs;
    if (auto pe = byColor[color].build(sameConfig, runs))
      return fabric.emitError()
             << "color " << color << " of PE "
             << formatPE(pe->first, pe->second) << " is configured twice";
    for (const RowRun &run : runs) {
      pe::RouteRun route;
      route.color = color;
      route.x = run.x;
      route.y = run.y;
      route.length = run.length;
      route.config = configs[run.value];
      file.routes.push_back(route);
    }
  }
  return success();
}

LogicalResult
tessera::buildFabricFile(FabricOp fabric,
                         const llvm::StringMap<uint16_t> &programIndex,
                         pe::FabricFile &file) {
  return FabricFileBuilder(fabric, programIndex, file).run();
}
