#include "tessera/Conversion/FabricToPE/FabricToPE.h"
mlir::LogicalResult
tessera::buildFabricFile(fabric::FabricOp, const llvm::StringMap<uint16_t> &,
                         pe::FabricFile &) {
  return mlir::failure();
}
