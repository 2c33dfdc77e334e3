//===- Passes.h - passes over the fabric ----------------------*- C++ -*-===//
#ifndef TESSERA_DIALECT_FABRIC_TRANSFORMS_PASSES_H
#define TESSERA_DIALECT_FABRIC_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"
#include "tessera/Dialect/Fabric/IR/FabricOps.h"

namespace tessera::fabric {

#define GEN_PASS_DECL
#include "tessera/Dialect/Fabric/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tessera/Dialect/Fabric/Transforms/Passes.h.inc"

} // namespace tessera::fabric

#endif // TESSERA_DIALECT_FABRIC_TRANSFORMS_PASSES_H
