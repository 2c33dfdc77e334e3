//===- InitAllPasses.h - register Tessera's passes --------------*- C++ -*-===//
//
// The one place that registers the passes of Tessera's dialects, for
// tessera-opt and anything else that parses pass pipelines.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_INITALLPASSES_H
#define TESSERA_INITALLPASSES_H

#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "tessera/Dialect/CSL/Transforms/Passes.h"
#include "tessera/Dialect/Fabric/Transforms/Passes.h"

namespace tessera {

inline void registerAllPasses() {
  // The backend pipeline runs it on every program (docs/Passes.md).
  mlir::registerPass([] { return mlir::createSCFToControlFlowPass(); });
  csl::registerCSLTransformsPasses();
  fabric::registerFabricTransformsPasses();
}

} // namespace tessera

#endif // TESSERA_INITALLPASSES_H
