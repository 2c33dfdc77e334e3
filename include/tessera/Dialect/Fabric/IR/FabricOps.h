//===- FabricOps.h - fabric dialect operations ------------------*- C++ -*-===//
#ifndef TESSERA_DIALECT_FABRIC_IR_FABRICOPS_H
#define TESSERA_DIALECT_FABRIC_IR_FABRICOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "tessera/Dialect/CSL/IR/CSLTypes.h"
#include "tessera/Dialect/Fabric/IR/FabricAttrs.h"
#include "tessera/Dialect/Fabric/IR/PERange.h"

#define GET_OP_CLASSES
#include "tessera/Dialect/Fabric/IR/FabricOps.h.inc"

#endif // TESSERA_DIALECT_FABRIC_IR_FABRICOPS_H
