//===- CSLToPE.cpp - one csl.program to one program binary ---------------===//
//
// Lowers every function and task, lays the code out after the program's
// data, resolves branch and call targets, checks that code, data and stack
// fit in the PE's memory, and fills the binary's tables.
//
//===----------------------------------------------------------------------===//

#include "tessera/Conversion/CSLToPE/CSLToPE.h"

#include "FunctionLowering.h"
#include "LoweringUtils.h"
#include "ProgramTables.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "tessera/Dialect/CSL/IR/CSLTarget.h"
#include "tessera/Dialect/CSL/Transforms/Passes.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::lowering;

namespace {

/// Collects addresses, task IDs, FIFO slots and free DSRs.
LogicalResult initContext(ProgramContext &ctx,
                          llvm::SmallVectorImpl<csl::DSDGlobalOp> &dsdGlobals,
                          llvm::SmallVectorImpl<csl::AllocateFifoOp> &fifos) {
  csl::ProgramOp program = ctx.program;
  std::array<llvm::SmallSet<int64_t, 16>, 3> usedDSRs;
  for (Operation &op : program.getBody().front()) {
    if (csl::isMemoryGlobal(&op)) {
      auto address = op.getAttrOfType<IntegerAttr>(csl::kAddressAttrName);
      StringRef name =
          op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName())
              .getValue();
      if (!address)
        return emitError(op.getLoc())
               << "global '" << name
               << "' has no address (run tessera-allocate-memory first)";
      ctx.globalAddress[name] = address.getInt();
      if (auto d = dyn_cast<csl::DSDGlobalOp>(op))
        dsdGlobals.push_back(d);
    } else if (auto task = dyn_cast<csl::TaskOp>(op)) {
      if (!task.getId())
        return emitError(task.getLoc())
               << "task '" << task.getSymName() << "' has no ID";
      ctx.taskIDs[task.getSymName()] = *task.getId();
    } else if (auto fifo = dyn_cast<csl::AllocateFifoOp>(op)) {
      if (fifos.size() == pe::NumFifos)
        return emitError(fifo.getLoc())
               << "a program may allocate at most " << pe::NumFifos << " FIFOs";
      ctx.fifoSlots[fifo.getSymName()] = fifos.size();
      fifos.push_back(fifo);
    }
  }
  program.walk([&](csl::GetDSROp dsr) {
    auto type = cast<csl::DSRType>(dsr.getType());
    usedDSRs[static_cast<unsigned>(type.getKind())].insert(dsr.getId());
  });
  for (unsigned file = 0; file < 3; ++file)
    for (int index = pe::NumDSRsPerFile - 1; index >= 0; --index)
      if (!usedDSRs[file].contains(index))
        ctx.scratchDSRs[file].push_back(index);
  return success();
}

/// Bytes of stack the deepest chain of calls from `root` needs.
FailureOr<uint32_t>
stackDepth(const std::string &root,
           const llvm::StringMap<const MachineFunction *> &functions,
           llvm::StringMap<uint32_t> &memo, llvm::StringSet<> &active) {
  if (auto it = memo.find(root); it != memo.end())
    return it->second;
  const MachineFunction *mf = functions.lookup(root);
  if (!mf)
    return 0u;
  if (!active.insert(root).second)
    return emitError(mf->loc)
           << "'" << root
           << "' calls itself (directly or through other functions), so its "
              "stack size cannot be bounded; recursion is not supported";
  uint32_t deepest = 0;
  for (const std::string &callee : mf->callees) {
    FailureOr<uint32_t> d = stackDepth(callee, functions, memo, active);
    if (failed(d))
      return failure();
    deepest = std::max(deepest, *d);
  }
  active.erase(root);
  return memo[root] = mf->frameBytes + deepest;
}

} // namespace

LogicalResult tessera::lowerProgramToPE(csl::ProgramOp program,
                                        pe::ProgramBinary &binary,
                                        LoweringStats *stats) {
  const target::TargetModel &model =
      target::TargetModel::get(csl::toTargetArch(program.getArch()));
  ProgramContext ctx(program, model);
  llvm::SmallVector<csl::DSDGlobalOp> dsdGlobals;
  llvm::SmallVector<csl::AllocateFifoOp> fifos;
  if (failed(initContext(ctx, dsdGlobals, fifos)))
    return failure();

  // Lower: start-up code first, then tasks and functions in program order.
  std::vector<std::unique_ptr<MachineFunction>> functions;
  bool needsStartup = !fifos.empty() || llvm::any_of(dsdGlobals, [](auto g) {
    return !g.getInitializer().empty();
  });
  if (needsStartup) {
    functions.push_back(std::make_unique<MachineFunction>(program.getLoc()));
    FunctionLowering lowering(ctx, *functions.back());
    if (failed(lowering.lowerStartup(dsdGlobals, fifos)))
      return failure();
  }
  for (Operation &op : program.getBody().front()) {
    if (auto task = dyn_cast<csl::TaskOp>(op)) {
      functions.push_back(std::make_unique<MachineFunction>(task.getLoc()));
      FunctionLowering lowering(ctx, *functions.back());
      if (failed(lowering.lowerTask(task)))
        return failure();
    } else if (auto func = dyn_cast<func::FuncOp>(op)) {
      if (func.isExternal())
        return emitError(func.getLoc())
               << "function '" << func.getSymName() << "' has no body";
      functions.push_back(std::make_unique<MachineFunction>(func.getLoc()));
      FunctionLowering lowering(ctx, *functions.back());
      if (failed(lowering.lowerFunction(func)))
        return failure();
    }
  }

  // Stack: the deepest call chain from any entry (tasks, exported
  // functions, the start-up code, map callbacks run on the caller's stack).
  llvm::StringMap<const MachineFunction *> byName;
  for (auto &mf : functions)
    byName[mf->symbol] = mf.get();
  llvm::StringMap<uint32_t> memo;
  uint32_t stackBytes = 0;
  for (auto &mf : functions) {
    llvm::StringSet<> active;
    FailureOr<uint32_t> depth = stackDepth(mf->symbol, byName, memo, active);
    if (failed(depth))
      return failure();
    stackBytes = std::max(stackBytes, *depth);
  }

  if (stats)
    stats->stackBytes = stackBytes;
  return assembleProgram(ctx, functions, needsStartup, stackBytes, binary);
}
