//===- ModuleLoader.cpp - CSL source files and @import_module -------------===//

#include "tessera/Frontend/Elaboration/ModuleLoader.h"

#include "tessera/Frontend/Parser.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace tessera::frontend;
using namespace tessera::frontend::elaboration;
using sema::Value;

const ast::VarDecl *LoadedFile::findParam(llvm::StringRef name) const {
  for (const ast::Node *decl : ast->decls)
    if (auto *var = llvm::dyn_cast<ast::VarDecl>(decl))
      if (var->varKind == ast::VarKind::Param && var->name.text == name)
        return var;
  return nullptr;
}

ModuleLoader::ModuleLoader(llvm::SourceMgr &sm, sema::Interpreter &interp,
                           llvm::raw_ostream &diagOS, LoaderOptions options)
    : sm(sm), interp(interp), diagOS(diagOS), options(std::move(options)) {}

static std::string canonicalize(llvm::StringRef path) {
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(path, real))
    return path.str();
  return std::string(real);
}

LoadedFile &ModuleLoader::addParsedFile(llvm::StringRef path, unsigned bufferID,
                                        std::unique_ptr<ast::SourceFile> file) {
  std::string canonical = canonicalize(path);
  auto loaded = std::make_unique<LoadedFile>();
  loaded->path = canonical;
  loaded->bufferID = bufferID;
  loaded->ast = std::move(file);
  bufferPaths[bufferID] = canonical;
  addConstImports(*loaded->ast);
  auto &slot = files[canonical];
  slot = std::move(loaded);
  return *slot;
}

std::string ModuleLoader::resolve(llvm::StringRef spec, llvm::SMLoc loc) {
  std::pair<unsigned, std::string> key{sm.FindBufferContainingLoc(loc),
                                       spec.str()};
  if (auto it = resolved.find(key); it != resolved.end())
    return it->second;
  std::string path = resolveUncached(spec, loc);
  // Failures are not kept, so each failing call reports its error.
  if (!path.empty())
    resolved.emplace(std::move(key), path);
  return path;
}

std::string ModuleLoader::resolveUncached(llvm::StringRef spec,
                                          llvm::SMLoc loc) {
  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  if (spec.starts_with("<") && spec.ends_with(">")) {
    llvm::SmallString<256> path(options.libraryDir);
    llvm::sys::path::append(path, spec.drop_front().drop_back() + ".csl");
    if (!options.libraryDir.empty() && llvm::sys::fs::is_regular_file(path))
      return canonicalize(path);
    diags.error(loc, "library module '" + spec + "' is not available yet");
    return "";
  }
  if (llvm::sys::path::is_absolute(spec)) {
    if (llvm::sys::fs::is_regular_file(spec))
      return canonicalize(spec);
  } else {
    // Relative to the importing file first, then each --import-path.
    std::vector<std::string> dirs;
    unsigned buffer = sm.FindBufferContainingLoc(loc);
    auto it = bufferPaths.find(buffer);
    dirs.push_back(it == bufferPaths.end()
                       ? "."
                       : llvm::sys::path::parent_path(it->second).str());
    dirs.insert(dirs.end(), options.importPaths.begin(),
                options.importPaths.end());
    for (const std::string &dir : dirs) {
      llvm::SmallString<256> path(dir);
      llvm::sys::path::append(path, spec);
      if (llvm::sys::fs::is_regular_file(path))
        return canonicalize(path);
    }
  }
  diags.error(loc, "cannot find '" + spec +
                       "' next to the importing file or in an --import-path");
  return "";
}

LoadedFile *ModuleLoader::load(llvm::StringRef canonicalPath, llvm::SMLoc loc,
                               bool isImport, llvm::StringRef usedHere) {
  auto it = files.find(canonicalPath);
  if (it != files.end())
    return it->second->ast ? it->second.get() : nullptr;
  auto &slot = files[canonicalPath];
  slot = std::make_unique<LoadedFile>();
  slot->path = canonicalPath.str();

  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  auto buffer = llvm::MemoryBuffer::getFile(canonicalPath, /*IsText=*/true);
  if (std::error_code ec = buffer.getError()) {
    diags.error(loc, "cannot read '" + canonicalPath + "': " + ec.message());
    return nullptr;
  }
  // No include location: SourceMgr would print its own "Included from"
  // lines; the import chain is given as notes instead.
  unsigned id = sm.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  bufferPaths[id] = slot->path;
  if (isImport && loc.isValid())
    importedFrom[id] = loc;
  ParseResult parsed = parseSourceFile(sm, id, diagOS);
  if (parsed.numErrors > 0) {
    numSyntaxErrors += parsed.numErrors;
    diags.note(loc, usedHere);
    noteImportChain(loc);
    return nullptr;
  }
  slot->bufferID = id;
  addConstImports(*parsed.file);
  slot->ast = std::move(parsed.file);
  return slot.get();
}

void ModuleLoader::addConstImports(const ast::SourceFile &file) {
  for (const ast::Node *decl : file.decls)
    if (auto *var = llvm::dyn_cast<ast::VarDecl>(decl))
      if (var->varKind == ast::VarKind::Const)
        if (auto *call = llvm::dyn_cast_or_null<ast::BuiltinCall>(var->init))
          if (call->name.text == "import_module")
            constImports.insert(call);
}

void ModuleLoader::noteImportChain(llvm::SMLoc loc) {
  // A file imported more than once: the instance being evaluated knows which
  // import made it; further up, the chain goes by file.
  if (sema::ModuleInstance *m = interp.getCurrentModule();
      m && loc.isValid() && m->getOriginLoc().isValid() &&
      m->getOriginBuiltin() == "import_module" &&
      sm.FindBufferContainingLoc(m->getFile().getLoc()) ==
          sm.FindBufferContainingLoc(loc)) {
    loc = m->getOriginLoc();
    interp.getDiagnostics().note(loc, "imported from here");
  }
  // Bounded by the number of buffers: each has at most one importer, and a
  // file is parsed before anything imports it back.
  for (unsigned depth = 0; loc.isValid() && depth < sm.getNumBuffers();
       ++depth) {
    auto it = importedFrom.find(sm.FindBufferContainingLoc(loc));
    if (it == importedFrom.end())
      return;
    loc = it->second;
    interp.getDiagnostics().note(loc, "imported from here");
  }
}

void ModuleLoader::install() {
  interp.registerBuiltin("import_module", [this](sema::BuiltinArgs &args) {
    return importModule(args);
  });
  interp.getDiagnostics().setReportHook(
      [this](llvm::SMLoc loc) { noteImportChain(loc); });
}

std::optional<sema::ParamMap>
elaboration::toParamMap(sema::DiagnosticEngine &diags, const Value &value,
                        llvm::StringRef builtin, llvm::SMLoc loc) {
  bool isStruct = value.is(Value::Kind::Struct);
  if (isStruct && value.isTuple() && !value.getFields().empty())
    isStruct = false;
  if (!isStruct) {
    diags.error(loc, "'@" + builtin + "' expects a struct of params, found '" +
                         value.getType()->str() + "'");
    return std::nullopt;
  }
  sema::ParamMap params;
  for (const sema::FieldValue &field : value.getFields())
    params[field.name] = field.value;
  return params;
}

std::optional<Value> ModuleLoader::importModule(sema::BuiltinArgs &args) {
  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  const ast::BuiltinCall &call = args.getCall();
  if (!constImports.contains(&call)) {
    diags.error(call.getLoc(),
                "'@import_module' must initialise a top-level const");
    return std::nullopt;
  }
  if (args.size() < 1 || args.size() > 2) {
    diags.error(call.name.loc(),
                "'@import_module' expects 1 or 2 arguments, found " +
                    llvm::Twine(args.size()));
    return std::nullopt;
  }
  std::optional<FileAndParams> request =
      evaluateFileAndParams(args, 0, "import_module");
  if (!request)
    return std::nullopt;
  sema::ParamMap &params = request->params;

  std::string path = resolve(request->name, args.getArg(0).getLoc());
  if (path.empty())
    return std::nullopt;
  LoadedFile *file =
      load(path, call.getLoc(), /*isImport=*/true, "imported from here");
  if (!file)
    return std::nullopt;

  // Names the file does not declare are dropped with a warning, as the
  // reference says, so they do not split the instance cache.
  llvm::SmallVector<llvm::StringRef> unknown;
  for (const auto &entry : params)
    if (!file->findParam(entry.getKey()))
      unknown.push_back(entry.getKey());
  llvm::sort(unknown);
  for (llvm::StringRef n : unknown) {
    diags.warning(args.getArg(1).getLoc(), "'" + request->name +
                                               "' declares no param named '" +
                                               n + "'");
    params.erase(n);
  }

  sema::ModuleInstance *instance;
  if (std::optional<unsigned> id = cache.find(path, params)) {
    instance = instances[*id];
  } else {
    cache.insert(path, params, instances.size());
    instance =
        &interp.createModule(*file->ast, request->name, std::move(params));
    instance->setOrigin(args.getCall().getLoc(), "import_module");
    instances.push_back(instance);
  }
  return Value::getModule(interp.getTypes(), instance);
}

std::optional<FileAndParams>
elaboration::evaluateFileAndParams(sema::BuiltinArgs &args, unsigned fileArg,
                                   llvm::StringRef builtin) {
  sema::DiagnosticEngine &diags = args.getInterpreter().getDiagnostics();
  std::optional<Value> name = args.evaluate(fileArg);
  if (!name)
    return std::nullopt;
  if (!name->is(Value::Kind::String)) {
    diags.error(args.getArg(fileArg).getLoc(),
                "'@" + builtin + "' expects a file name string, found '" +
                    name->getType()->str() + "'");
    return std::nullopt;
  }
  FileAndParams result{name->getString().str(), {}};
  unsigned paramsArg = fileArg + 1;
  if (args.size() > paramsArg) {
    std::optional<Value> v = args.evaluate(paramsArg);
    if (!v)
      return std::nullopt;
    std::optional<sema::ParamMap> params =
        toParamMap(diags, *v, builtin, args.getArg(paramsArg).getLoc());
    if (!params)
      return std::nullopt;
    result.params = std::move(*params);
  }
  return result;
}
