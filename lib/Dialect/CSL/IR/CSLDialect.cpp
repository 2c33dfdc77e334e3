//===- CSLDialect.cpp - the csl dialect, its enums and types --------------===//

#include "tessera/Dialect/CSL/IR/CSLDialect.h"

#include "tessera/Dialect/CSL/IR/CSLOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tessera::csl;

#include "tessera/Dialect/CSL/IR/CSLDialect.cpp.inc"
#include "tessera/Dialect/CSL/IR/CSLEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tessera/Dialect/CSL/IR/CSLAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tessera/Dialect/CSL/IR/CSLTypes.cpp.inc"

void CSLDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tessera/Dialect/CSL/IR/CSLAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tessera/Dialect/CSL/IR/CSLTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tessera/Dialect/CSL/IR/CSLOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// DSDType
//===----------------------------------------------------------------------===//

bool DSDType::isMemory() const {
  DSDKind kind = getKind();
  return kind == DSDKind::Mem1d || kind == DSDKind::Mem4d ||
         kind == DSDKind::Circbuf;
}

bool DSDType::isFabric() const {
  return getKind() == DSDKind::Fabin || getKind() == DSDKind::Fabout;
}

LogicalResult DSDType::verify(function_ref<InFlightDiagnostic()> emitError,
                              DSDKind kind, Type elementType) {
  bool fabric = kind == DSDKind::Fabin || kind == DSDKind::Fabout;
  if (fabric) {
    // Wavelets are untyped words; the operation decides their meaning.
    if (elementType)
      return emitError() << "a " << stringifyDSDKind(kind)
                         << " DSD carries no element type";
    return success();
  }
  if (!elementType)
    return emitError() << "a " << stringifyDSDKind(kind)
                       << " DSD needs an element type";
  if (!elementType.isF16() && !elementType.isF32() &&
      !elementType.isSignlessInteger(16) && !elementType.isSignlessInteger(32))
    return emitError() << "DSD element type must be f16, f32, i16 or i32, got "
                       << elementType;
  return success();
}
