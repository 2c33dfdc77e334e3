//===- BackendPipeline.cpp - the backend's passes and lowering -----------===//

#include "tessera/Pipelines/Backend.h"

#include <limits>

#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "tessera/Conversion/CSLToPE/CSLToPE.h"
#include "tessera/Conversion/FabricToPE/FabricToPE.h"
#include "tessera/Dialect/CSL/Transforms/Passes.h"
#include "tessera/Dialect/Fabric/Transforms/Passes.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::pipelines;

void pipelines::buildBackendPipeline(OpPassManager &pm,
                                     const BackendOptions &options) {
  pm.nest<fabric::FabricOp>().addPass(fabric::createVerifyRoutes());
  OpPassManager &program = pm.nest<csl::ProgramOp>();
  program.addPass(createSCFToControlFlowPass());
  program.addPass(
      csl::createVerifyResources(csl::VerifyResourcesOptions{options.memcpy}));
  program.addPass(csl::createAllocateMemory());
}

LogicalResult pipelines::lowerModule(ModuleOp module, CompiledFabric &result) {
  fabric::FabricOp fabricOp;
  llvm::StringMap<uint16_t> programIndex;
  // Binaries by content: instances that differ only in params the code
  // does not keep (memcpy's per-column values, say) share one file.
  llvm::StringMap<uint16_t> byContent;
  bool failed = false;
  for (Operation &op : module.getBody()->getOperations()) {
    if (auto f = dyn_cast<fabric::FabricOp>(op)) {
      fabricOp = f;
      continue;
    }
    auto program = dyn_cast<csl::ProgramOp>(op);
    if (!program)
      continue;
    CompiledProgram compiled;
    compiled.symbol = program.getSymName().str();
    compiled.fileName = "bin/" + compiled.symbol + ".tpeb";
    if (program.getFile())
      compiled.sourceFile = program.getFile()->str();
    LoweringStats stats;
    if (mlir::failed(lowerProgramToPE(program, compiled.binary, &stats))) {
      failed = true;
      continue;
    }
    compiled.stackBytes = stats.stackBytes;
    std::vector<uint8_t> bytes = pe::writeProgram(compiled.binary);
    auto [it, inserted] = byContent.try_emplace(
        llvm::StringRef(reinterpret_cast<const char *>(bytes.data()),
                        bytes.size()),
        result.programs.size());
    if (!inserted) {
      programIndex[compiled.symbol] = it->second;
      result.programs[it->second].instances.push_back(compiled.symbol);
      continue;
    }
    if (result.programs.size() > std::numeric_limits<uint16_t>::max())
      return emitError(program.getLoc())
             << "more than 65,536 distinct program binaries";
    compiled.instances.push_back(compiled.symbol);
    programIndex[compiled.symbol] = result.programs.size();
    result.fabric.programs.push_back(compiled.fileName);
    result.programs.push_back(std::move(compiled));
  }
  if (failed)
    return failure();
  if (!fabricOp)
    return emitError(module.getLoc()) << "the module has no fabric.fabric";
  if (mlir::failed(buildFabricFile(fabricOp, programIndex, result.fabric)))
    return failure();
  for (const pe::ProgramRun &run : result.fabric.placement)
    result.programs[run.program].numPEs += run.length;
  return success();
}
