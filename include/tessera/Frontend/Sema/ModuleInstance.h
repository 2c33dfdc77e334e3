//===- ModuleInstance.h - One instance of a CSL source file ----*- C++ -*-===//
//
// A source file with its param values and the lazily evaluated state of its
// top-level declarations. Importing a file twice gives two instances with
// their own globals.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_FRONTEND_SEMA_MODULEINSTANCE_H
#define TESSERA_FRONTEND_SEMA_MODULEINSTANCE_H

#include "tessera/Frontend/AST.h"
#include "tessera/Frontend/Sema/Value.h"

#include "llvm/ADT/StringMap.h"

#include <vector>

namespace tessera::frontend::sema {

/// Param values by name, as `@set_tile_code`, `@import_module` or
/// `cslc --params` supply them.
using ParamMap = llvm::StringMap<Value>;

/// The evaluation state of one named top-level declaration.
struct GlobalSlot {
  enum class State : uint8_t { Unevaluated, InProgress, Done, Failed };
  const ast::Node *decl = nullptr; // VarDecl or FnDecl
  State state = State::Unevaluated;
  /// Comptime value (const, param, fn), or a RunTime value for a `var`.
  Value value;
  /// The initialiser's value of a `var`; invalid when it has none.
  Value initialValue;
  /// Set when comptime evaluation read the declaration.
  bool referenced = false;
};

class ModuleInstance {
public:
  ModuleInstance(const ast::SourceFile &file, std::string name, ParamMap params)
      : file(file), name(std::move(name)), params(std::move(params)) {}

  const ast::SourceFile &getFile() const { return file; }
  llvm::StringRef getName() const { return name; }
  const ParamMap &getParams() const { return params; }
  /// Replaces a param's value before anything read it (the connection
  /// resolver turns symbolic colors into physical ones).
  void replaceParam(llvm::StringRef key, Value value) {
    params[key] = std::move(value);
  }

  /// Where this instance was created (an `@import_module` or `@set_tile_code`
  /// call) and that call's name; diagnostics about params point there.
  void setOrigin(llvm::SMLoc loc, llvm::StringRef builtin) {
    originLoc = loc;
    originBuiltin = builtin.str();
  }
  llvm::SMLoc getOriginLoc() const { return originLoc; }
  llvm::StringRef getOriginBuiltin() const { return originBuiltin; }

  /// The slot of top-level declaration `name`, or null.
  GlobalSlot *findGlobal(llvm::StringRef n);
  const GlobalSlot *findGlobal(llvm::StringRef n) const;
  /// Whether comptime evaluation referenced `decl`.
  bool isReferenced(const ast::Node *decl) const;
  /// Top-level `var`s that were referenced, in source order: only these
  /// need storage.
  std::vector<const ast::VarDecl *> getReferencedVars() const;
  /// Modules this one imported into an evaluated `const` or `var` (not
  /// params: a module passed in belongs to whoever imported it).
  std::vector<ModuleInstance *> getImportedModules() const;

  llvm::ArrayRef<const ast::ComptimeBlock *> getComptimeBlocks() const {
    return comptimeBlocks;
  }
  /// The file's `layout` block, or null.
  const ast::LayoutBlock *getLayoutBlock() const { return layout; }

private:
  friend class Evaluator;
  const ast::SourceFile &file;
  std::string name;
  ParamMap params;
  llvm::SMLoc originLoc;
  std::string originBuiltin;
  llvm::StringMap<GlobalSlot> globals;
  std::vector<GlobalSlot *> order;
  std::vector<const ast::ComptimeBlock *> comptimeBlocks;
  const ast::LayoutBlock *layout = nullptr;
};

} // namespace tessera::frontend::sema

#endif // TESSERA_FRONTEND_SEMA_MODULEINSTANCE_H
