//===- FunctionGen.h - Run-time function and task bodies --------*- C++ -*-===//

#ifndef TESSERA_LIB_FRONTEND_MLIRGEN_FUNCTIONGEN_H
#define TESSERA_LIB_FRONTEND_MLIRGEN_FUNCTIONGEN_H

#include "tessera/Frontend/Sema/Interpreter.h"

#include "mlir/IR/Builders.h"

#include <functional>
#include <optional>
#include <string>

namespace tessera::frontend::mlirgen {

/// How a body reaches program-level symbols; ProgramGen emits each on first
/// request. Both report their own errors and return nullopt after one.
struct SymbolRequests {
  using Request = std::function<std::optional<std::string>(
      sema::ModuleInstance &, const ast::VarDecl &, llvm::SMLoc)>;
  /// A function of a module of the program.
  std::function<std::optional<std::string>(
      sema::ModuleInstance &, const ast::FnDecl &, llvm::SMLoc)>
      function;
  /// A top-level `var`.
  Request global;
  /// A top-level `const` initialized by `@allocate_fifo`: its
  /// csl.allocate_fifo symbol.
  Request fifo;
  /// A top-level `var` of DSD type: its csl.dsd_global symbol.
  Request dsdGlobal;
  /// A new uninitialized csl.dsd_global of `type` for a function's local
  /// DSD `var` named `name` (qualified by the caller); its symbol.
  std::function<std::string(sema::ModuleInstance &, llvm::StringRef name,
                            mlir::Type type, mlir::Location)>
      dsdSlot;
  /// A new csl.pointer_global of `type` without target for a function's
  /// local pointer `var`; its symbol.
  std::function<std::string(sema::ModuleInstance &, llvm::StringRef name,
                            mlir::Type type, mlir::Location)>
      pointerSlot;
  /// The specialization of generic function `fn` for `args` (a comptime
  /// value per comptime param, nullopt for a run-time one) with the
  /// instantiated signature `type`; `key` identifies the arguments.
  std::function<std::optional<std::string>(
      sema::ModuleInstance &, const ast::FnDecl &fn,
      const sema::FunctionType &type,
      llvm::ArrayRef<std::optional<sema::Value>> args, llvm::StringRef key,
      llvm::SMLoc)>
      specialization;
  /// The memref.global of top-level `var` `var` of whichever module of the
  /// program declares it (the target of a pointer a param carries).
  std::function<std::optional<std::string>(const ast::VarDecl &var,
                                           llvm::SMLoc)>
      globalByDecl;
  /// The task ID a task of the program is bound to, as a handle value
  /// (tasks given where an ID is expected, as in `.activate = t`).
  std::function<std::optional<sema::Value>(
      sema::ModuleInstance &, const ast::FnDecl &, llvm::SMLoc)>
      boundTaskID;
};

/// Lowers the body of `decl` (whose sema type is `type`) into the entry
/// block of `body`, whose arguments are the parameters. False after an error.
bool lowerBody(sema::Interpreter &interp, sema::ModuleInstance &module,
               const SymbolRequests &symbols, const ast::FnDecl &decl,
               const sema::FunctionType &type, mlir::Region &body,
               llvm::ArrayRef<std::optional<sema::Value>> comptimeArgs = {});

/// The top-level `var`, `const` or `param` named `name` in `module`, or
/// null (a function, or no such declaration).
const ast::VarDecl *getGlobalDecl(sema::ModuleInstance &module,
                                  llvm::StringRef name);

/// The DSD type of a top-level `var` holding a DSD, from its declared type
/// or its `@get_dsd(kind, ...)` initializer, without evaluating the
/// initializer (which only has a run-time meaning); null if it holds none.
const sema::Type *getDSDVarType(sema::Interpreter &interp,
                                sema::ModuleInstance &module,
                                const ast::VarDecl &var);

/// Lowers the initializer `init` of a global of type `type` into the
/// entry block of `body`, ending it with csl.yield. False after an error.
bool lowerInitializer(sema::Interpreter &interp, sema::ModuleInstance &module,
                      const SymbolRequests &symbols, const ast::Expr &init,
                      const sema::Type *type, mlir::Region &body);

} // namespace tessera::frontend::mlirgen

#endif // TESSERA_LIB_FRONTEND_MLIRGEN_FUNCTIONGEN_H
