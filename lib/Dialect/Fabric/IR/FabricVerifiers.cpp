//===- FabricVerifiers.cpp - invariants of the fabric dialect -------------===//

#include "tessera/Dialect/Fabric/IR/FabricOps.h"
#include "tessera/Dialect/Fabric/IR/PEOccupancy.h"

#include "tessera/Dialect/CSL/IR/CSLOps.h"
#include "tessera/Dialect/CSL/IR/CSLTarget.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

#include <map>

using namespace mlir;
using namespace tessera;
using namespace tessera::fabric;

using target::TargetModel;

namespace {

const TargetModel &getTarget(csl::Arch arch) {
  return TargetModel::get(csl::toTargetArch(arch));
}

/// "(3, 4)"
std::string formatPE(int64_t x, int64_t y) {
  return "(" + std::to_string(x) + ", " + std::to_string(y) + ")";
}

PERange makeRange(ArrayRef<int64_t> origin,
                  std::optional<ArrayRef<int64_t>> size,
                  std::optional<ArrayRef<int64_t>> step) {
  PERange range;
  range.x = origin[0];
  range.y = origin[1];
  if (size) {
    range.width = (*size)[0];
    range.height = (*size)[1];
  }
  if (step) {
    range.stepX = (*step)[0];
    range.stepY = (*step)[1];
  }
  return range;
}

LogicalResult verifyRange(Operation *op, ArrayRef<int64_t> origin,
                          std::optional<ArrayRef<int64_t>> size,
                          std::optional<ArrayRef<int64_t>> step) {
  if (origin[0] < 0 || origin[1] < 0)
    return op->emitOpError() << "origin must be non-negative, got "
                             << formatPE(origin[0], origin[1]);
  if (size && ((*size)[0] < 1 || (*size)[1] < 1))
    return op->emitOpError()
           << "size must be positive, got " << formatPE((*size)[0], (*size)[1]);
  if (step && ((*step)[0] < 1 || (*step)[1] < 1))
    return op->emitOpError()
           << "step must be positive, got " << formatPE((*step)[0], (*step)[1]);
  return success();
}

LogicalResult reportOverlap(Operation *second, Operation *first,
                            const Twine &message, const Twine &note) {
  InFlightDiagnostic diag = second->emitOpError() << message;
  diag.attachNote(first->getLoc()) << note;
  return diag;
}

bool isABIScalar(Type type) {
  return type.isIntOrFloat() && (type.getIntOrFloatBitWidth() == 16 ||
                                 type.getIntOrFloatBitWidth() == 32);
}

/// Fixed code regions lie in the rectangle and apart; ops given in a
/// region's coordinates name one and stay inside it.
LogicalResult verifyCodeRegions(FabricOp fabric, int64_t width,
                                int64_t height) {
  Block &body = fabric.getBody().front();
  SmallVector<std::pair<CodeRegionOp, PERange>> fixed;
  PEOccupancy occupied(width, height);
  for (CodeRegionOp region : body.getOps<CodeRegionOp>()) {
    std::optional<ArrayRef<int64_t>> origin = region.getOrigin();
    if (!origin)
      continue;
    PERange box{(*origin)[0], (*origin)[1], region.getSize()[0],
                region.getSize()[1]};
    if (box.lastX() >= width || box.lastY() >= height)
      return region.emitOpError()
             << "at " << formatPE(box.x, box.y) << " covers PE "
             << formatPE(box.lastX(), box.lastY()) << ", outside the "
             << width << "x" << height << " rectangle";
    if (std::optional<size_t> index = occupied.add(box)) {
      auto &[earlier, earlierBox] = fixed[*index];
      auto pe = box.firstCommonPE(earlierBox);
      return reportOverlap(region, earlier,
                           "overlaps code region '" + earlier.getSymName() +
                               "' at PE " + formatPE(pe->first, pe->second),
                           "'" + earlier.getSymName() + "' is here");
    }
    fixed.emplace_back(region, box);
  }

  // The region `ref` names, and whether (x, y) lies in it.
  auto lookup = [&](Operation *user, Attribute ref) -> CodeRegionOp {
    auto symbol = cast<FlatSymbolRefAttr>(ref);
    auto region = fabric.lookupSymbol<CodeRegionOp>(symbol);
    if (!region)
      user->emitOpError() << "'" << symbol.getValue()
                          << "' does not name a fabric.code_region";
    return region;
  };
  auto outside = [](CodeRegionOp region, int64_t x, int64_t y) {
    return x >= region.getSize()[0] || y >= region.getSize()[1];
  };
  auto describe = [](CodeRegionOp region) {
    return std::to_string(region.getSize()[0]) + "x" +
           std::to_string(region.getSize()[1]) + " code region '" +
           region.getSymName().str() + "'";
  };

  for (PlaceOp place : body.getOps<PlaceOp>()) {
    if (!place.getCodeRegionAttr())
      continue;
    CodeRegionOp region = lookup(place, place.getCodeRegionAttr());
    if (!region)
      return failure();
    PERange range = place.getRange();
    if (outside(region, range.lastX(), range.lastY()))
      return place.emitOpError()
             << "covers PE " << formatPE(range.lastX(), range.lastY())
             << ", outside the " << describe(region);
  }

  for (FlowOp flow : body.getOps<FlowOp>()) {
    ArrayAttr regions = flow.getEndsInAttr();
    if (!regions)
      continue;
    SmallVector<std::pair<int64_t, int64_t>> ends = {
        {flow.getFrom()[0], flow.getFrom()[1]}};
    ends.append(flow.getSinks());
    if (regions.size() != ends.size())
      return flow.emitOpError()
             << "'in' names " << regions.size() << " code regions for "
             << ends.size() << " ends (the source, then each sink)";
    for (auto [i, end] : llvm::enumerate(ends)) {
      CodeRegionOp region = lookup(flow, regions[i]);
      if (!region)
        return failure();
      if (outside(region, end.first, end.second))
        return flow.emitOpError()
               << (i == 0 ? "source" : "sink") << " PE "
               << formatPE(end.first, end.second) << " is outside the "
               << describe(region);
    }
  }
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// FabricOp
//===----------------------------------------------------------------------===//

void FabricOp::build(OpBuilder &builder, OperationState &state, csl::Arch arch,
                     ArrayRef<int64_t> dims, ArrayRef<int64_t> offsets) {
  Properties &props = state.getOrAddProperties<Properties>();
  props.arch = csl::ArchAttr::get(builder.getContext(), arch);
  props.dims = builder.getDenseI64ArrayAttr(dims);
  props.offsets = builder.getDenseI64ArrayAttr(offsets);
  state.addRegion()->emplaceBlock();
}

LogicalResult FabricOp::verify() {
  ArrayRef<int64_t> dims = getDims();
  ArrayRef<int64_t> offsets = getOffsets();
  if (dims[0] < 1 || dims[1] < 1)
    return emitOpError() << "dims must be positive, got "
                         << formatPE(dims[0], dims[1]);
  if (offsets[0] < 0 || offsets[1] < 0)
    return emitOpError() << "offsets must be non-negative, got "
                         << formatPE(offsets[0], offsets[1]);
  if (std::optional<uint64_t> channels = getChannels()) {
    const TargetModel &model = getTarget(getArch());
    if (!getMemcpy())
      return emitOpError() << "'channels' requires 'memcpy'";
    if (*channels < 1 || *channels > model.getMaxMemcpyChannels())
      return emitOpError() << "channels " << static_cast<int64_t>(*channels)
                           << " is out of range for " << model.getName()
                           << " (1.." << model.getMaxMemcpyChannels() << ")";
  }
  return success();
}

LogicalResult FabricOp::verifyRegions() {
  Block &body = getBody().front();

  RectangleOp rectangle;
  for (auto op : body.getOps<RectangleOp>()) {
    if (rectangle)
      return reportOverlap(op, rectangle, "the fabric has a rectangle already",
                           "the first rectangle is here");
    rectangle = op;
  }
  if (!rectangle)
    return emitOpError() << "needs a fabric.rectangle";

  // The rectangle must fit, with memcpy's support PEs around it.
  ArrayRef<int64_t> dims = getDims();
  ArrayRef<int64_t> offsets = getOffsets();
  ArrayRef<int64_t> size = rectangle.getSize();
  int64_t width = size[0], height = size[1];
  if (offsets[0] + width > dims[0] || offsets[1] + height > dims[1])
    return rectangle.emitOpError()
           << "the " << width << "x" << height << " rectangle at offsets "
           << formatPE(offsets[0], offsets[1]) << " does not fit the "
           << dims[0] << "x" << dims[1] << " fabric";
  if (getMemcpy()) {
    target::MemcpyMargins margins = TargetModel::getMemcpyMargins();
    if (offsets[0] < margins.west || offsets[1] < margins.north)
      return emitOpError() << "memcpy needs offsets of at least "
                           << formatPE(margins.west, margins.north) << ", got "
                           << formatPE(offsets[0], offsets[1]);
    int64_t needX = offsets[0] + width + margins.east;
    int64_t needY = offsets[1] + height + margins.south;
    if (dims[0] < needX || dims[1] < needY)
      return emitOpError() << "memcpy needs dims of at least "
                           << formatPE(needX, needY) << " around the " << width
                           << "x" << height << " rectangle, got "
                           << formatPE(dims[0], dims[1]);
  }

  auto checkInside = [&](Operation *op, const PERange &range) -> LogicalResult {
    if (range.lastX() < width && range.lastY() < height)
      return success();
    return op->emitOpError()
           << "covers PE " << formatPE(range.lastX(), range.lastY())
           << ", outside the " << width << "x" << height << " rectangle";
  };

  if (failed(verifyCodeRegions(*this, width, height)))
    return failure();

  // Every PE runs at most one program. Placements in a code region without
  // a position wait for tessera-place-regions.
  SmallVector<std::pair<PlaceOp, PERange>> placements;
  PEOccupancy placed(width, height);
  for (PlaceOp place : body.getOps<PlaceOp>()) {
    if (!lookupSymbol<InstanceOp>(place.getInstanceAttr()))
      return place.emitOpError() << "'" << place.getInstance()
                                 << "' does not name a fabric.instance";
    std::optional<PERange> placedRange = place.getPlacedRange();
    if (!placedRange)
      continue;
    PERange range = *placedRange;
    if (failed(checkInside(place, range)))
      return failure();
    if (std::optional<size_t> index = placed.add(range)) {
      auto &[earlier, earlierRange] = placements[*index];
      auto pe = range.firstCommonPE(earlierRange);
      return reportOverlap(place, earlier,
                           "PE " + formatPE(pe->first, pe->second) +
                               " is already placed with '" +
                               earlier.getInstance() + "'",
                           "'" + earlier.getInstance() + "' placed here");
    }
    placements.emplace_back(place, range);
  }

  // Every PE configures a color at most once.
  struct SameColor {
    SmallVector<std::pair<ColorConfigOp, PERange>> configs;
    PEOccupancy configured;
  };
  std::map<int64_t, SameColor> colors;
  for (ColorConfigOp config : body.getOps<ColorConfigOp>()) {
    PERange range = config.getRange();
    if (failed(checkInside(config, range)))
      return failure();
    SameColor &sameColor =
        colors
            .try_emplace(static_cast<int64_t>(config.getColor()),
                         SameColor{{}, PEOccupancy(width, height)})
            .first->second;
    if (std::optional<size_t> index = sameColor.configured.add(range)) {
      auto &[earlier, earlierRange] = sameColor.configs[*index];
      auto pe = range.firstCommonPE(earlierRange);
      return reportOverlap(config, earlier,
                           "color " + Twine(config.getColor()) + " of PE " +
                               formatPE(pe->first, pe->second) +
                               " is already configured",
                           "first configured here");
    }
    sameColor.configs.emplace_back(config, range);
  }

  llvm::StringMap<Operation *> names;
  for (ExportOp exported : body.getOps<ExportOp>()) {
    auto [it, inserted] = names.try_emplace(exported.getName(), exported);
    if (!inserted)
      return reportOverlap(exported, it->second,
                           "host name '" + exported.getName() +
                               "' is declared twice",
                           "first declared here");
  }

  // A flow's PEs lie in the rectangle; the router treats them as PEs. Ends
  // in code regions lie in their regions (above), and so in the rectangle
  // once those have positions.
  for (FlowOp flow : body.getOps<FlowOp>()) {
    if (flow.getEndsInAttr())
      continue;
    auto outside = [&](int64_t x, int64_t y) {
      return x >= width || y >= height;
    };
    ArrayRef<int64_t> from = flow.getFrom();
    if (outside(from[0], from[1]))
      return flow.emitOpError()
             << "source PE " << formatPE(from[0], from[1]) << " is outside the "
             << width << "x" << height << " rectangle";
    for (auto [x, y] : flow.getSinks())
      if (outside(x, y))
        return flow.emitOpError() << "sink PE " << formatPE(x, y)
                                  << " is outside the " << width << "x"
                                  << height << " rectangle";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// RectangleOp, InstanceOp
//===----------------------------------------------------------------------===//

LogicalResult RectangleOp::verify() {
  ArrayRef<int64_t> size = getSize();
  if (size[0] < 1 || size[1] < 1)
    return emitOpError() << "size must be positive, got "
                         << formatPE(size[0], size[1]);
  return success();
}

LogicalResult InstanceOp::verifySymbolUses(SymbolTableCollection &symbols) {
  FlatSymbolRefAttr programRef = getProgramAttr();
  // Programs live beside the fabric, in the symbol table that holds it.
  Operation *scope = (*this)->getParentOp()->getParentOp();
  if (!programRef || !scope)
    return success();
  auto program =
      symbols.lookupNearestSymbolFrom<csl::ProgramOp>(scope, programRef);
  if (!program)
    return emitOpError() << "'" << programRef.getValue()
                         << "' does not name a csl.program";
  auto fabric = cast<FabricOp>((*this)->getParentOp());
  if (program.getArch() != fabric.getArch())
    return emitOpError() << "program '" << programRef.getValue() << "' targets "
                         << stringifyArch(program.getArch()) << ", the fabric "
                         << stringifyArch(fabric.getArch());
  if (std::optional<StringRef> file = program.getFile();
      file && *file != getFile())
    return emitOpError() << "instance file '" << getFile()
                         << "' differs from the file of program '"
                         << programRef.getValue() << "', '" << *file << "'";
  return success();
}

//===----------------------------------------------------------------------===//
// CodeRegionOp, PlaceOp, ColorConfigOp
//===----------------------------------------------------------------------===//

LogicalResult CodeRegionOp::verify() {
  ArrayRef<int64_t> size = getSize();
  if (size[0] < 1 || size[1] < 1)
    return emitOpError() << "size must be positive, got "
                         << formatPE(size[0], size[1]);
  if (std::optional<ArrayRef<int64_t>> origin = getOrigin())
    if ((*origin)[0] < 0 || (*origin)[1] < 0)
      return emitOpError() << "origin must be non-negative, got "
                           << formatPE((*origin)[0], (*origin)[1]);
  return success();
}

PERange PlaceOp::getRange() {
  return makeRange(getOrigin(), getSize(), getStep());
}

LogicalResult PlaceOp::verify() {
  return verifyRange(*this, getOrigin(), getSize(), getStep());
}

PERange ColorConfigOp::getRange() {
  return makeRange(getOrigin(), getSize(), getStep());
}

SmallVector<SwitchPositionAttr, 3> ColorConfigOp::getSwitchPositions() {
  SmallVector<SwitchPositionAttr, 3> positions;
  for (SwitchPositionAttr position :
       {getPos1Attr(), getPos2Attr(), getPos3Attr()}) {
    if (!position)
      break;
    positions.push_back(position);
  }
  return positions;
}

LogicalResult ColorConfigOp::verify() {
  if (failed(verifyRange(*this, getOrigin(), getSize(), getStep())))
    return failure();
  auto fabric = cast<FabricOp>((*this)->getParentOp());
  const TargetModel &model = getTarget(fabric.getArch());

  int64_t color = static_cast<int64_t>(getColor());
  if (color < 0 || color >= model.getNumRoutableColors())
    return emitOpError() << "color " << color << " is not routable on "
                         << model.getName() << " (0.."
                         << model.getNumRoutableColors() - 1 << ")";

  // Positions 1..3 are filled in order (a position names its predecessor's
  // successor when the switch advances).
  SwitchPositionAttr positions[] = {getPos1Attr(), getPos2Attr(),
                                    getPos3Attr()};
  for (unsigned i = 1; i < std::size(positions); ++i)
    if (positions[i] && !positions[i - 1])
      return emitOpError() << "switch position " << i + 1
                           << " is set but position " << i << " is not";
  unsigned filled = getSwitchPositions().size();
  unsigned numPositions = TargetModel::getNumSwitchPositions();
  if (std::optional<uint64_t> current = getCurrentSwitchPos()) {
    if (*current >= numPositions)
      return emitOpError() << "current_switch_pos "
                           << static_cast<int64_t>(*current)
                           << " is out of range (0.." << numPositions - 1
                           << ")";
    if (*current > filled)
      return emitOpError() << "current_switch_pos " << *current
                           << " names an unset switch position";
  }
  if (getRingMode() && filled == 0)
    return emitOpError() << "ring_mode needs at least one switch position";

  if ((getColorSwapX() || getColorSwapY()) && !model.hasColorSwap())
    return emitOpError() << "color swap is not available on "
                         << model.getName();

  if (auto range = dyn_cast_if_present<RangeFilterAttr>(getFilterAttr())) {
    int64_t maxIndex = (int64_t(1) << TargetModel::getFilterIndexBits()) - 1;
    if (range.getMin() < 0 || range.getMax() > maxIndex)
      return emitOpError() << "range filter bounds must lie in 0.." << maxIndex
                           << ", got [" << range.getMin() << ", "
                           << range.getMax() << "]";
    if (range.getMin() > range.getMax())
      return emitOpError() << "range filter [" << range.getMin() << ", "
                           << range.getMax() << "] is empty";
  }
  if (auto counter = dyn_cast_if_present<CounterFilterAttr>(getFilterAttr()))
    if (counter.getInitCounter() < 0 || counter.getMaxCounter() < 0 ||
        counter.getLimit1() < 0)
      return emitOpError() << "counter filter values must be non-negative";
  return success();
}

//===----------------------------------------------------------------------===//
// ExportOp
//===----------------------------------------------------------------------===//

LogicalResult ExportOp::verify() {
  Type type = getType();
  if (auto memref = dyn_cast<MemRefType>(type)) {
    if (!isABIScalar(memref.getElementType()))
      return emitOpError() << "exported data needs 16- or 32-bit elements, "
                              "got "
                           << memref.getElementType();
    return success();
  }
  if (auto function = dyn_cast<FunctionType>(type)) {
    if (getIsMutable())
      return emitOpError() << "a function cannot be exported as mutable";
    if (function.getNumResults() != 0)
      return emitOpError() << "an exported function must not return a value";
    for (auto [index, arg] : llvm::enumerate(function.getInputs()))
      if (!isABIScalar(arg))
        return emitOpError()
               << "exported function takes " << arg << " as argument #" << index
               << "; exports need 16- or 32-bit scalars";
    return success();
  }
  return emitOpError() << "exports a memref (data) or a function type, got "
                       << type;
}

//===----------------------------------------------------------------------===//
// FlowOp
//===----------------------------------------------------------------------===//

SmallVector<std::pair<int64_t, int64_t>> FlowOp::getSinks() {
  SmallVector<std::pair<int64_t, int64_t>> sinks;
  ArrayRef<int64_t> to = getTo();
  for (size_t i = 0; i + 1 < to.size(); i += 2)
    sinks.emplace_back(to[i], to[i + 1]);
  return sinks;
}

LogicalResult FlowOp::verify() {
  ArrayRef<int64_t> from = getFrom();
  if (from[0] < 0 || from[1] < 0)
    return emitOpError() << "source must be non-negative, got "
                         << formatPE(from[0], from[1]);
  ArrayRef<int64_t> to = getTo();
  if (to.empty() || to.size() % 2)
    return emitOpError() << "'to' must list (x, y) pairs of sink PEs, got "
                         << to.size() << " numbers";
  for (size_t i = 0; i < to.size(); i += 2)
    if (to[i] < 0 || to[i + 1] < 0)
      return emitOpError() << "sink must be non-negative, got "
                           << formatPE(to[i], to[i + 1]);
  if (auto color = dyn_cast<IntegerAttr>(getColor())) {
    auto fabric = cast<FabricOp>((*this)->getParentOp());
    const TargetModel &model = getTarget(fabric.getArch());
    int64_t c = color.getInt();
    if (c < 0 || c >= static_cast<int64_t>(model.getNumRoutableColors()))
      return emitOpError() << "color " << c << " is not routable on "
                           << model.getName() << " (0.."
                           << model.getNumRoutableColors() - 1 << ")";
  }
  if (std::optional<ArrayRef<int64_t>> route = getRoute()) {
    if (route->size() % 4)
      return emitOpError() << "'route' must list (x, y, rx, tx) quadruples, "
                              "got "
                           << route->size() << " numbers";
    for (size_t i = 0; i < route->size(); i += 4)
      if ((*route)[i] < 0 || (*route)[i + 1] < 0 || (*route)[i + 2] < 0 ||
          (*route)[i + 2] > 31 || (*route)[i + 3] < 0 || (*route)[i + 3] > 31)
        return emitOpError() << "route entry " << i / 4
                             << " is not a PE with two port masks (0..31)";
  }
  return success();
}

LogicalResult FlowOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto ref = dyn_cast<FlatSymbolRefAttr>(getColor());
  if (!ref)
    return success();
  if (!symbols.lookupNearestSymbolFrom<ColorSymbolOp>(*this, ref))
    return emitOpError() << "'" << ref.getValue()
                         << "' does not name a fabric.color_symbol";
  return success();
}
