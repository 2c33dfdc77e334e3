//===- TypeLowering.h - CSL types and values in MLIR ------------*- C++ -*-===//

#ifndef TESSERA_LIB_FRONTEND_MLIRGEN_TYPELOWERING_H
#define TESSERA_LIB_FRONTEND_MLIRGEN_TYPELOWERING_H

#include "tessera/Frontend/Sema/Value.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

namespace tessera::frontend::mlirgen {

/// The MLIR type of a run-time CSL type (docs/Dialects.md), or null when it
/// has none (comptime-only types, structs, cb16).
mlir::Type lowerType(mlir::MLIRContext &context, const sema::Type *type);

/// The storage of a global or local of `type`: arrays as they are, scalars
/// as rank-0 memrefs; null when `type` has no lowering.
mlir::MemRefType getStorageType(mlir::MLIRContext &context,
                                const sema::Type *type);

/// The dense initial value of storage of type `storage` holding `value`,
/// or null when the value cannot be stored.
mlir::Attribute getInitialValue(mlir::MemRefType storage,
                                const sema::Value &value);

/// A location in the source for diagnostics the verifier may give.
mlir::Location getLocation(mlir::MLIRContext &context, llvm::SourceMgr &sm,
                           llvm::SMLoc loc);

} // namespace tessera::frontend::mlirgen

#endif // TESSERA_LIB_FRONTEND_MLIRGEN_TYPELOWERING_H
