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

#endif // TESSERA_DIALECT_CSL_IR_CSLOPS_H
