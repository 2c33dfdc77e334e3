//===- CSLDialect.h - the csl dialect ---------------------------*- C++ -*-===//
#ifndef TESSERA_DIALECT_CSL_IR_CSLDIALECT_H
#define TESSERA_DIALECT_CSL_IR_CSLDIALECT_H

#include "mlir/IR/Dialect.h"

#include "tessera/Dialect/CSL/IR/CSLDialect.h.inc"

#endif // TESSERA_DIALECT_CSL_IR_CSLDIALECT_H
