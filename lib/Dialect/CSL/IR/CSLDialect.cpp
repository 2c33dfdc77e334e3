//===- CSLDialect.cpp - the csl dialect -----------------------------------===//

#include "tessera/Dialect/CSL/IR/CSLDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "tessera/Dialect/CSL/IR/CSLOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tessera::csl;

#include "tessera/Dialect/CSL/IR/CSLOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tessera/Dialect/CSL/IR/CSLOpsTypes.cpp.inc"

void CSLDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tessera/Dialect/CSL/IR/CSLOpsTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tessera/Dialect/CSL/IR/CSLOps.cpp.inc"
      >();
}
