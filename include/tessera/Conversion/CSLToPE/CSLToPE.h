//===- CSLToPE.h - lower a csl program to a PE binary -----------*- C++ -*-===//
//
// The last step of the compiler: one csl.program (after
// tessera-verify-resources and tessera-allocate-memory) becomes one program
// binary in the PE instruction set (docs/ISA.md), with its symbol, task and
// line tables.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONVERSION_CSLTOPE_CSLTOPE_H
#define TESSERA_CONVERSION_CSLTOPE_CSLTOPE_H

#include "mlir/Support/LogicalResult.h"
#include "tessera/Dialect/CSL/IR/CSLOps.h"
#include "tessera/Target/PEBinary/Binary.h"

namespace tessera {

/// What the binary does not record but users want reported.
struct LoweringStats {
  uint32_t stackBytes = 0; ///< the deepest call chain's frames
};

/// Lowers `program` into `binary`. Errors are diagnostics at the op that
/// cannot be lowered (or at the program when it does not fit in memory).
mlir::LogicalResult lowerProgramToPE(csl::ProgramOp program,
                                     pe::ProgramBinary &binary,
                                     LoweringStats *stats = nullptr);

/// The binary's element type for a value of `type` (a pointer/memref: a
/// 16-bit address); None for types the binary cannot name.
pe::ElemType toPEElemType(mlir::Type type);

} // namespace tessera

#endif // TESSERA_CONVERSION_CSLTOPE_CSLTOPE_H
