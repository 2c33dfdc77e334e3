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
};

/// Lowers the body of `decl` (whose sema type is `type`) into the entry
/// block of `body`, whose arguments are the parameters. False after an error.
bool lowerBody(sema::Interpreter &interp, sema::ModuleInstance &module,
               const SymbolRequests &symbols, const ast::FnDecl &decl,
               const sema::FunctionType &type, mlir::Region &body);

} // namespace tessera::frontend::mlirgen

#endif // TESSERA_LIB_FRONTEND_MLIRGEN_FUNCTIONGEN_H
