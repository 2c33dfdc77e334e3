//===- ModuleLoader.h - CSL source files and @import_module ----*- C++ -*-===//
//
// Finds, reads and parses the files a program consists of (each once), and
// implements `@import_module`: a user file is looked up relative to the
// importing file, then in each --import-path; `"<a/b>"` names the library
// module `<library dir>/a/b.csl`. Instances are cached by (canonical path,
// param values). Diagnostics inside an imported file get a note "imported
// from here" for each import that led to it.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_FRONTEND_ELABORATION_MODULELOADER_H
#define TESSERA_FRONTEND_ELABORATION_MODULELOADER_H

#include "tessera/Frontend/AST.h"
#include "tessera/Frontend/Elaboration/InstanceCache.h"
#include "tessera/Frontend/Sema/Interpreter.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tessera::frontend::elaboration {

struct LoaderOptions {
  std::vector<std::string> importPaths;
  /// Where `"<name>"` modules live; the build passes lib/csl/.
  std::string libraryDir;
};

/// A parsed source file.
struct LoadedFile {
  std::string path; // canonical
  unsigned bufferID = 0;
  std::unique_ptr<ast::SourceFile> ast;

  /// The file's top-level `param` declaration `name`, or null.
  const ast::VarDecl *findParam(llvm::StringRef name) const;
};

class ModuleLoader {
public:
  ModuleLoader(llvm::SourceMgr &sm, sema::Interpreter &interp,
               llvm::raw_ostream &diagOS, LoaderOptions options);

  /// Takes a file the driver has parsed already (the top-level file).
  LoadedFile &addParsedFile(llvm::StringRef path, unsigned bufferID,
                            std::unique_ptr<ast::SourceFile> file);

  /// The canonical path `spec` names as seen from the file holding `loc`;
  /// reports an error at `loc` and returns "" when there is none.
  std::string resolve(llvm::StringRef spec, llvm::SMLoc loc);
  /// Reads and parses `canonicalPath` once; null after reporting syntax
  /// errors (followed by the note `usedHere` at `loc`) or a read error. An
  /// import (`isImport`) also adds `loc` to the import chain of the file.
  LoadedFile *load(llvm::StringRef canonicalPath, llvm::SMLoc loc,
                   bool isImport, llvm::StringRef usedHere);

  /// Registers `@import_module` with the interpreter and the note hook with
  /// its diagnostics.
  void install();

  /// Errors the interpreter's DiagnosticEngine does not count (syntax errors
  /// of imported files).
  unsigned getNumSyntaxErrors() const { return numSyntaxErrors; }
  /// Distinct (file, params) instances made by @import_module.
  unsigned getNumInstances() const { return instances.size(); }

private:
  std::string resolveUncached(llvm::StringRef spec, llvm::SMLoc loc);

  std::optional<sema::Value> importModule(sema::BuiltinArgs &args);
  void noteImportChain(llvm::SMLoc loc);
  /// Records the `@import_module` calls that initialise a top-level const of
  /// `file`, the only place the reference allows one.
  void addConstImports(const ast::SourceFile &file);

  llvm::SourceMgr &sm;
  sema::Interpreter &interp;
  llvm::raw_ostream &diagOS;
  LoaderOptions options;
  llvm::StringMap<std::unique_ptr<LoadedFile>> files;
  /// Buffer ID to its file's path.
  llvm::DenseMap<unsigned, std::string> bufferPaths;
  /// Found paths by (buffer of the naming call, spec): a layout names its
  /// tile file once per PE, and each search costs file system calls.
  std::map<std::pair<unsigned, std::string>, std::string> resolved;
  /// Buffer ID to the @import_module call that first imported it.
  llvm::DenseMap<unsigned, llvm::SMLoc> importedFrom;
  llvm::DenseSet<const ast::BuiltinCall *> constImports;
  InstanceCache cache;
  std::vector<sema::ModuleInstance *> instances;
  unsigned numSyntaxErrors = 0;
};

/// Converts a struct of params (`.{ .width = 4 }`) into a ParamMap; reports
/// an error at `loc` when `value` is not such a struct.
std::optional<sema::ParamMap> toParamMap(sema::DiagnosticEngine &diags,
                                         const sema::Value &value,
                                         llvm::StringRef builtin,
                                         llvm::SMLoc loc);

/// A source file name with the params it is instantiated with.
struct FileAndParams {
  std::string name;
  sema::ParamMap params;
};

/// Evaluates a file-name argument at `fileArg` and the optional params
/// struct after it, as `@import_module` and `@set_tile_code` take them.
std::optional<FileAndParams> evaluateFileAndParams(sema::BuiltinArgs &args,
                                                   unsigned fileArg,
                                                   llvm::StringRef builtin);

} // namespace tessera::frontend::elaboration

#endif // TESSERA_FRONTEND_ELABORATION_MODULELOADER_H
