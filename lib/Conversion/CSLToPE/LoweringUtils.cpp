//===- LoweringUtils.cpp - types and constants as the PE sees them -------===//

#include "LoweringUtils.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "tessera/Dialect/CSL/IR/CSLTypes.h"

using namespace mlir;

unsigned tessera::lowering::getBitWidth(Type type) {
  if (type.isIndex())
    return 32;
  if (type.isIntOrFloat())
    return type.getIntOrFloatBitWidth();
  return 16;
}

unsigned tessera::lowering::getStorageBytes(Type type) {
  if (type.isIndex())
    return 4;
  if (isa<tessera::csl::DSDType>(type))
    return 32; // a descriptor slot, as tessera-allocate-memory counts it
  if (type.isIntOrFloat())
    return std::max(1u, type.getIntOrFloatBitWidth() / 8);
  return 2;
}

std::optional<int64_t> tessera::lowering::getConstantBits(Attribute value) {
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    unsigned width = getBitWidth(i.getType());
    if (width > 32)
      return std::nullopt;
    return static_cast<int64_t>(i.getValue().getZExtValue() &
                                (width == 32 ? 0xFFFFFFFFull
                                             : ((1ull << width) - 1)));
  }
  if (auto f = dyn_cast<FloatAttr>(value)) {
    if (f.getType().getIntOrFloatBitWidth() > 32)
      return std::nullopt;
    return static_cast<int64_t>(f.getValue().bitcastToAPInt().getZExtValue());
  }
  if (auto b = dyn_cast<BoolAttr>(value))
    return b.getValue() ? 1 : 0;
  return std::nullopt;
}

LogicalResult tessera::lowering::checkRunTimeType(Type type, Location loc) {
  if ((type.isIntOrFloat() && type.getIntOrFloatBitWidth() > 32))
    return emitError(loc) << "run-time values of type " << type
                          << " are not supported by this cslc (registers "
                             "hold 32 bits)";
  return success();
}
