//===- LayoutBuiltins.cpp - The builtins of a layout block ----------------===//

#include "tessera/Frontend/Elaboration/LayoutBuiltins.h"

#include "tessera/Frontend/Elaboration/ProgramParams.h"

#include "tessera/Target/TargetModel.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace tessera;
using namespace tessera::frontend;
using namespace tessera::frontend::elaboration;
using sema::Value;

static std::string formatPE(int64_t x, int64_t y) {
  return "(" + std::to_string(x) + ", " + std::to_string(y) + ")";
}

void LayoutBuilder::install() {
  auto bind = [this](auto method) {
    return [this, method](sema::BuiltinArgs &args) {
      return (this->*method)(args);
    };
  };
  interp.registerBuiltin("set_rectangle", bind(&LayoutBuilder::setRectangle));
  interp.registerBuiltin("set_tile_code", bind(&LayoutBuilder::setTileCode));
  interp.registerBuiltin("set_color_config",
                         bind(&LayoutBuilder::setColorConfig));
  interp.registerBuiltin("export_name", bind(&LayoutBuilder::exportName));
  interp.registerBuiltin("set_local_color_config",
                         bind(&LayoutBuilder::setLocalColorConfig));
  interp.registerBuiltin("get_rectangle", bind(&LayoutBuilder::getRectangle));
  interp.registerBuiltin("get_symbolic_color",
                         bind(&LayoutBuilder::getSymbolicColor));
  interp.registerBuiltin("connect", bind(&LayoutBuilder::connect));
  interp.registerBuiltin("host_stream", bind(&LayoutBuilder::hostStream));
  interp.registerBuiltin("create_code_region",
                         bind(&LayoutBuilder::createCodeRegion));
  interp.registerBuiltin("place_region", bind(&LayoutBuilder::placeRegion));
}

bool LayoutBuilder::run(sema::ModuleInstance &module) {
  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  const ast::LayoutBlock *block = module.getLayoutBlock();
  if (!block) {
    diags.error(module.getFile().getLoc(),
                "'" + module.getName() + "' has no layout block");
    return false;
  }
  unsigned errors = diags.getNumErrors();
  if (!interp.runBlock(module, *block->body))
    return false;
  if (!layout.rectangle && diags.getNumErrors() == errors) {
    diags.error(block->getLoc(), "the layout block never calls "
                                 "'@set_rectangle'");
    return false;
  }
  // Modules the layout imported run their comptime blocks too (the checks
  // of their params, say); tile programs run those of their own imports.
  std::vector<sema::ModuleInstance *> imports = module.getImportedModules();
  llvm::SmallPtrSet<sema::ModuleInstance *, 8> ran;
  while (!imports.empty() && diags.getNumErrors() == errors) {
    sema::ModuleInstance *imported = imports.back();
    imports.pop_back();
    if (!ran.insert(imported).second)
      continue;
    if (!interp.runComptimeBlocks(*imported))
      return false;
    llvm::append_range(imports, imported->getImportedModules());
  }
  return diags.getNumErrors() == errors;
}

bool LayoutBuilder::expectArgs(sema::BuiltinArgs &args, unsigned min,
                               unsigned max) {
  if (args.size() >= min && args.size() <= max)
    return true;
  std::string expected =
      min == max ? std::to_string(min)
                 : std::to_string(min) + " or " + std::to_string(max);
  interp.getDiagnostics().error(args.getCall().name.loc(),
                                "'@" + args.getCall().name.text + "' expects " +
                                    expected + " arguments, found " +
                                    llvm::Twine(args.size()));
  return false;
}

std::optional<int64_t> LayoutBuilder::intArg(sema::BuiltinArgs &args,
                                             unsigned i) {
  std::optional<Value> v = args.evaluate(i);
  if (!v)
    return std::nullopt;
  if (!v->is(Value::Kind::Int)) {
    interp.getDiagnostics().error(args.getArg(i).getLoc(),
                                  "expected a comptime-known integer, found '" +
                                      v->getType()->str() + "'");
    return std::nullopt;
  }
  if (v->getInt().getSignificantBits() > 32) {
    interp.getDiagnostics().error(args.getArg(i).getLoc(),
                                  "value " + sema::intToString(v->getInt()) +
                                      " is too large for a PE coordinate");
    return std::nullopt;
  }
  return v->getInt().getExtValue();
}

std::optional<Value> LayoutBuilder::setRectangle(sema::BuiltinArgs &args) {
  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  if (!expectArgs(args, 2, 2))
    return std::nullopt;
  llvm::SMLoc loc = args.getCall().getLoc();
  if (layout.rectangle) {
    diags.error(loc, "'@set_rectangle' is called twice");
    diags.note(layout.rectangleLoc, "first called here");
    return std::nullopt;
  }
  std::optional<int64_t> width = intArg(args, 0);
  std::optional<int64_t> height = width ? intArg(args, 1) : std::nullopt;
  if (!height)
    return std::nullopt;
  if (*width < 1 || *height < 1) {
    diags.error(loc, "the rectangle must have a positive size, got " +
                         formatPE(*width, *height));
    return std::nullopt;
  }
  layout.rectangle = {*width, *height};
  layout.rectangleLoc = loc;
  return Value::getVoid(interp.getTypes());
}

std::optional<Value> LayoutBuilder::getRectangle(sema::BuiltinArgs &args) {
  if (!expectArgs(args, 0, 0))
    return std::nullopt;
  // Tile code runs after the layout, so only the layout itself (or a module
  // it imports) can ask too early.
  if (!layout.rectangle) {
    interp.getDiagnostics().error(args.getCall().getLoc(),
                                  "'@get_rectangle' before '@set_rectangle'");
    return std::nullopt;
  }
  sema::TypeContext &types = interp.getTypes();
  auto [width, height] = *layout.rectangle;
  std::vector<sema::FieldValue> fields;
  fields.push_back({"width", Value::getComptimeInt(types, width)});
  fields.push_back({"height", Value::getComptimeInt(types, height)});
  return Value::getStruct(types.getComptimeStruct(), std::move(fields));
}

bool LayoutBuilder::expectRectangle(sema::BuiltinArgs &args) {
  if (layout.rectangle)
    return true;
  interp.getDiagnostics().error(args.getCall().getLoc(),
                                "'@" + args.getCall().name.text +
                                    "' before '@set_rectangle'");
  return false;
}

std::optional<std::string> LayoutBuilder::nameArg(sema::BuiltinArgs &args,
                                                  unsigned i,
                                                  llvm::StringRef what) {
  std::optional<Value> name = args.evaluate(i);
  if (!name)
    return std::nullopt;
  if (!name->is(Value::Kind::String) || name->getString().empty()) {
    interp.getDiagnostics().error(args.getArg(i).getLoc(),
                                  "'@" + args.getCall().name.text +
                                      "' expects a non-empty comptime_string "
                                      "naming the " +
                                      what + ", found '" +
                                      name->getType()->str() + "'");
    return std::nullopt;
  }
  return name->getString().str();
}

std::optional<std::pair<int64_t, int64_t>>
LayoutBuilder::peArgs(sema::BuiltinArgs &args) {
  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  if (!expectRectangle(args))
    return std::nullopt;
  std::optional<int64_t> x = intArg(args, 0);
  std::optional<int64_t> y = x ? intArg(args, 1) : std::nullopt;
  if (!y)
    return std::nullopt;
  auto [width, height] = *layout.rectangle;
  if (*x < 0 || *y < 0 || *x >= width || *y >= height) {
    diags.error(args.getArg(0).getLoc(),
                "PE " + formatPE(*x, *y) + " is outside the " +
                    llvm::Twine(width) + "x" + llvm::Twine(height) +
                    " rectangle");
    return std::nullopt;
  }
  return std::make_pair(*x, *y);
}

const LayoutBuilder::TileFile *LayoutBuilder::getTileFile(llvm::StringRef path,
                                                          llvm::SMLoc callLoc) {
  if (auto it = tileFiles.find(path); it != tileFiles.end())
    return &it->second;
  LoadedFile *file = loader.load(path, callLoc, /*isImport=*/false,
                                 "instantiated by this '@set_tile_code'");
  if (!file)
    return nullptr;
  TileFile &tile = tileFiles[path];
  tile.file = file;
  llvm::StringSet<> reachable = findProgramParams(*file->ast);
  for (const ast::Node *decl : file->ast->decls)
    if (auto *var = llvm::dyn_cast<ast::VarDecl>(decl))
      if (var->varKind == ast::VarKind::Param)
        tile.params[var->name.text] = reachable.contains(var->name.text);
  return &tile;
}

std::optional<unsigned> LayoutBuilder::programFor(sema::BuiltinArgs &args,
                                                  unsigned fileArg) {
  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  std::optional<FileAndParams> request =
      evaluateFileAndParams(args, fileArg, "set_tile_code");
  if (!request)
    return std::nullopt;
  sema::ParamMap &params = request->params;
  llvm::SMLoc callLoc = args.getCall().getLoc();
  std::string path =
      loader.resolve(request->name, args.getArg(fileArg).getLoc());
  if (path.empty())
    return std::nullopt;
  const TileFile *tile = getTileFile(path, callLoc);
  if (!tile)
    return std::nullopt;
  // Every call's names are checked, also those the program cannot reach.
  llvm::SmallVector<llvm::StringRef> unknown, unreachable;
  for (const auto &entry : params) {
    auto declared = tile->params.find(entry.getKey());
    if (declared == tile->params.end())
      unknown.push_back(entry.getKey());
    else if (!declared->second)
      unreachable.push_back(entry.getKey());
  }
  if (!unknown.empty()) {
    llvm::sort(unknown);
    diags.error(args.getArg(fileArg + 1).getLoc(),
                "'" + request->name + "' declares no param named '" +
                    unknown.front() + "'");
    return std::nullopt;
  }
  // A param the program cannot reach has no effect, so it must not split
  // instances (a PE's own coordinates, say).
  for (llvm::StringRef name : unreachable)
    params.erase(name);
  if (std::optional<unsigned> id = programCache.find(path, params))
    return *id;

  unsigned id = layout.programs.size();
  programCache.insert(path, params, id);
  ProgramInstance program;
  program.path = path;
  program.displayName = request->name;
  program.params = params;
  program.module =
      &interp.createModule(*tile->file->ast, request->name, std::move(params));
  // A param without a value is an error only where it is used (lazily).
  program.module->setOrigin(callLoc, "set_tile_code");
  program.loc = callLoc;
  layout.programs.push_back(std::move(program));
  return id;
}

std::optional<Value> LayoutBuilder::setTileCode(sema::BuiltinArgs &args) {
  if (args.size() >= 4) {
    // A region as the first argument: coordinates are the region's.
    std::optional<Value> first = args.evaluate(0);
    if (!first)
      return std::nullopt;
    if (std::optional<unsigned> region = regionOf(*first))
      return setRegionTileCode(args, *region);
  }
  if (!expectArgs(args, 3, 4))
    return std::nullopt;
  std::optional<std::pair<int64_t, int64_t>> pe = peArgs(args);
  if (!pe)
    return std::nullopt;
  std::optional<unsigned> program = programFor(args);
  if (!program)
    return std::nullopt;
  llvm::SMLoc loc = args.getCall().getLoc();
  if (std::optional<Run> first =
          layout.placement.set(pe->first, pe->second, *program, loc)) {
    sema::DiagnosticEngine &diags = interp.getDiagnostics();
    diags.error(loc, "PE " + formatPE(pe->first, pe->second) +
                         " is given code twice");
    diags.note(first->loc, "first given code here");
    return std::nullopt;
  }
  return Value::getVoid(interp.getTypes());
}

std::optional<std::pair<int64_t, ColorConfig>>
LayoutBuilder::colorAndConfigArgs(sema::BuiltinArgs &args, unsigned colorArg) {
  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  std::optional<Value> color = args.evaluate(colorArg);
  if (!color)
    return std::nullopt;
  // A layout may name a color by its number, as @get_color does.
  std::optional<int64_t> colorID =
      colorOf(*color, args.getArg(colorArg).getLoc(), /*allowNumber=*/true);
  if (!colorID)
    return std::nullopt;
  const target::TargetModel &model =
      target::TargetModel::get(interp.getOptions().arch);
  std::optional<Value> config = args.evaluate(colorArg + 1);
  if (!config)
    return std::nullopt;
  llvm::SMLoc configLoc = args.getArg(colorArg + 1).getLoc();
  std::optional<ColorConfig> parsed =
      parseColorConfig(diags, *config, configLoc);
  if (!parsed)
    return std::nullopt;
  parsed->loc = args.getCall().getLoc();
  if ((parsed->colorSwapX || parsed->colorSwapY) && !model.hasColorSwap()) {
    diags.error(configLoc, "color swap is not available on '" +
                               llvm::StringRef(model.getName()) + "'");
    return std::nullopt;
  }
  return std::make_pair(*colorID, *parsed);
}

bool LayoutBuilder::configurePE(int64_t x, int64_t y, int64_t color,
                                unsigned index, llvm::SMLoc loc) {
  std::optional<Run> first = layout.colorConfigs[color].set(x, y, index, loc);
  if (!first)
    return true;
  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  diags.error(loc, layout.describeColor(color) + " of PE " + formatPE(x, y) +
                       " is configured twice");
  diags.note(first->loc, "first configured here");
  return false;
}

std::optional<Value> LayoutBuilder::setColorConfig(sema::BuiltinArgs &args) {
  if (args.size() == 5) {
    std::optional<Value> first = args.evaluate(0);
    if (!first)
      return std::nullopt;
    if (std::optional<unsigned> region = regionOf(*first))
      return setRegionColorConfig(args, *region);
  }
  if (!expectArgs(args, 4, 4))
    return std::nullopt;
  std::optional<std::pair<int64_t, int64_t>> pe = peArgs(args);
  if (!pe)
    return std::nullopt;
  auto colorAndConfig = colorAndConfigArgs(args, 2);
  if (!colorAndConfig)
    return std::nullopt;
  unsigned index = layout.internConfig(colorAndConfig->second);
  if (!configurePE(pe->first, pe->second, colorAndConfig->first, index,
                   args.getCall().getLoc()))
    return std::nullopt;
  return Value::getVoid(interp.getTypes());
}

std::optional<Value>
LayoutBuilder::setLocalColorConfig(sema::BuiltinArgs &args) {
  if (!currentProgram) {
    interp.getDiagnostics().error(
        args.getCall().getLoc(),
        "'@set_local_color_config' is only allowed in the comptime code of a "
        "program given to '@set_tile_code'");
    return std::nullopt;
  }
  if (!expectArgs(args, 2, 2))
    return std::nullopt;
  auto colorAndConfig = colorAndConfigArgs(args, 0);
  if (!colorAndConfig)
    return std::nullopt;
  // Every PE that runs the program gets the route.
  unsigned index = layout.internConfig(colorAndConfig->second);
  for (const auto &[y, runs] : layout.placement.getRows())
    for (const Run &run : runs)
      if (run.value == *currentProgram)
        for (int64_t x = run.begin; x < run.end; ++x)
          if (!configurePE(x, y, colorAndConfig->first, index,
                           args.getCall().getLoc()))
            return std::nullopt;
  return Value::getVoid(interp.getTypes());
}

/// Whether the host ABI can pass a value of `type`: a 16- or 32-bit number
/// with an MLIR equivalent (cb16 has none yet).
static bool isABIScalar(const sema::Type *type) {
  if (auto *i = llvm::dyn_cast<sema::IntType>(type))
    return i->getBitWidth() == 16 || i->getBitWidth() == 32;
  if (auto *f = llvm::dyn_cast<sema::FloatType>(type))
    return f->getFormat() != sema::FloatFormat::CB16;
  return false;
}

static bool isExportable(const sema::Type *type, bool isMutable) {
  if (auto *ptr = llvm::dyn_cast<sema::PointerType>(type)) {
    const sema::Type *element = ptr->getPointee();
    if (auto *array = llvm::dyn_cast<sema::ArrayType>(element))
      element = array->getElementType();
    return isABIScalar(element);
  }
  if (auto *fn = llvm::dyn_cast<sema::FunctionType>(type)) {
    if (isMutable || fn->isTask() ||
        !fn->getResult()->is(sema::Type::Kind::Void))
      return false;
    return llvm::all_of(fn->getParams(), isABIScalar);
  }
  return false;
}

std::optional<Value> LayoutBuilder::exportName(sema::BuiltinArgs &args) {
  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  if (!expectArgs(args, 2, 3))
    return std::nullopt;
  std::optional<Value> name = args.evaluate(0);
  if (!name)
    return std::nullopt;
  if (!name->is(Value::Kind::String)) {
    diags.error(args.getArg(0).getLoc(),
                "'@export_name' expects a name string, found '" +
                    name->getType()->str() + "'");
    return std::nullopt;
  }
  const sema::Type *type = args.evaluateType(1);
  if (!type)
    return std::nullopt;
  bool isMutable = false;
  if (args.size() == 3) {
    std::optional<Value> m = args.evaluate(2);
    if (!m)
      return std::nullopt;
    if (!m->is(Value::Kind::Bool)) {
      diags.error(args.getArg(2).getLoc(),
                  "expected a bool, found '" + m->getType()->str() + "'");
      return std::nullopt;
    }
    isMutable = m->getBool();
  }
  if (!isExportable(type, isMutable)) {
    diags.error(args.getArg(1).getLoc(),
                "cannot export '" + name->getString() + "' as '" + type->str() +
                    "': expected a pointer to 16- or 32-bit numbers, or a "
                    "function taking 16- or 32-bit numbers and returning "
                    "void (never mutable)");
    return std::nullopt;
  }
  llvm::SMLoc loc = args.getCall().getLoc();
  for (const ExportedName &e : layout.exports)
    if (e.name == name->getString()) {
      diags.error(loc, "'" + e.name + "' is exported twice");
      diags.note(e.loc, "first exported here");
      return std::nullopt;
    }
  layout.exports.push_back(
      ExportedName{name->getString().str(), type, isMutable, loc});
  return Value::getVoid(interp.getTypes());
}
