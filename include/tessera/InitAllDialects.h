//===- InitAllDialects.h - register Tessera's dialects ----------*- C++ -*-===//
//
// The one place that lists the dialects Tessera's tools load: ours, plus the
// upstream dialects that csl programs use for run-time scalar code. Only
// dialects that are actually used are registered: MLIR's all-dialects
// headers cost minutes of build time.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_INITALLDIALECTS_H
#define TESSERA_INITALLDIALECTS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "tessera/Dialect/CSL/IR/CSLDialect.h"
#include "tessera/Dialect/Fabric/IR/FabricDialect.h"

namespace tessera {

inline void registerAllDialects(mlir::DialectRegistry &registry) {
  registry
      .insert<csl::CSLDialect, fabric::FabricDialect, mlir::arith::ArithDialect,
              mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
              mlir::memref::MemRefDialect, mlir::scf::SCFDialect>();
}

} // namespace tessera

#endif // TESSERA_INITALLDIALECTS_H
