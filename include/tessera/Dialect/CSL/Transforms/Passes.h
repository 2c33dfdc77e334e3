//===- Passes.h - passes over csl programs ----------------------*- C++ -*-===//
#ifndef TESSERA_DIALECT_CSL_TRANSFORMS_PASSES_H
#define TESSERA_DIALECT_CSL_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"
#include "tessera/Dialect/CSL/IR/CSLOps.h"

namespace tessera::csl {

#define GEN_PASS_DECL
#include "tessera/Dialect/CSL/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tessera/Dialect/CSL/Transforms/Passes.h.inc"

} // namespace tessera::csl

#endif // TESSERA_DIALECT_CSL_TRANSFORMS_PASSES_H
