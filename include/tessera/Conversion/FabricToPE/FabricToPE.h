//===- FabricToPE.h - the fabric file from the fabric dialect ---*- C++ -*-===//
//
// Turns a verified `fabric.fabric` (after tessera-verify-routes) into the
// fabric file of the binary format: which PE runs which program binary, and
// every PE's router configuration, as runs of equal neighbours.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONVERSION_FABRICTOPE_FABRICTOPE_H
#define TESSERA_CONVERSION_FABRICTOPE_FABRICTOPE_H

#include "mlir/Support/LogicalResult.h"
#include "tessera/Dialect/Fabric/IR/FabricOps.h"
#include "tessera/Target/PEBinary/Binary.h"
#include "llvm/ADT/StringMap.h"

namespace tessera {

/// Builds `file` from `fabric`. `programIndex` maps each csl.program symbol
/// that a fabric.instance names to its index in `file.programs`, which the
/// caller has filled with the binaries' file names. Sets the header, the
/// placement and the route runs (rectangle coordinates, docs/Routing.md) and
/// leaves `file.programs` and `file.values` as they are. Emits a diagnostic
/// at the offending op and fails on anything the format cannot express.
mlir::LogicalResult
buildFabricFile(fabric::FabricOp fabric,
                const llvm::StringMap<uint16_t> &programIndex,
                pe::FabricFile &file);

} // namespace tessera

#endif // TESSERA_CONVERSION_FABRICTOPE_FABRICTOPE_H
