//===- CSLOps.h - csl dialect types and operations --------------*- C++ -*-===//
#ifndef TESSERA_DIALECT_CSL_IR_CSLOPS_H
#define TESSERA_DIALECT_CSL_IR_CSLOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tessera/Dialect/CSL/IR/CSLDialect.h"

#define GET_TYPEDEF_CLASSES
#include "tessera/Dialect/CSL/IR/CSLOpsTypes.h.inc"

#define GET_OP_CLASSES
#include "tessera/Dialect/CSL/IR/CSLOps.h.inc"

#endif // TESSERA_DIALECT_CSL_IR_CSLOPS_H
