//===- FabricDialect.cpp - the fabric dialect and its attributes ----------===//

#include "tessera/Dialect/Fabric/IR/FabricDialect.h"

#include "tessera/Dialect/CSL/IR/CSLDialect.h"
#include "tessera/Dialect/Fabric/IR/FabricOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tessera::fabric;

#include "tessera/Dialect/Fabric/IR/FabricDialect.cpp.inc"
#include "tessera/Dialect/Fabric/IR/FabricEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tessera/Dialect/Fabric/IR/FabricAttrs.cpp.inc"

void FabricDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tessera/Dialect/Fabric/IR/FabricAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tessera/Dialect/Fabric/IR/FabricOps.cpp.inc"
      >();
}
