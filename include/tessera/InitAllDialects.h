//===- InitAllDialects.h - register Tessera's dialects ----------*- C++ -*-===//
//
// The one place that lists the dialects Tessera's tools load. Only dialects
// that are actually used are registered: MLIR's all-dialects headers cost
// minutes of build time.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_INITALLDIALECTS_H
#define TESSERA_INITALLDIALECTS_H

#include "mlir/IR/DialectRegistry.h"
#include "tessera/Dialect/CSL/IR/CSLDialect.h"

namespace tessera {

inline void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<csl::CSLDialect>();
}

} // namespace tessera

#endif // TESSERA_INITALLDIALECTS_H
