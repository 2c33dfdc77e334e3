//===- FabricDialect.h - the fabric dialect ---------------------*- C++ -*-===//
#ifndef TESSERA_DIALECT_FABRIC_IR_FABRICDIALECT_H
#define TESSERA_DIALECT_FABRIC_IR_FABRICDIALECT_H

#include "mlir/IR/Dialect.h"

#include "tessera/Dialect/Fabric/IR/FabricDialect.h.inc"

#endif // TESSERA_DIALECT_FABRIC_IR_FABRICDIALECT_H
