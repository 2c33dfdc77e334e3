//===- LoweringUtils.h - types and constants as the PE sees them ---------===//
#ifndef TESSERA_LIB_CONVERSION_CSLTOPE_LOWERINGUTILS_H
#define TESSERA_LIB_CONVERSION_CSLTOPE_LOWERINGUTILS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Types.h"
#include "mlir/Support/LogicalResult.h"
#include "tessera/Dialect/CSL/IR/CSLOps.h"
#include "tessera/Target/PEBinary/ISA.h"

#include <optional>
#include <string>

namespace tessera::lowering {

/// Bits a value of `type` has in a register: integers and floats their
/// width, index 32, pointers (memrefs) and handles 16.
unsigned getBitWidth(mlir::Type type);
/// Bytes one element of `type` takes in memory (i1 takes a byte; a pointer
/// two).
unsigned getStorageBytes(mlir::Type type);
/// The register bits of a scalar constant, or none for other attributes.
std::optional<int64_t> getConstantBits(mlir::Attribute value);
/// What `block`/`unblock` of a handle of `type` in `user` names.
pe::BlockSpace getBlockSpace(mlir::Operation *user, mlir::Type type);
/// A csl priority as the ISA encodes it (none: the default).
pe::Priority toPriority(std::optional<csl::Priority> priority);
/// Fails with a diagnostic for types no register can hold (64-bit values).
mlir::LogicalResult checkRunTimeType(mlir::Type type, mlir::Location loc);

} // namespace tessera::lowering

#endif // TESSERA_LIB_CONVERSION_CSLTOPE_LOWERINGUTILS_H
