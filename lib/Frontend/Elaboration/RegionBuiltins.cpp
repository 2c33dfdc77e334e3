//===- RegionBuiltins.cpp - Code regions in a layout block ----------------===//
//
// `@create_code_region(name, w, h)` gives a value naming a rectangle of PEs
// that `@set_tile_code`, `@set_color_config`, `@connect` and `@host_stream`
// address from its north-west corner. What they ask for is recorded and
// applied once placeLayoutRegions has put the region on the rectangle
// (docs/Language.md, "Code regions").
//
//===----------------------------------------------------------------------===//

#include "tessera/Frontend/Elaboration/LayoutBuiltins.h"

using namespace tessera;
using namespace tessera::frontend;
using namespace tessera::frontend::elaboration;
using sema::Value;

std::optional<unsigned> LayoutBuilder::regionOf(const Value &value) const {
  if (!value.is(Value::Kind::Struct) || value.isTuple())
    return std::nullopt;
  const Value *id = value.findField("region");
  if (value.getFields().size() != 3 || !id || !id->is(Value::Kind::Int) ||
      !value.findField("width") || !value.findField("height"))
    return std::nullopt;
  int64_t index = id->getInt().getExtValue();
  if (index < 0 || index >= static_cast<int64_t>(layout.regions.size()))
    return std::nullopt;
  return static_cast<unsigned>(index);
}

std::optional<Value> LayoutBuilder::createCodeRegion(sema::BuiltinArgs &args) {
  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  if (!expectArgs(args, 3, 3))
    return std::nullopt;
  if (!expectRectangle(args))
    return std::nullopt;
  llvm::SMLoc loc = args.getCall().getLoc();
  std::optional<std::string> name = nameArg(args, 0, "region");
  if (!name)
    return std::nullopt;
  for (const LayoutRegion &other : layout.regions)
    if (other.name == *name) {
      diags.error(args.getArg(0).getLoc(),
                  "region '" + other.name + "' is created twice");
      diags.note(other.loc, "first created here");
      return std::nullopt;
    }
  std::optional<int64_t> width = intArg(args, 1);
  std::optional<int64_t> height = width ? intArg(args, 2) : std::nullopt;
  if (!height)
    return std::nullopt;
  auto [rectWidth, rectHeight] = *layout.rectangle;
  if (*width < 1 || *height < 1 || *width > rectWidth || *height > rectHeight) {
    diags.error(loc, "region '" + *name + "' must be 1x1 to " +
                         llvm::Twine(rectWidth) + "x" +
                         llvm::Twine(rectHeight) + ", got " +
                         llvm::Twine(*width) + "x" + llvm::Twine(*height));
    return std::nullopt;
  }
  unsigned index = layout.regions.size();
  layout.regions.push_back({*name, *width, *height, std::nullopt, loc});
  sema::TypeContext &types = interp.getTypes();
  std::vector<sema::FieldValue> fields;
  fields.push_back({"region", Value::getComptimeInt(types, index)});
  fields.push_back({"width", Value::getComptimeInt(types, *width)});
  fields.push_back({"height", Value::getComptimeInt(types, *height)});
  return Value::getStruct(types.getComptimeStruct(), std::move(fields));
}

std::optional<Value> LayoutBuilder::placeRegion(sema::BuiltinArgs &args) {
  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  if (!expectArgs(args, 3, 3))
    return std::nullopt;
  std::optional<Value> value = args.evaluate(0);
  if (!value)
    return std::nullopt;
  std::optional<unsigned> region = regionOf(*value);
  if (!region) {
    diags.error(args.getArg(0).getLoc(),
                "expected a region from '@create_code_region', found '" +
                    value->str() + "'");
    return std::nullopt;
  }
  std::optional<int64_t> x = intArg(args, 1);
  std::optional<int64_t> y = x ? intArg(args, 2) : std::nullopt;
  if (!y)
    return std::nullopt;
  LayoutRegion &r = layout.regions[*region];
  auto [width, height] = *layout.rectangle;
  if (*x < 0 || *y < 0 || *x + r.width > width || *y + r.height > height) {
    diags.error(args.getCall().getLoc(),
                "region '" + r.name + "' (" + llvm::Twine(r.width) + "x" +
                    llvm::Twine(r.height) + ") at (" + llvm::Twine(*x) + ", " +
                    llvm::Twine(*y) + ") leaves the " + llvm::Twine(width) +
                    "x" + llvm::Twine(height) + " rectangle");
    return std::nullopt;
  }
  if (r.origin) {
    diags.error(args.getCall().getLoc(),
                "region '" + r.name + "' is placed twice");
    return std::nullopt;
  }
  r.origin = PEPos{*x, *y};
  return Value::getVoid(interp.getTypes());
}

std::optional<PEPos> LayoutBuilder::regionPEArgs(sema::BuiltinArgs &args,
                                                 unsigned region) {
  std::optional<int64_t> x = intArg(args, 1);
  std::optional<int64_t> y = x ? intArg(args, 2) : std::nullopt;
  if (!y)
    return std::nullopt;
  const LayoutRegion &r = layout.regions[region];
  if (*x < 0 || *y < 0 || *x >= r.width || *y >= r.height) {
    interp.getDiagnostics().error(
        args.getArg(1).getLoc(), "PE (" + llvm::Twine(*x) + ", " +
                                     llvm::Twine(*y) + ") is outside region '" +
                                     r.name + "' (" + llvm::Twine(r.width) +
                                     "x" + llvm::Twine(r.height) + ")");
    return std::nullopt;
  }
  return PEPos{*x, *y};
}

std::optional<Value> LayoutBuilder::setRegionTileCode(sema::BuiltinArgs &args,
                                                      unsigned region) {
  if (!expectArgs(args, 4, 5))
    return std::nullopt;
  std::optional<PEPos> pe = regionPEArgs(args, region);
  if (!pe)
    return std::nullopt;
  std::optional<unsigned> program = programFor(args, 3);
  if (!program)
    return std::nullopt;
  layout.regionTiles.push_back(
      {region, *pe, *program, args.getCall().getLoc()});
  return Value::getVoid(interp.getTypes());
}

std::optional<Value>
LayoutBuilder::setRegionColorConfig(sema::BuiltinArgs &args, unsigned region) {
  std::optional<PEPos> pe = regionPEArgs(args, region);
  if (!pe)
    return std::nullopt;
  auto colorAndConfig = colorAndConfigArgs(args, 3);
  if (!colorAndConfig)
    return std::nullopt;
  unsigned index = layout.internConfig(colorAndConfig->second);
  layout.regionConfigs.push_back(
      {region, *pe, colorAndConfig->first, index, args.getCall().getLoc()});
  return Value::getVoid(interp.getTypes());
}
