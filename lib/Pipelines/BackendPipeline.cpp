//===- BackendPipeline.cpp - the backend's passes and lowering -----------===//

#include "tessera/Pipelines/Backend.h"

#include <limits>

#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Threading.h"
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
  llvm::SmallVector<csl::ProgramOp> programs;
  for (Operation &op : module.getBody()->getOperations()) {
    if (auto f = dyn_cast<fabric::FabricOp>(op))
      fabricOp = f;
    else if (auto program = dyn_cast<csl::ProgramOp>(op))
      programs.push_back(program);
  }
  // Programs lower independently, so in parallel; the results are then
  // taken in program order, which keeps the output deterministic.
  std::vector<CompiledProgram> lowered(programs.size());
  std::vector<std::vector<uint8_t>> images(programs.size());
  // Diagnostics come out in program order too.
  ParallelDiagnosticHandler diagnostics(module.getContext());
  bool failed = mlir::failed(mlir::failableParallelForEachN(
      module.getContext(), 0, programs.size(), [&](size_t i) {
        diagnostics.setOrderIDForThread(i);
        csl::ProgramOp program = programs[i];
        CompiledProgram &compiled = lowered[i];
        compiled.symbol = program.getSymName().str();
        compiled.fileName = "bin/" + compiled.symbol + ".tpeb";
        if (program.getFile())
          compiled.sourceFile = program.getFile()->str();
        LoweringStats stats;
        if (mlir::failed(lowerProgramToPE(program, compiled.binary, &stats))) {
          diagnostics.eraseOrderIDForThread();
          return failure();
        }
        compiled.stackBytes = stats.stackBytes;
        images[i] = pe::writeProgram(compiled.binary);
        diagnostics.eraseOrderIDForThread();
        return success();
      }));
  if (failed)
    return failure();
  for (auto [i, compiled] : llvm::enumerate(lowered)) {
    auto [it, inserted] = byContent.try_emplace(
        llvm::StringRef(reinterpret_cast<const char *>(images[i].data()),
                        images[i].size()),
        result.programs.size());
    if (!inserted) {
      programIndex[compiled.symbol] = it->second;
      result.programs[it->second].instances.push_back(compiled.symbol);
      continue;
    }
    if (result.programs.size() > std::numeric_limits<uint16_t>::max())
      return emitError(programs[i].getLoc())
             << "more than 65,536 distinct program binaries";
    compiled.instances.push_back(compiled.symbol);
    programIndex[compiled.symbol] = result.programs.size();
    result.fabric.programs.push_back(compiled.fileName);
    result.programs.push_back(std::move(compiled));
  }
  if (!fabricOp)
    return emitError(module.getLoc()) << "the module has no fabric.fabric";
  for (auto e : fabricOp.getBody().getOps<fabric::ExportOp>()) {
    LayoutExport info;
    info.name = e.getName().str();
    info.isMutable = e.getIsMutable();
    if (auto fn = dyn_cast<FunctionType>(e.getType())) {
      info.isFunction = true;
      for (Type t : fn.getInputs())
        info.params.push_back(toPEElemType(t));
    } else if (auto memref = dyn_cast<MemRefType>(e.getType())) {
      info.type = toPEElemType(memref.getElementType());
    }
    result.exports.push_back(std::move(info));
  }
  if (mlir::failed(buildFabricFile(fabricOp, programIndex, result.fabric)))
    return failure();
  for (const pe::ProgramRun &run : result.fabric.placement)
    result.programs[run.program].numPEs += run.length;
  return success();
}
