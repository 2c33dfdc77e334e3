//===- tessera-translate.cpp - translations out of Tessera's dialects -----===//
//
// `--csl-to-pe` lowers every csl.program of a module (after
// tessera-allocate-memory) to a PE binary and prints its listing, as
// tessera-objdump would: the lowering's lit tests read it.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "tessera/Conversion/CSLToPE/CSLToPE.h"
#include "tessera/InitAllDialects.h"
#include "tessera/Target/PEBinary/Dump.h"

using namespace mlir;

static LogicalResult printPEListings(Operation *op, llvm::raw_ostream &os) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError("expected a module");
  bool failed = false;
  for (auto program : module.getOps<tessera::csl::ProgramOp>()) {
    tessera::pe::ProgramBinary binary;
    tessera::LoweringStats stats;
    if (mlir::failed(tessera::lowerProgramToPE(program, binary, &stats))) {
      failed = true;
      continue;
    }
    os << "program " << program.getSymName() << " (stack " << stats.stackBytes
       << " bytes)\n"
       << tessera::pe::dumpProgram(binary);
  }
  return failure(failed);
}

int main(int argc, char **argv) {
  TranslateFromMLIRRegistration registration(
      "csl-to-pe", "lower csl programs to PE binaries and print them",
      printPEListings, [](DialectRegistry &registry) {
        tessera::registerAllDialects(registry);
      });
  return failed(mlirTranslateMain(argc, argv, "Tessera translation driver"));
}
