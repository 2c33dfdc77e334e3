//===- StartupLowering.cpp - the start-up function -----------------------===//
//
// The code the loader calls before any task runs: DSD variables' initial
// descriptors and FIFO initialisation (docs/CodeGen.md).
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"
#include "LoweringUtils.h"

#include "tessera/Dialect/CSL/Transforms/MemoryAllocator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::lowering;
using pe::Opcode;
using pe::Operand;

//===----------------------------------------------------------------------===//
// Start-up code
//===----------------------------------------------------------------------===//

LogicalResult
FunctionLowering::lowerStartup(llvm::ArrayRef<csl::DSDGlobalOp> dsdGlobals,
                               llvm::ArrayRef<csl::AllocateFifoOp> fifos) {
  mf.symbol = "__startup";
  emitPrologue(mf.loc, /*saveLink=*/false);
  for (csl::DSDGlobalOp global : dsdGlobals) {
    Region &init = global.getInitializer();
    if (init.empty())
      continue;
    startupTarget = ctx.globalAddress.lookup(global.getSymName());
    if (failed(planRegion(init)) || failed(lowerRegion(init)))
      return failure();
  }
  startupTarget.reset();
  for (csl::AllocateFifoOp fifo : fifos) {
    Location loc = fifo.getLoc();
    auto buffer = ctx.symbols.lookup<memref::GlobalOp>(fifo.getBuffer());
    if (!buffer)
      return emitError(loc) << "FIFO buffer '" << fifo.getBuffer()
                            << "' is not a global array";
    auto type = cast<MemRefType>(buffer.getType());
    auto taskOperand = [&](std::optional<StringRef> task) {
      if (!task)
        return Operand::none();
      return Operand::imm(ctx.taskIDs.lookup(*task));
    };
    pe::Priority priority = toPriority(fifo.getPriority());
    emit(Opcode::FifoInit,
         {Operand::imm(ctx.fifoSlots.lookup(fifo.getSymName())),
          Operand::imm(getBitWidth(type.getElementType()) == 32 ? 32 : 16),
          Operand::imm(ctx.globalAddress.lookup(fifo.getBuffer())),
          Operand::imm(type.getNumElements()),
          taskOperand(fifo.getActivatePush()),
          taskOperand(fifo.getActivatePop()),
          Operand::imm(static_cast<int64_t>(priority))},
         loc);
  }
  emitEpilogue(mf.loc);
  return finishFrame();
}
