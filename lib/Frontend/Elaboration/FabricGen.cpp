//===- FabricGen.cpp - LayoutDescription to the fabric dialect ------------===//

#include "tessera/Frontend/Elaboration/FabricGen.h"

#include "tessera/Dialect/CSL/IR/CSLTarget.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

using namespace tessera;
using namespace tessera::frontend;
using namespace tessera::frontend::elaboration;
using sema::Value;

static std::string formatPair(std::pair<int64_t, int64_t> p) {
  return "(" + std::to_string(p.first) + ", " + std::to_string(p.second) + ")";
}

llvm::Expected<FabricGeometry>
elaboration::computeGeometry(int64_t width, int64_t height,
                             const FabricOptions &options) {
  bool buffered = options.westBuffer > 0 || options.eastBuffer > 0;
  if (buffered && !options.memcpy)
    return llvm::createStringError(
        "'--width-west-buf' and '--width-east-buf' need '--memcpy'");
  target::MemcpyMargins margins = target::TargetModel::getMemcpyMargins();
  std::pair<int64_t, int64_t> minOffsets{0, 0};
  // The buffer columns sit between memcpy's columns and the rectangle, so
  // the west one pushes the rectangle east.
  if (options.memcpy)
    minOffsets = {margins.west + options.westBuffer, margins.north};
  else if (options.hostStreams)
    minOffsets = {1, 1};
  std::string buffers;
  if (buffered)
    buffers = " and " + std::to_string(options.westBuffer) + " west, " +
              std::to_string(options.eastBuffer) + " east buffer columns";
  FabricGeometry g;
  g.offsets = options.offsets.value_or(minOffsets);
  if (g.offsets.first < minOffsets.first ||
      g.offsets.second < minOffsets.second)
    return llvm::createStringError("fabric offsets " + formatPair(g.offsets) +
                                   " are too small for " +
                                   (options.memcpy ? "memcpy" + buffers
                                                   : "host streams") +
                                   ": need at least " + formatPair(minOffsets));
  std::pair<int64_t, int64_t> need{g.offsets.first + width,
                                   g.offsets.second + height};
  if (options.memcpy) {
    need.first += margins.east + options.eastBuffer;
    need.second += margins.south;
  } else if (options.hostStreams) {
    need.first += 1;
    need.second += 1;
  }
  g.dims = options.dims.value_or(need);
  if (g.dims.first < need.first || g.dims.second < need.second)
    return llvm::createStringError(
        "fabric dims " + formatPair(g.dims) + " are too small for the " +
        std::to_string(width) + "x" + std::to_string(height) + " rectangle" +
        (options.memcpy        ? " with memcpy" + buffers
         : options.hostStreams ? " with host streams at offsets " +
                                     formatPair(g.offsets)
                        : " at offsets " + formatPair(g.offsets)) +
        ": need at least " + formatPair(need));
  return g;
}

namespace {

class FabricBuilder {
public:
  FabricBuilder(mlir::MLIRContext &context, const llvm::SourceMgr *sourceMgr)
      : builder(&context), sourceMgr(sourceMgr) {}
  mlir::Location getLocation(llvm::SMLoc at);

  mlir::Attribute toAttr(const Value &v);
  mlir::Type toType(const sema::Type *type);
  fabric::DirectionSet toDirections(DirectionMask mask);
  fabric::Direction toDirection(Direction d);
  fabric::SwitchPositionAttr toSwitch(const std::optional<SwitchPosition> &p);
  void addColorConfig(int64_t color, const ValueRect &rect,
                      const ColorConfig &config);

  mlir::OpBuilder builder;
  const llvm::SourceMgr *sourceMgr;
  mlir::Location loc = builder.getUnknownLoc();
};

} // namespace

mlir::Attribute FabricBuilder::toAttr(const Value &v) {
  switch (v.getKind()) {
  case Value::Kind::Bool:
    return builder.getBoolAttr(v.getBool());
  case Value::Kind::Int: {
    if (auto *t = llvm::dyn_cast<sema::IntType>(v.getType()))
      return builder.getIntegerAttr(toType(t), v.getInt());
    if (v.getInt().getSignificantBits() <= 64)
      return builder.getI64IntegerAttr(v.getInt().getExtValue());
    return builder.getStringAttr(v.str());
  }
  case Value::Kind::Float:
    return builder.getF64FloatAttr(v.getFloat());
  case Value::Kind::String:
    return builder.getStringAttr(v.getString());
  case Value::Kind::Struct: {
    if (v.isTuple()) {
      llvm::SmallVector<mlir::Attribute> items;
      for (const sema::FieldValue &f : v.getFields())
        items.push_back(toAttr(f.value));
      return builder.getArrayAttr(items);
    }
    llvm::SmallVector<mlir::NamedAttribute> fields;
    for (const sema::FieldValue &f : v.getFields())
      fields.push_back(builder.getNamedAttr(f.name, toAttr(f.value)));
    return builder.getDictionaryAttr(fields);
  }
  case Value::Kind::Array: {
    llvm::SmallVector<mlir::Attribute> items;
    for (const Value &e : v.getElements())
      items.push_back(toAttr(e));
    return builder.getArrayAttr(items);
  }
  case Value::Kind::Handle: {
    // `{csl.color = 3}`: the ID stays an integer, and the dotted key (never
    // a CSL field name) keeps it apart from a struct param.
    std::string key = "csl." + v.getType()->str();
    return builder.getDictionaryAttr(builder.getNamedAttr(
        key, builder.getI64IntegerAttr(static_cast<int64_t>(v.getHandleID()))));
  }
  default:
    // Types and enums: their CSL spelling until programs need more.
    return builder.getStringAttr(v.str());
  }
}

mlir::Type FabricBuilder::toType(const sema::Type *type) {
  if (auto *i = llvm::dyn_cast<sema::IntType>(type))
    return i->isSigned() ? builder.getIntegerType(i->getBitWidth())
                         : builder.getIntegerType(i->getBitWidth(), false);
  if (auto *f = llvm::dyn_cast<sema::FloatType>(type)) {
    switch (f->getFormat()) {
    case sema::FloatFormat::F16:
      return builder.getF16Type();
    case sema::FloatFormat::BF16:
      return builder.getBF16Type();
    default:
      return builder.getF32Type();
    }
  }
  if (auto *p = llvm::dyn_cast<sema::PointerType>(type)) {
    int64_t size = mlir::ShapedType::kDynamic;
    const sema::Type *element = p->getPointee();
    if (auto *a = llvm::dyn_cast<sema::ArrayType>(element)) {
      size = a->getNumElements();
      element = a->getElementType();
    }
    return mlir::MemRefType::get({size}, toType(element));
  }
  auto *fn = llvm::cast<sema::FunctionType>(type);
  llvm::SmallVector<mlir::Type> inputs;
  for (const sema::Type *param : fn->getParams())
    inputs.push_back(toType(param));
  return builder.getFunctionType(inputs, {});
}

fabric::Direction FabricBuilder::toDirection(Direction d) {
  switch (d) {
  case Direction::Ramp:
    return fabric::Direction::Ramp;
  case Direction::North:
    return fabric::Direction::North;
  case Direction::South:
    return fabric::Direction::South;
  case Direction::East:
    return fabric::Direction::East;
  case Direction::West:
    return fabric::Direction::West;
  }
  llvm_unreachable("unknown direction");
}

fabric::DirectionSet FabricBuilder::toDirections(DirectionMask mask) {
  static const std::pair<Direction, fabric::DirectionSet> bits[] = {
      {Direction::Ramp, fabric::DirectionSet::Ramp},
      {Direction::North, fabric::DirectionSet::North},
      {Direction::South, fabric::DirectionSet::South},
      {Direction::East, fabric::DirectionSet::East},
      {Direction::West, fabric::DirectionSet::West}};
  fabric::DirectionSet set = fabric::DirectionSet::None;
  for (auto [d, bit] : bits)
    if (mask & (1u << unsigned(d)))
      set = set | bit;
  return set;
}

fabric::SwitchPositionAttr
FabricBuilder::toSwitch(const std::optional<SwitchPosition> &p) {
  if (!p)
    return {};
  return fabric::SwitchPositionAttr::get(builder.getContext(),
                                         p->isRx ? fabric::RouteSide::Rx
                                                 : fabric::RouteSide::Tx,
                                         toDirection(p->direction));
}

mlir::Location FabricBuilder::getLocation(llvm::SMLoc at) {
  unsigned buffer =
      sourceMgr && at.isValid() ? sourceMgr->FindBufferContainingLoc(at) : 0;
  if (!buffer)
    return loc;
  auto [line, column] = sourceMgr->getLineAndColumn(at, buffer);
  return mlir::FileLineColLoc::get(
      builder.getContext(),
      sourceMgr->getMemoryBuffer(buffer)->getBufferIdentifier(), line, column);
}

void FabricBuilder::addColorConfig(int64_t color, const ValueRect &rect,
                                   const ColorConfig &c) {
  mlir::DenseI64ArrayAttr size;
  if (rect.width != 1 || rect.height != 1)
    size = builder.getDenseI64ArrayAttr({rect.width, rect.height});
  mlir::IntegerAttr current;
  if (c.currentSwitchPos)
    current = builder.getI64IntegerAttr(*c.currentSwitchPos);
  fabric::PopModeAttr popMode;
  if (c.popMode)
    popMode = fabric::PopModeAttr::get(
        builder.getContext(), static_cast<fabric::PopMode>(*c.popMode));
  mlir::Attribute filter;
  if (c.rangeFilter)
    filter = fabric::RangeFilterAttr::get(
        builder.getContext(), c.rangeFilter->minIndex, c.rangeFilter->maxIndex);
  if (c.counterFilter) {
    const CounterFilter &f = *c.counterFilter;
    filter = fabric::CounterFilterAttr::get(builder.getContext(), f.initCounter,
                                            f.maxCounter, f.limit1, f.countData,
                                            f.countControl, f.fastMode);
  }
  fabric::ColorConfigOp::create(
      builder, getLocation(c.loc), static_cast<uint64_t>(color), {rect.x, rect.y}, size,
      /*step=*/{}, toDirections(c.rx), toDirections(c.tx), toSwitch(c.pos1),
      toSwitch(c.pos2), toSwitch(c.pos3), current, c.ringMode, popMode, filter,
      c.teardown, c.colorSwapX, c.colorSwapY);
}

/// "pe", "pe_1", ...: the file's stem made into a symbol, unique. `next`
/// keeps per stem the suffix to try first (names only get used), so one
/// program per PE does not retry every earlier suffix.
static std::string makeSymbol(llvm::StringRef path, llvm::StringSet<> &used,
                              llvm::StringMap<unsigned> &next) {
  std::string stem = llvm::sys::path::stem(path).str();
  for (char &c : stem)
    if (!llvm::isAlnum(c))
      c = '_';
  if (stem.empty() || llvm::isDigit(stem[0]))
    stem = "p_" + stem;
  unsigned &i = next[stem];
  std::string name = i == 0 ? stem : stem + "_" + std::to_string(i);
  while (!used.insert(name).second)
    name = stem + "_" + std::to_string(++i);
  ++i;
  return name;
}

llvm::Expected<mlir::OwningOpRef<fabric::FabricOp>>
elaboration::generateFabric(mlir::MLIRContext &context,
                            const LayoutDescription &layout,
                            const FabricOptions &options) {
  auto [width, height] = *layout.rectangle;
  llvm::Expected<FabricGeometry> geometry =
      computeGeometry(width, height, options);
  if (!geometry)
    return geometry.takeError();

  context.loadDialect<fabric::FabricDialect, csl::CSLDialect>();
  FabricBuilder b(context, options.sourceMgr);
  csl::Arch arch =
      options.arch == target::Arch::WSE3 ? csl::Arch::WSE3 : csl::Arch::WSE2;
  mlir::OwningOpRef<fabric::FabricOp> fabricOp = fabric::FabricOp::create(
      b.builder, b.loc, arch, {geometry->dims.first, geometry->dims.second},
      {geometry->offsets.first, geometry->offsets.second});
  if (options.memcpy) {
    fabricOp->setMemcpy(true);
    fabricOp->setChannels(options.channels);
  }
  b.builder.setInsertionPointToStart(&fabricOp->getBody().front());
  fabric::RectangleOp::create(b.builder, b.loc, {width, height});

  llvm::StringSet<> used;
  llvm::StringMap<unsigned> next;
  std::vector<std::string> symbols;
  for (const ProgramInstance &program : layout.programs) {
    symbols.push_back(makeSymbol(program.displayName, used, next));
    mlir::DictionaryAttr params;
    if (!program.params.empty()) {
      llvm::SmallVector<mlir::NamedAttribute> entries;
      for (const auto &entry : program.params)
        entries.push_back(
            b.builder.getNamedAttr(entry.getKey(), b.toAttr(entry.getValue())));
      params = b.builder.getDictionaryAttr(entries);
    }
    fabric::InstanceOp::create(b.builder, b.loc, symbols.back(),
                               program.displayName, params,
                               /*program=*/nullptr);
  }
  for (const ValueRect &rect : mergeRuns(layout.placement)) {
    mlir::DenseI64ArrayAttr size;
    if (rect.width != 1 || rect.height != 1)
      size = b.builder.getDenseI64ArrayAttr({rect.width, rect.height});
    fabric::PlaceOp::create(b.builder, b.loc, symbols[rect.value],
                            /*code_region=*/nullptr, {rect.x, rect.y}, size,
                            /*step=*/{});
  }
  for (const auto &[color, grid] : layout.colorConfigs)
    for (const ValueRect &rect : mergeRuns(grid))
      b.addColorConfig(color, rect, layout.configs[rect.value]);
  for (const ExportedName &e : layout.exports)
    fabric::ExportOp::create(b.builder, b.loc, e.name, b.toType(e.type),
                             e.isMutable);

  std::string message;
  {
    mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
      llvm::raw_string_ostream os(message);
      os << (message.empty() ? "" : "; ") << d;
      return mlir::success();
    });
    if (mlir::succeeded(mlir::verify(*fabricOp)))
      return std::move(fabricOp);
  }
  return llvm::createStringError("the generated fabric module does not "
                                 "verify: " +
                                 message);
}
