//===- CSLTarget.h - target facts for csl verifiers -------------*- C++ -*-===//
//
// Verifiers find the architecture of the enclosing csl.program and ask the
// TargetModel; no dialect code writes a hardware number down.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_DIALECT_CSL_IR_CSLTARGET_H
#define TESSERA_DIALECT_CSL_IR_CSLTARGET_H

#include "tessera/Dialect/CSL/IR/CSLTypes.h"
#include "tessera/Target/TargetModel.h"

#include "llvm/ADT/StringRef.h"

namespace mlir {
class Operation;
} // namespace mlir

namespace tessera::csl {

target::Arch toTargetArch(Arch arch);
target::TaskKind toTargetTaskKind(TaskKind kind);

/// The model of the csl.program that contains `op` (or is `op`), or null
/// outside a program.
const target::TargetModel *getEnclosingTarget(mlir::Operation *op);

/// The name of an ID range for messages: "0..23".
std::string formatRange(target::IDRange range);

} // namespace tessera::csl

#endif // TESSERA_DIALECT_CSL_IR_CSLTARGET_H
