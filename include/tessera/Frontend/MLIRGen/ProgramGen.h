//===- ProgramGen.h - A program instance to a csl.program -------*- C++ -*-===//
//
// Builds the `csl.program` of one program instance and the modules it
// imports (docs/MLIRGen.md). Emission is lazy: only what the exports,
// the bound tasks and the comptime code reach is emitted, so an
// unreferenced global is never allocated.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_FRONTEND_MLIRGEN_PROGRAMGEN_H
#define TESSERA_FRONTEND_MLIRGEN_PROGRAMGEN_H

#include "tessera/Dialect/CSL/IR/CSLOps.h"
#include "tessera/Frontend/MLIRGen/ProgramBuiltins.h"

#include "mlir/IR/Builders.h"

namespace tessera::frontend::mlirgen {

/// Runs the comptime blocks of `module` and of every module it imports
/// (recording through `builtins`) and appends their program at the
/// builder's insertion point. User errors are reported through the
/// interpreter's DiagnosticEngine and give failure.
mlir::FailureOr<csl::ProgramOp>
generateProgram(mlir::OpBuilder &builder, sema::Interpreter &interp,
                ProgramBuiltins &builtins, sema::ModuleInstance &module,
                llvm::StringRef symbol, mlir::StringAttr file,
                mlir::DictionaryAttr params);

} // namespace tessera::frontend::mlirgen

#endif // TESSERA_FRONTEND_MLIRGEN_PROGRAMGEN_H
