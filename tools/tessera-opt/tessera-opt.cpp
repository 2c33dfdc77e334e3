//===- tessera-opt.cpp - Tessera's MLIR optimizer driver ------------------===//
//
// Parses, verifies, transforms and prints Tessera's dialects; the lit tests of
// every dialect and pass run through it.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "tessera/InitAllDialects.h"
#include "tessera/InitAllPasses.h"

int main(int argc, char **argv) {
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  tessera::registerAllPasses();

  mlir::DialectRegistry registry;
  tessera::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Tessera optimizer driver\n", registry));
}
