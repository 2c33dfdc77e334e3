//===- ConnectionBuiltins.cpp - Symbolic colors, connections, streams -----===//
//
// `@get_symbolic_color`, `@connect` and `@host_stream` only record what the
// layout asks for; resolveConnections routes and colors it all once the
// layout block has run (docs/Language.md, "Connections").
//
//===----------------------------------------------------------------------===//

#include "tessera/Frontend/Elaboration/LayoutBuiltins.h"

#include "tessera/Target/TargetModel.h"

using namespace tessera;
using namespace tessera::frontend;
using namespace tessera::frontend::elaboration;
using sema::Value;

std::optional<Value> LayoutBuilder::getSymbolicColor(sema::BuiltinArgs &args) {
  if (!expectArgs(args, 1, 1))
    return std::nullopt;
  std::optional<std::string> name = nameArg(args, 0, "color");
  if (!name)
    return std::nullopt;
  // One name is one color, however often it is asked for.
  size_t index = 0;
  while (index < layout.symbolicColors.size() &&
         layout.symbolicColors[index].name != *name)
    ++index;
  if (index == layout.symbolicColors.size())
    layout.symbolicColors.push_back({*name, args.getArg(0).getLoc(), {}});
  return Value::getHandle(interp.getTypes().get(sema::Type::Kind::Color),
                          SymbolicColorBase + static_cast<int64_t>(index));
}

std::optional<int64_t>
LayoutBuilder::colorOf(const Value &value, llvm::SMLoc loc, bool allowNumber) {
  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  int64_t id;
  if (value.is(Value::Kind::Handle) &&
      value.getType()->is(sema::Type::Kind::Color)) {
    id = static_cast<int64_t>(value.getHandleID());
  } else if (allowNumber && value.is(Value::Kind::Int) &&
             value.getInt().getSignificantBits() <= 32) {
    id = value.getInt().getExtValue();
  } else {
    diags.error(loc,
                "expected a color, found '" + value.getType()->str() + "'");
    return std::nullopt;
  }
  if (id >= SymbolicColorBase &&
      id - SymbolicColorBase <
          static_cast<int64_t>(layout.symbolicColors.size()))
    return id;
  const target::TargetModel &model =
      target::TargetModel::get(interp.getOptions().arch);
  if (id < 0 || id >= model.getNumRoutableColors()) {
    diags.error(loc, "color " + llvm::Twine(id) + " is not routable on '" +
                         llvm::StringRef(model.getName()) + "' (0 to " +
                         llvm::Twine(model.getNumRoutableColors() - 1) + ")");
    return std::nullopt;
  }
  if (interp.getOptions().memcpy &&
      llvm::is_contained(model.getMemcpyReservedColors(),
                         static_cast<unsigned>(id))) {
    diags.error(loc, "color " + llvm::Twine(id) +
                         " is reserved by the memcpy infrastructure "
                         "(--memcpy)");
    return std::nullopt;
  }
  return id;
}

std::optional<PERef>
LayoutBuilder::peOf(const Value &value, llvm::StringRef what, llvm::SMLoc loc) {
  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  auto isInt = [](const sema::FieldValue &f) {
    return f.value.is(Value::Kind::Int) &&
           f.value.getInt().getSignificantBits() <= 32;
  };
  // .{x, y} of the rectangle, or .{region, x, y} of a region.
  std::optional<unsigned> region;
  size_t first = 0;
  if (value.is(Value::Kind::Struct) && value.isTuple() &&
      value.getFields().size() == 3) {
    region = regionOf(value.getFields()[0].value);
    first = 1;
  }
  if (!value.is(Value::Kind::Struct) || !value.isTuple() ||
      value.getFields().size() != first + 2 || (first && !region) ||
      !isInt(value.getFields()[first]) ||
      !isInt(value.getFields()[first + 1])) {
    diags.error(loc, "'." + what +
                         "' must be a PE as .{x, y} or .{region, x, y}, "
                         "found '" +
                         value.str() + "'");
    return std::nullopt;
  }
  int64_t x = value.getFields()[first].value.getInt().getExtValue();
  int64_t y = value.getFields()[first + 1].value.getInt().getExtValue();
  auto [width, height] = region ? std::pair{layout.regions[*region].width,
                                            layout.regions[*region].height}
                                : *layout.rectangle;
  if (x < 0 || y < 0 || x >= width || y >= height) {
    diags.error(loc, "'." + what + "' PE (" + llvm::Twine(x) + ", " +
                         llvm::Twine(y) + ") is outside " +
                         (region ? "region '" + layout.regions[*region].name +
                                       "' (" + std::to_string(width) + "x" +
                                       std::to_string(height) + ")"
                                 : "the " + std::to_string(width) + "x" +
                                       std::to_string(height) + " rectangle"));
    return std::nullopt;
  }
  return PERef{region, PEPos{x, y}};
}

namespace {

/// The fields of a struct argument, after checking their names.
const Value *getOptionsStruct(sema::DiagnosticEngine &diags, const Value &v,
                              llvm::StringRef builtin,
                              llvm::ArrayRef<llvm::StringRef> allowed,
                              llvm::SMLoc loc) {
  if (!v.is(Value::Kind::Struct) || (v.isTuple() && !v.getFields().empty())) {
    diags.error(loc, "'@" + builtin + "' expects a struct of options, found '" +
                         v.getType()->str() + "'");
    return nullptr;
  }
  for (const sema::FieldValue &f : v.getFields())
    if (!llvm::is_contained(allowed, f.name)) {
      std::string names;
      for (llvm::StringRef name : allowed)
        names += (names.empty() ? "." : ", .") + name.str();
      diags.error(loc, "unknown field '." + f.name + "' in '@" + builtin +
                           "' (expected " + names + ")");
      return nullptr;
    }
  return &v;
}

} // namespace

std::optional<Value> LayoutBuilder::connect(sema::BuiltinArgs &args) {
  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  if (!expectArgs(args, 2, 2))
    return std::nullopt;
  if (!expectRectangle(args))
    return std::nullopt;
  llvm::SMLoc loc = args.getCall().getLoc();
  std::optional<Value> color = args.evaluate(0);
  if (!color)
    return std::nullopt;
  std::optional<int64_t> colorID = colorOf(*color, args.getArg(0).getLoc());
  if (!colorID)
    return std::nullopt;
  std::optional<Value> options = args.evaluate(1);
  if (!options)
    return std::nullopt;
  llvm::SMLoc optionsLoc = args.getArg(1).getLoc();
  if (!getOptionsStruct(diags, *options, "connect", {"from", "to"}, optionsLoc))
    return std::nullopt;
  const Value *from = options->findField("from");
  const Value *to = options->findField("to");
  if (!from || !to) {
    diags.error(optionsLoc, llvm::Twine("'@connect' needs '.") +
                                (from ? "to" : "from") + "'");
    return std::nullopt;
  }
  Connection connection;
  connection.color = *colorID;
  connection.loc = loc;
  std::optional<PERef> source = peOf(*from, "from", optionsLoc);
  if (!source)
    return std::nullopt;
  connection.from = *source;
  // One sink as .{x, y}, or several as .{.{x, y}, ...}.
  bool several = to->is(Value::Kind::Struct) && to->isTuple() &&
                 !to->getFields().empty() &&
                 to->getFields()[0].value.is(Value::Kind::Struct) &&
                 to->getFields()[0].value.isTuple();
  if (several) {
    for (const sema::FieldValue &sink : to->getFields()) {
      std::optional<PERef> pe = peOf(sink.value, "to", optionsLoc);
      if (!pe)
        return std::nullopt;
      if (llvm::is_contained(connection.to, *pe) || *pe == *source) {
        diags.error(optionsLoc,
                    "'.to' lists PE (" + llvm::Twine(pe->pe.first) + ", " +
                        llvm::Twine(pe->pe.second) +
                        (*pe == *source ? ") which is the source" : ") twice"));
        return std::nullopt;
      }
      connection.to.push_back(*pe);
    }
  } else {
    std::optional<PERef> pe = peOf(*to, "to", optionsLoc);
    if (!pe)
      return std::nullopt;
    if (*pe == *source) {
      diags.error(optionsLoc, "'@connect' from a PE to itself");
      return std::nullopt;
    }
    connection.to.push_back(*pe);
  }
  layout.connections.push_back(std::move(connection));
  return Value::getVoid(interp.getTypes());
}

std::optional<Value> LayoutBuilder::hostStream(sema::BuiltinArgs &args) {
  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  if (!expectArgs(args, 2, 2))
    return std::nullopt;
  if (!expectRectangle(args))
    return std::nullopt;
  llvm::SMLoc loc = args.getCall().getLoc();
  std::optional<std::string> name = nameArg(args, 0, "stream");
  if (!name)
    return std::nullopt;
  for (const HostStream &other : layout.hostStreams)
    if (other.name == *name) {
      diags.error(args.getArg(0).getLoc(),
                  "host stream '" + other.name + "' is declared twice");
      diags.note(other.loc, "first declared here");
      return std::nullopt;
    }
  std::optional<Value> options = args.evaluate(1);
  if (!options)
    return std::nullopt;
  llvm::SMLoc optionsLoc = args.getArg(1).getLoc();
  if (!getOptionsStruct(diags, *options, "host_stream", {"color", "to", "from"},
                        optionsLoc))
    return std::nullopt;
  const Value *color = options->findField("color");
  const Value *to = options->findField("to");
  const Value *from = options->findField("from");
  if (!color || (to != nullptr) == (from != nullptr)) {
    diags.error(optionsLoc,
                !color ? "'@host_stream' needs '.color'"
                       : "'@host_stream' needs either '.to' (from the host "
                         "to a PE) or '.from' (from a PE to the host)");
    return std::nullopt;
  }
  HostStream stream;
  stream.name = *name;
  stream.loc = loc;
  std::optional<int64_t> colorID = colorOf(*color, optionsLoc);
  if (!colorID)
    return std::nullopt;
  stream.color = *colorID;
  stream.direction = to ? StreamDirection::In : StreamDirection::Out;
  std::optional<PERef> pe =
      peOf(to ? *to : *from, to ? "to" : "from", optionsLoc);
  if (!pe)
    return std::nullopt;
  stream.pe = *pe;
  layout.hostStreams.push_back(std::move(stream));
  return Value::getVoid(interp.getTypes());
}
