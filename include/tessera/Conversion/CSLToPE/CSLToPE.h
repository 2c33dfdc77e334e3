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

/// Lowers `program` into `binary`. Errors are diagnostics at the op that
/// cannot be lowered (or at the program when it does not fit in memory).
mlir::LogicalResult lowerProgramToPE(csl::ProgramOp program,
                                     pe::ProgramBinary &binary);

} // namespace tessera

#endif // TESSERA_CONVERSION_CSLTOPE_CSLTOPE_H
