//===- Passes.h - passes over csl programs ----------------------*- C++ -*-===//
#ifndef TESSERA_DIALECT_CSL_TRANSFORMS_PASSES_H
#define TESSERA_DIALECT_CSL_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"
#include "tessera/Dialect/CSL/IR/CSLOps.h"
#include "tessera/Dialect/CSL/Transforms/MemoryAllocator.h"

#include "llvm/ADT/StringRef.h"

namespace tessera::csl {

#define GEN_PASS_DECL
#include "tessera/Dialect/CSL/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tessera/Dialect/CSL/Transforms/Passes.h.inc"

/// The attributes tessera-allocate-memory sets (docs/Passes.md): the byte
/// address of each global, and on the program the end of the initialised
/// data and of the zero-filled data.
inline constexpr llvm::StringLiteral kAddressAttrName = "csl.address";
inline constexpr llvm::StringLiteral kDataEndAttrName = "csl.data_end";
inline constexpr llvm::StringLiteral kBssEndAttrName = "csl.bss_end";

/// Whether `op` is a global that takes program memory: a memref.global, a
/// csl.pointer_global or a csl.dsd_global.
bool isMemoryGlobal(mlir::Operation *op);

/// The piece of memory a global takes, as tessera-allocate-memory counts it:
/// its symbol, its size and alignment, and whether it has initial data.
/// Emits an error at the global and fails when it has no size in PE memory.
mlir::FailureOr<MemoryPiece> getGlobalMemoryPiece(mlir::Operation *op);

} // namespace tessera::csl

#endif // TESSERA_DIALECT_CSL_TRANSFORMS_PASSES_H
