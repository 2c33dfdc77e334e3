//===- CSLOps.cpp - csl dialect operations --------------------------------===//

#include "tessera/Dialect/CSL/IR/CSLOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace tessera::csl;

LogicalResult GetColorOp::verify() {
  // The attribute is signless; a negative ID can only come from bad input.
  if (static_cast<int64_t>(getId()) < 0)
    return emitOpError() << "color id must be non-negative, got "
                         << static_cast<int64_t>(getId());
  return success();
}

#define GET_OP_CLASSES
#include "tessera/Dialect/CSL/IR/CSLOps.cpp.inc"
