//===- CSLTypes.h - csl dialect enums, attributes and types -----*- C++ -*-===//
#ifndef TESSERA_DIALECT_CSL_IR_CSLTYPES_H
#define TESSERA_DIALECT_CSL_IR_CSLTYPES_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Types.h"
#include "tessera/Dialect/CSL/IR/CSLDialect.h"

#include "tessera/Dialect/CSL/IR/CSLEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tessera/Dialect/CSL/IR/CSLAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tessera/Dialect/CSL/IR/CSLTypes.h.inc"

#endif // TESSERA_DIALECT_CSL_IR_CSLTYPES_H
