//===- VerifyNewOp.h - verify an op as soon as it is created ----*- C++ -*-===//
//
// The dialect verifiers are the one home of each IR rule. MLIRGen runs them on
// every op it builds from user source right away, so a violation is reported
// at the CSL construct that caused it instead of later as an internal error.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_LIB_FRONTEND_MLIRGEN_VERIFYNEWOP_H
#define TESSERA_LIB_FRONTEND_MLIRGEN_VERIFYNEWOP_H

#include "mlir/IR/Operation.h"

#include <optional>
#include <string>

namespace tessera::frontend::mlirgen {

/// Verifies `op`, and its symbol uses when it refers to symbols. Returns
/// nothing when it is valid, else the first verifier message without its
/// "'dialect.op' op " prefix.
std::optional<std::string> verifyNewOp(mlir::Operation *op);

} // namespace tessera::frontend::mlirgen

#endif // TESSERA_LIB_FRONTEND_MLIRGEN_VERIFYNEWOP_H
