//===- CSLOps.cpp - the generated csl operation classes -------------------===//
//
// The verifiers live next to their kind of operation: ProgramOps.cpp,
// HandleOps.cpp, DSDOps.cpp and DSDOperands.cpp.
//
//===----------------------------------------------------------------------===//

#include "tessera/Dialect/CSL/IR/CSLOps.h"

#include "DSDOperands.h"
#include "tessera/Dialect/Utils/EnumKeyword.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::csl;

#define GET_OP_CLASSES
#include "tessera/Dialect/CSL/IR/CSLOps.cpp.inc"
