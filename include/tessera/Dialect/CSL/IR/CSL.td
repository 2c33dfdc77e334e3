//===- CSL.td - the csl dialect, all of it -----------------*- tablegen -*-===//
//
// The root file TableGen reads; each included file holds one part.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_DIALECT_CSL_CSL_TD
#define TESSERA_DIALECT_CSL_CSL_TD

include "tessera/Dialect/CSL/IR/CSLDialect.td"
include "tessera/Dialect/CSL/IR/CSLEnums.td"
include "tessera/Dialect/CSL/IR/CSLTypes.td"
include "tessera/Dialect/CSL/IR/CSLOps.td"
include "tessera/Dialect/CSL/IR/CSLDSDOps.td"
include "tessera/Dialect/CSL/IR/CSLDSDBuiltins.td"
include "tessera/Dialect/CSL/IR/CSLMemoryOps.td"

#endif // TESSERA_DIALECT_CSL_CSL_TD
