//===- CSLOps.h - csl dialect operations ------------------------*- C++ -*-===//
#ifndef TESSERA_DIALECT_CSL_IR_CSLOPS_H
#define TESSERA_DIALECT_CSL_IR_CSLOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tessera/Dialect/CSL/IR/CSLTypes.h"

#define GET_OP_CLASSES
#include "tessera/Dialect/CSL/IR/CSLOps.h.inc"

#include <optional>
#include <string>

namespace tessera::csl {

/// Where a tensor access DSD reaches outside its statically shaped base, as
/// a message; nullopt when it stays inside or the base is dynamic. Not a
/// verifier error: CSL programs build placeholder DSDs whose length they
/// overwrite before use.
std::optional<std::string> describeOutOfBounds(TensorAccessDSDOp op);

} // namespace tessera::csl

#endif // TESSERA_DIALECT_CSL_IR_CSLOPS_H
