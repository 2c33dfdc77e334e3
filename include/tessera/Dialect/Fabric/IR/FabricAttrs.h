//===- FabricAttrs.h - fabric dialect enums and attributes ------*- C++ -*-===//
#ifndef TESSERA_DIALECT_FABRIC_IR_FABRICATTRS_H
#define TESSERA_DIALECT_FABRIC_IR_FABRICATTRS_H

#include "mlir/IR/Attributes.h"
#include "tessera/Dialect/Fabric/IR/FabricDialect.h"

#include "tessera/Dialect/Fabric/IR/FabricEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tessera/Dialect/Fabric/IR/FabricAttrs.h.inc"

#endif // TESSERA_DIALECT_FABRIC_IR_FABRICATTRS_H
