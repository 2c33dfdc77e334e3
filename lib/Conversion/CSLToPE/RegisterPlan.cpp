//===- RegisterPlan.cpp - where each value lives -------------------------===//
//
// Before a region is lowered: constants and handles become immediates,
// local arrays frame areas, and values that leave their block or live
// across a call frame slots; the rest get registers as the block is
// lowered (docs/CodeGen.md).
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
// The register plan
//===----------------------------------------------------------------------===//

bool FunctionLowering::isRecipe(Operation *op) const {
  return isa<csl::Mem1dDSDOp, csl::TensorAccessDSDOp, csl::CircbufDSDOp,
             csl::FabinDSDOp, csl::FaboutDSDOp, csl::GetFifoOp,
             csl::IncrementDSDOffsetOp, csl::SetDSDBaseAddrOp,
             csl::SetDSDLengthOp, csl::SetDSDStrideOp, csl::LoadDSDOp>(op);
}

bool FunctionLowering::isConstLike(Operation *op) const {
  return isa<arith::ConstantOp, memref::GetGlobalOp, csl::GetColorOp,
             csl::GetTaskIDOp, csl::GetInputQueueOp, csl::GetOutputQueueOp,
             csl::GetMicrothreadIDOp, csl::GetDSROp, csl::TaskIDOfOp,
             memref::AllocaOp>(op);
}

void FunctionLowering::collectUses(
    Value v, llvm::SmallVectorImpl<Operation *> &users) const {
  for (Operation *user : v.getUsers()) {
    if (isRecipe(user)) {
      for (Value r : user->getResults())
        collectUses(r, users);
    } else {
      users.push_back(user);
    }
  }
}

/// Gives constants their values, allocas their frame offsets, and values
/// that outlive their block (or a call) their frame slots.
LogicalResult FunctionLowering::planRegion(Region &region) {
  for (Block &block : region) {
    blockLabels[&block] = mf.newLabel();
    if (!block.isEntryBlock() || !isTask)
      for (BlockArgument arg : block.getArguments())
        locs[arg] = isa<csl::DSDType>(arg.getType()) && !block.isEntryBlock()
                        ? ValueLoc{LocKind::DescSlot, allocFrame(32, 4)}
                        : ValueLoc{LocKind::Frame, allocFrame(4, 4)};
  }
  for (Block &block : region) {
    llvm::DenseMap<Operation *, unsigned> position;
    unsigned index = 0;
    llvm::SmallVector<unsigned> callPositions;
    for (Operation &op : block) {
      position[&op] = index;
      if (isa<func::CallOp, csl::MapOp>(op))
        callPositions.push_back(index);
      ++index;
    }
    for (Operation &op : block) {
      if (failed(planConstant(&op)))
        return failure();
      if (auto load = dyn_cast<csl::LoadDSDOp>(op);
          load && !isStableLoad(load, position))
        locs[load.getResult()] = {LocKind::DescSlot, allocFrame(32, 4)};
      if (isConstLike(&op) || isRecipe(&op))
        continue;
      for (Value result : op.getResults()) {
        if (isa<csl::DSDType>(result.getType())) {
          locs[result] = {LocKind::DescSlot, allocFrame(32, 4)};
          continue;
        }
        llvm::SmallVector<Operation *, 8> users;
        collectUses(result, users);
        unsigned def = position[&op], last = def;
        bool local = true;
        for (Operation *user : users) {
          Operation *inBlock = block.findAncestorOpInBlock(*user);
          if (!inBlock) {
            local = false;
            break;
          }
          last = std::max(last, position[inBlock]);
        }
        for (unsigned call : callPositions)
          if (call > def && call < last)
            local = false;
        if (!local) {
          locs[result] = {LocKind::Frame, allocFrame(4, 4)};
          continue;
        }
        Operation *lastUser = &op;
        for (Operation *user : users) {
          Operation *inBlock = block.findAncestorOpInBlock(*user);
          if (position[inBlock] == last)
            lastUser = inBlock;
        }
        deaths[lastUser].push_back(result);
      }
    }
  }
  return success();
}

/// Whether rebuilding a loaded DSD variable where it is used gives the value
/// it had at the load: every use in the same block, with no store to the
/// variable and no call in between.
bool FunctionLowering::isStableLoad(
    csl::LoadDSDOp load,
    const llvm::DenseMap<Operation *, unsigned> &position) const {
  Block *block = load->getBlock();
  llvm::SmallVector<Operation *, 8> users;
  collectUses(load.getResult(), users);
  unsigned last = position.lookup(load);
  for (Operation *user : users) {
    Operation *inBlock = block->findAncestorOpInBlock(*user);
    if (!inBlock)
      return false;
    last = std::max(last, position.lookup(inBlock));
  }
  for (Operation *op = load->getNextNode(); op && position.lookup(op) < last;
       op = op->getNextNode()) {
    if (isa<func::CallOp, csl::MapOp>(op))
      return false;
    if (auto store = dyn_cast<csl::StoreDSDOp>(op);
        store && store.getGlobal() == load.getGlobal())
      return false;
  }
  return true;
}

LogicalResult FunctionLowering::planConstant(Operation *op) {
  auto setConst = [&](int64_t v) {
    locs[op->getResult(0)] = {LocKind::Const, v};
  };
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    std::optional<int64_t> bits = getConstantBits(c.getValue());
    if (!bits)
      return emitError(op->getLoc())
             << "cannot lower the constant " << c.getValue()
             << " to the PE instruction set";
    setConst(*bits);
  } else if (auto g = dyn_cast<memref::GetGlobalOp>(op)) {
    auto it = ctx.globalAddress.find(g.getName());
    if (it == ctx.globalAddress.end())
      return emitError(op->getLoc())
             << "global '" << g.getName()
             << "' has no address (run tessera-allocate-memory first)";
    setConst(it->second);
  } else if (auto t = dyn_cast<csl::TaskIDOfOp>(op)) {
    auto it = ctx.taskIDs.find(t.getTask());
    if (it == ctx.taskIDs.end())
      return emitError(op->getLoc())
             << "task '" << t.getTask() << "' has no ID";
    setConst(it->second);
  } else if (auto a = dyn_cast<memref::AllocaOp>(op)) {
    auto type = cast<MemRefType>(a.getType());
    if (!type.hasStaticShape())
      return emitError(op->getLoc())
             << "a local array needs a size known at compile time";
    unsigned elem = getStorageBytes(type.getElementType());
    locs[a.getResult()] = {
        LocKind::FrameAddr,
        allocFrame(elem * type.getNumElements(), std::max(elem, 1u))};
  } else if (op->getNumResults() == 1 && isConstLike(op)) {
    // Handle ops: their attribute `id` is the number.
    auto id = op->getAttrOfType<IntegerAttr>("id");
    if (!id)
      return emitError(op->getLoc()) << "handle without an ID";
    setConst(id.getInt());
  }
  return success();
}

void FunctionLowering::freeDeadAfter(Operation *op) {
  auto release = [&](Value v) {
    ValueLoc l = locs.lookup(v);
    if (l.kind == LocKind::Reg)
      freeRegs |= 1u << l.value;
  };
  auto it = deaths.find(op);
  if (it != deaths.end())
    for (Value v : it->second)
      release(v);
  // Results nobody reads are dead at once.
  for (Value r : op->getResults())
    if (r.use_empty())
      release(r);
}
