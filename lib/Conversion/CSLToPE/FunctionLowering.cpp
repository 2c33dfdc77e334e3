//===- FunctionLowering.cpp - frame, registers and control flow ----------===//
//
// The parts of FunctionLowering every op uses: frame slots, the register
// plan of a block, operand materialisation, and the CFG (branches, calls,
// returns). Arithmetic, memory and csl ops are in their own files.
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

static constexpr unsigned FirstScratch = 10, LastScratch = 13;
static constexpr uint16_t AllocatableRegs = 0x03FF; // r0..r9

//===----------------------------------------------------------------------===//
// Emission primitives
//===----------------------------------------------------------------------===//

void FunctionLowering::emit(Opcode opcode, std::vector<Operand> operands,
                            Location loc, pe::DSDOptions options) {
  MachineInst mi{
      pe::Instruction{opcode, std::move(operands), options}, loc, {}};
  mf.insts.push_back(std::move(mi));
}

void FunctionLowering::emitBranch(Opcode opcode, std::vector<Operand> operands,
                                  unsigned label, Location loc) {
  unsigned index = operands.size();
  operands.push_back(Operand::imm(0));
  emit(opcode, std::move(operands), loc);
  mf.insts.back().fixup = {Fixup::Kind::Label, index, label, {}};
}

unsigned FunctionLowering::scratch() {
  if (nextScratch > LastScratch) {
    scratchOverflow = true;
    return LastScratch;
  }
  return nextScratch++;
}

void FunctionLowering::loadImm(unsigned reg, int64_t value, Location loc) {
  int64_t v32 = static_cast<int32_t>(static_cast<uint32_t>(value));
  if (v32 >= -32768 && v32 <= 32767)
    emit(Opcode::MovI, {Operand::reg(reg), Operand::imm(v32)}, loc);
  else
    emit(Opcode::MovI32,
         {Operand::reg(reg), Operand::imm(static_cast<uint32_t>(value))}, loc);
}

std::optional<int64_t> FunctionLowering::getConst(Value v) const {
  auto it = locs.find(v);
  if (it == locs.end() || it->second.kind != LocKind::Const)
    return std::nullopt;
  return it->second.value;
}

unsigned FunctionLowering::use(Value v, Location loc) {
  ValueLoc l = locs.lookup(v);
  switch (l.kind) {
  case LocKind::Reg:
    return l.value;
  case LocKind::Frame: {
    unsigned r = scratch();
    emit(Opcode::Ld32,
         {Operand::reg(r), Operand::reg(pe::StackRegister),
          Operand::imm(l.value + spAdjust)},
         loc);
    return r;
  }
  case LocKind::Const: {
    unsigned r = scratch();
    loadImm(r, l.value, loc);
    return r;
  }
  case LocKind::FrameAddr: {
    unsigned r = scratch();
    emit(Opcode::AddI,
         {Operand::reg(r), Operand::reg(pe::StackRegister),
          Operand::imm(l.value + spAdjust)},
         loc);
    return r;
  }
  case LocKind::None:
  case LocKind::Recipe:
  case LocKind::DescSlot:
    break;
  }
  missingValue = true;
  return scratch();
}

Operand FunctionLowering::useRegOrImm(Value v, bool isSigned, Location loc) {
  if (std::optional<int64_t> c = getConst(v)) {
    if (isSigned && *c >= -32768 && *c <= 32767)
      return Operand::imm(*c);
    if (!isSigned && *c >= 0 && *c <= 0xFFFF)
      return Operand::imm(*c);
  }
  return Operand::reg(use(v, loc));
}

unsigned FunctionLowering::def(Value v) {
  ValueLoc &l = locs[v];
  if (l.kind == LocKind::None) {
    if (uint16_t avail = freeRegs & AllocatableRegs) {
      unsigned r = llvm::countr_zero(avail);
      freeRegs &= ~(1u << r);
      l = {LocKind::Reg, r};
    } else {
      l = {LocKind::Frame, allocFrame(4, 4)};
    }
  }
  if (l.kind == LocKind::Reg)
    return l.value;
  return scratch();
}

void FunctionLowering::finish(Value v, unsigned reg, Location loc) {
  ValueLoc l = locs.lookup(v);
  if (l.kind == LocKind::Frame)
    emit(Opcode::St32,
         {Operand::reg(reg), Operand::reg(pe::StackRegister),
          Operand::imm(l.value + spAdjust)},
         loc);
}

void FunctionLowering::normalize(unsigned reg, Type type, Location loc) {
  unsigned width = getBitWidth(type);
  if (width == 16)
    emit(Opcode::ZExt16, {Operand::reg(reg), Operand::reg(reg)}, loc);
  else if (width == 8)
    emit(Opcode::ZExt8, {Operand::reg(reg), Operand::reg(reg)}, loc);
  else if (width == 1)
    emit(Opcode::AndI, {Operand::reg(reg), Operand::reg(reg), Operand::imm(1)},
         loc);
}

unsigned FunctionLowering::useSigned(Value v, Location loc) {
  unsigned width = getBitWidth(v.getType());
  if (std::optional<int64_t> c = getConst(v)) {
    unsigned r = scratch();
    loadImm(r, llvm::SignExtend64(*c, std::max(width, 1u)), loc);
    return r;
  }
  unsigned src = use(v, loc);
  if (width != 8 && width != 16 && width != 1)
    return src;
  unsigned r = src >= FirstScratch ? src : scratch();
  if (width == 16)
    emit(Opcode::SExt16, {Operand::reg(r), Operand::reg(src)}, loc);
  else if (width == 8)
    emit(Opcode::SExt8, {Operand::reg(r), Operand::reg(src)}, loc);
  else // i1: true is -1 as a signed one-bit number
    emit(Opcode::Neg, {Operand::reg(r), Operand::reg(src)}, loc);
  return r;
}

//===----------------------------------------------------------------------===//
// Frame
//===----------------------------------------------------------------------===//

uint32_t FunctionLowering::allocFrame(uint32_t bytes, uint32_t align) {
  frameSize = (frameSize + align - 1) & ~(align - 1);
  uint32_t offset = frameSize;
  frameSize += std::max<uint32_t>(bytes, 1);
  return offset;
}

void FunctionLowering::emitPrologue(Location loc, bool saveLink) {
  savesLink = saveLink;
  prologueIndex = mf.insts.size();
  emit(Opcode::AddI,
       {Operand::reg(pe::StackRegister), Operand::reg(pe::StackRegister),
        Operand::imm(0)},
       loc);
  if (saveLink) {
    uint32_t slot = allocFrame(4, 4);
    emit(Opcode::St32,
         {Operand::reg(pe::LinkRegister), Operand::reg(pe::StackRegister),
          Operand::imm(slot)},
         loc);
  }
}

void FunctionLowering::emitEpilogue(Location loc) {
  if (savesLink)
    emit(Opcode::Ld32,
         {Operand::reg(pe::LinkRegister), Operand::reg(pe::StackRegister),
          Operand::imm(0)},
         loc);
  epilogueFixups.push_back(mf.insts.size());
  emit(Opcode::AddI,
       {Operand::reg(pe::StackRegister), Operand::reg(pe::StackRegister),
        Operand::imm(0)},
       loc);
  emit(Opcode::Ret, {}, loc);
}

LogicalResult FunctionLowering::finishFrame() {
  frameSize = (frameSize + 3) & ~3u;
  if (frameSize > 32767)
    return emitError(mf.loc) << "'" << mf.symbol << "' needs a stack frame of "
                             << csl::formatBytes(frameSize)
                             << " bytes; at most 32,767 are supported";
  mf.frameBytes = frameSize;
  if (prologueIndex != ~size_t(0)) {
    mf.insts[prologueIndex].inst.operands[2] =
        Operand::imm(-static_cast<int64_t>(frameSize));
    mf.insts[prologueIndex].deleted = frameSize == 0;
  }
  for (size_t index : epilogueFixups) {
    mf.insts[index].inst.operands[2] = Operand::imm(frameSize);
    mf.insts[index].deleted = frameSize == 0;
  }
  for (size_t index : incomingArgFixups)
    mf.insts[index].inst.operands[2] =
        Operand::imm(mf.insts[index].inst.operands[2].value + frameSize);
  return success();
}

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

//===----------------------------------------------------------------------===//
// Functions and tasks
//===----------------------------------------------------------------------===//

static bool makesCalls(Region &region) {
  bool calls = false;
  region.walk([&](Operation *op) {
    if (isa<func::CallOp, csl::MapOp>(op))
      calls = true;
  });
  return calls;
}

LogicalResult FunctionLowering::lowerFunction(func::FuncOp func) {
  mf.symbol = func.getSymName().str();
  Location loc = func.getLoc();
  if (func.getNumResults() > 1)
    return emitError(loc) << "'" << func.getSymName()
                          << "' returns more than one value";
  for (Type t : func.getArgumentTypes())
    if (failed(checkRunTimeType(t, loc)))
      return failure();
  emitPrologue(loc, makesCalls(func.getBody()));
  if (failed(planRegion(func.getBody())))
    return failure();
  // Arguments arrive in r0..r7 and move to their frame slots; the rest
  // were pushed by the caller just above this function's frame.
  for (BlockArgument arg : func.getArguments()) {
    unsigned k = arg.getArgNumber();
    if (k < 8) {
      finish(arg, k, loc);
      continue;
    }
    incomingArgFixups.push_back(mf.insts.size());
    emit(Opcode::Ld32,
         {Operand::reg(FirstScratch), Operand::reg(pe::StackRegister),
          Operand::imm(4 * (k - 8))},
         loc);
    finish(arg, FirstScratch, loc);
  }
  if (failed(lowerRegion(func.getBody())) || failed(finishFrame()))
    return failure();
  return success();
}

LogicalResult FunctionLowering::lowerTask(csl::TaskOp task) {
  mf.symbol = task.getSymName().str();
  isTask = true;
  Location loc = task.getLoc();
  emitPrologue(loc, /*saveLink=*/false);
  for (BlockArgument arg : task.getBody().getArguments())
    locs[arg] = {LocKind::Frame, allocFrame(4, 4)};
  if (failed(planRegion(task.getBody())))
    return failure();
  // A data task's wavelet arrives in r0 (a control task's in its low half):
  // the arguments are its equal slices, lowest first (docs/ISA.md).
  unsigned n = task.getBody().getNumArguments();
  if (n) {
    unsigned width = getBitWidth(task.getBody().getArgument(0).getType());
    for (BlockArgument arg : task.getBody().getArguments()) {
      unsigned r = FirstScratch;
      unsigned shift = arg.getArgNumber() * width;
      if (shift)
        emit(Opcode::ShrLI,
             {Operand::reg(r), Operand::reg(0), Operand::imm(shift)}, loc);
      else
        emit(Opcode::Mov, {Operand::reg(r), Operand::reg(0)}, loc);
      if (width < 32)
        normalize(r, arg.getType(), loc);
      finish(arg, r, loc);
    }
  }
  if (failed(lowerRegion(task.getBody())) || failed(finishFrame()))
    return failure();
  return success();
}

LogicalResult FunctionLowering::lowerRegion(Region &region) {
  for (Block &block : region) {
    freeRegs = AllocatableRegs;
    mf.bind(blockLabels[&block]);
    for (Operation &op : block) {
      nextScratch = FirstScratch;
      nextScratchDSR = {0, 0, 0};
      scratchOverflow = missingValue = false;
      if (failed(lowerOp(&op)))
        return failure();
      if (scratchOverflow)
        return emitError(op.getLoc())
               << "this operation needs more than 4 scratch registers; "
                  "split it into simpler expressions";
      if (missingValue)
        return emitError(op.getLoc())
               << "an operand of this operation has no value at run time";
      freeDeadAfter(&op);
    }
  }
  return success();
}

LogicalResult FunctionLowering::lowerOp(Operation *op) {
  // A loaded DSD variable that may change before its uses is copied now.
  if (auto load = dyn_cast<csl::LoadDSDOp>(op);
      load && locs.lookup(load.getResult()).kind == LocKind::DescSlot) {
    unsigned dsr = ctx.scratchDSRs[0].front();
    unsigned r = scratch();
    loadImm(r, ctx.globalAddress.lookup(load.getGlobal()), op->getLoc());
    emit(Opcode::DsrLoad,
         {Operand::dsr(pe::OperandMode::DestDSR, dsr), Operand::reg(r),
          Operand::imm(0)},
         op->getLoc());
    emit(Opcode::DsrStore,
         {Operand::dsr(pe::OperandMode::DestDSR, dsr),
          Operand::reg(pe::StackRegister),
          Operand::imm(locs.lookup(load.getResult()).value + spAdjust)},
         op->getLoc());
    return success();
  }
  if (isConstLike(op) || isRecipe(op))
    return success();
  for (Type t : op->getResultTypes())
    if (failed(checkRunTimeType(t, op->getLoc())))
      return failure();
  // Each family reports whether the op was its own; the first that owns it
  // decides.
  using Family = LogicalResult (FunctionLowering::*)(Operation *, bool &);
  for (Family family :
       {&FunctionLowering::lowerControl, &FunctionLowering::lowerArith,
        &FunctionLowering::lowerMemRef, &FunctionLowering::lowerCSL}) {
    bool handled = false;
    if (failed((this->*family)(op, handled)))
      return failure();
    if (handled)
      return success();
  }
  return emitError(op->getLoc())
         << "'" << op->getName()
         << "' cannot be lowered to the PE instruction set yet";
}

//===----------------------------------------------------------------------===//
// Control flow and calls
//===----------------------------------------------------------------------===//

LogicalResult FunctionLowering::copyToBlockArgs(Block *dest,
                                                ValueRange operands,
                                                Location loc) {
  // A value that is itself an argument of `dest` may be overwritten before
  // it is read (a swap): then go through fresh slots first.
  bool overlap = llvm::any_of(operands, [&](Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && arg.getOwner() == dest;
  });
  llvm::SmallVector<ValueLoc> staged;
  for (auto [value, arg] : llvm::zip(operands, dest->getArguments())) {
    nextScratch = FirstScratch;
    if (isa<csl::DSDType>(value.getType())) {
      nextScratchDSR = {0, 0, 0};
      if (failed(storeDSD(value, locs.lookup(arg).value, loc)))
        return failure();
      continue;
    }
    unsigned r = use(value, loc);
    if (overlap) {
      ValueLoc slot{LocKind::Frame, allocFrame(4, 4)};
      emit(Opcode::St32,
           {Operand::reg(r), Operand::reg(pe::StackRegister),
            Operand::imm(slot.value)},
           loc);
      staged.push_back(slot);
    } else {
      finish(arg, r, loc);
    }
  }
  if (!overlap)
    return success();
  for (auto [slot, arg] : llvm::zip(staged, dest->getArguments())) {
    emit(Opcode::Ld32,
         {Operand::reg(FirstScratch), Operand::reg(pe::StackRegister),
          Operand::imm(slot.value)},
         loc);
    finish(arg, FirstScratch, loc);
  }
  return success();
}

LogicalResult FunctionLowering::lowerControl(Operation *op, bool &handled) {
  handled = true;
  Location loc = op->getLoc();
  Block *next = op->getBlock()->getNextNode();
  if (auto br = dyn_cast<cf::BranchOp>(op)) {
    if (failed(copyToBlockArgs(br.getDest(), br.getDestOperands(), loc)))
      return failure();
    if (br.getDest() != next)
      emitBranch(Opcode::Jmp, {}, blockLabels[br.getDest()], loc);
    return success();
  }
  if (auto br = dyn_cast<cf::CondBranchOp>(op)) {
    unsigned c = use(br.getCondition(), loc);
    // Without arguments to copy, one conditional branch and at most one
    // jump suffice; the block laid out next needs no jump at all.
    if (br.getTrueDestOperands().empty() && br.getFalseDestOperands().empty()) {
      if (br.getTrueDest() == next) {
        emitBranch(Opcode::BEqZ, {Operand::reg(c)},
                   blockLabels[br.getFalseDest()], loc);
        return success();
      }
      emitBranch(Opcode::BNeZ, {Operand::reg(c)}, blockLabels[br.getTrueDest()],
                 loc);
      if (br.getFalseDest() != next)
        emitBranch(Opcode::Jmp, {}, blockLabels[br.getFalseDest()], loc);
      return success();
    }
    unsigned falseEdge = mf.newLabel();
    emitBranch(Opcode::BEqZ, {Operand::reg(c)}, falseEdge, loc);
    if (failed(
            copyToBlockArgs(br.getTrueDest(), br.getTrueDestOperands(), loc)))
      return failure();
    emitBranch(Opcode::Jmp, {}, blockLabels[br.getTrueDest()], loc);
    mf.bind(falseEdge);
    if (failed(
            copyToBlockArgs(br.getFalseDest(), br.getFalseDestOperands(), loc)))
      return failure();
    emitBranch(Opcode::Jmp, {}, blockLabels[br.getFalseDest()], loc);
    return success();
  }
  if (auto sw = dyn_cast<cf::SwitchOp>(op)) {
    unsigned flag = scratch();
    auto values = sw.getCaseValues();
    for (auto [i, dest] : llvm::enumerate(sw.getCaseDestinations())) {
      nextScratch = FirstScratch + 1;
      unsigned v = use(sw.getFlag(), loc);
      unsigned k = scratch();
      loadImm(k, values ? (*values).getValues<APInt>()[i].getSExtValue() : 0,
              loc);
      emit(Opcode::CmpEq,
           {Operand::reg(flag), Operand::reg(v), Operand::reg(k)}, loc);
      unsigned next = mf.newLabel();
      emitBranch(Opcode::BEqZ, {Operand::reg(flag)}, next, loc);
      if (failed(copyToBlockArgs(dest, sw.getCaseOperands(i), loc)))
        return failure();
      emitBranch(Opcode::Jmp, {}, blockLabels[dest], loc);
      mf.bind(next);
    }
    if (failed(copyToBlockArgs(sw.getDefaultDestination(),
                               sw.getDefaultOperands(), loc)))
      return failure();
    emitBranch(Opcode::Jmp, {}, blockLabels[sw.getDefaultDestination()], loc);
    return success();
  }
  if (auto ret = dyn_cast<func::ReturnOp>(op)) {
    if (ret.getNumOperands() == 1 &&
        isa<csl::DSDType>(ret.getOperand(0).getType())) {
      if (failed(buildDSD(ret.getOperand(0), pe::OperandMode::DestDSR,
                          getReturnDSR(), loc)))
        return failure();
    } else if (ret.getNumOperands() == 1) {
      unsigned r = use(ret.getOperand(0), loc);
      if (r != 0)
        emit(Opcode::Mov, {Operand::reg(0), Operand::reg(r)}, loc);
    }
    emitEpilogue(loc);
    return success();
  }
  if (isa<csl::ReturnOp>(op)) {
    emit(Opcode::TaskExit, {}, loc);
    return success();
  }
  if (auto call = dyn_cast<func::CallOp>(op))
    return lowerCall(op, call.getCallee(), call.getOperands(),
                     call.getResults());
  handled = false;
  return success();
}

LogicalResult FunctionLowering::lowerCall(Operation *op, StringRef callee,
                                          ValueRange args, ValueRange results) {
  Location loc = op->getLoc();
  // DSD arguments travel as the address of a descriptor slot in this frame.
  llvm::SmallVector<std::optional<uint32_t>> dsdSlots;
  for (Value arg : args) {
    dsdSlots.push_back(std::nullopt);
    if (!isa<csl::DSDType>(arg.getType()))
      continue;
    dsdSlots.back() = allocFrame(32, 4);
    nextScratch = FirstScratch;
    nextScratchDSR = {0, 0, 0};
    if (failed(storeDSD(arg, *dsdSlots.back(), loc)))
      return failure();
  }
  auto argValue = [&](size_t i) -> unsigned {
    if (dsdSlots[i]) {
      unsigned r = scratch();
      emit(Opcode::AddI,
           {Operand::reg(r), Operand::reg(pe::StackRegister),
            Operand::imm(*dsdSlots[i] + spAdjust)},
           loc);
      return r;
    }
    return use(args[i], loc);
  };
  // Arguments past the eighth are pushed below this frame, in order.
  size_t numStack = args.size() > 8 ? args.size() - 8 : 0;
  if (numStack) {
    spAdjust = 4 * numStack;
    emit(Opcode::AddI,
         {Operand::reg(pe::StackRegister), Operand::reg(pe::StackRegister),
          Operand::imm(-spAdjust)},
         loc);
    for (size_t i = 8; i < args.size(); ++i) {
      nextScratch = FirstScratch;
      unsigned r = argValue(i);
      emit(Opcode::St32,
           {Operand::reg(r), Operand::reg(pe::StackRegister),
            Operand::imm(4 * (i - 8))},
           loc);
    }
  }
  // Register arguments, as a parallel move (r13 breaks cycles); then the
  // rest, which read no argument register.
  llvm::SmallVector<std::pair<unsigned, unsigned>> moves; // dst <- src
  for (size_t i = 0; i < std::min<size_t>(8, args.size()); ++i) {
    ValueLoc l = locs.lookup(args[i]);
    if (!dsdSlots[i] && l.kind == LocKind::Reg && l.value != int64_t(i))
      moves.push_back({unsigned(i), unsigned(l.value)});
  }
  emitParallelMove(moves, LastScratch, loc);
  for (size_t i = 0; i < std::min<size_t>(8, args.size()); ++i) {
    ValueLoc l = locs.lookup(args[i]);
    if (!dsdSlots[i] && l.kind == LocKind::Reg)
      continue;
    // Straight into the argument register: it is no other argument's
    // source any more.
    if (!dsdSlots[i] && l.kind == LocKind::Const) {
      loadImm(i, l.value, loc);
      continue;
    }
    if (!dsdSlots[i] && l.kind == LocKind::Frame) {
      emit(Opcode::Ld32,
           {Operand::reg(i), Operand::reg(pe::StackRegister),
            Operand::imm(l.value + spAdjust)},
           loc);
      continue;
    }
    nextScratch = FirstScratch;
    unsigned r = argValue(i);
    emit(Opcode::Mov, {Operand::reg(i), Operand::reg(r)}, loc);
  }
  emit(Opcode::Call, {Operand::imm(0)}, loc);
  mf.insts.back().fixup = {Fixup::Kind::Function, 0, 0, callee.str()};
  mf.callees.push_back(callee.str());
  if (numStack) {
    emit(Opcode::AddI,
         {Operand::reg(pe::StackRegister), Operand::reg(pe::StackRegister),
          Operand::imm(spAdjust)},
         loc);
    spAdjust = 0;
  }
  // Nothing lives in r0..r9 across a call.
  freeRegs = AllocatableRegs;
  if (results.size() == 1 && isa<csl::DSDType>(results[0].getType())) {
    // The callee left its DSD in the return DSR: keep it in the frame.
    emit(Opcode::DsrStore,
         {Operand::dsr(pe::OperandMode::DestDSR, getReturnDSR()),
          Operand::reg(pe::StackRegister),
          Operand::imm(locs.lookup(results[0]).value)},
         loc);
  } else if (results.size() == 1) {
    nextScratch = FirstScratch;
    unsigned r = def(results[0]);
    if (r != 0)
      emit(Opcode::Mov, {Operand::reg(r), Operand::reg(0)}, loc);
    finish(results[0], r, loc);
  }
  return success();
}

LogicalResult FunctionLowering::storeDSD(Value dsd, uint32_t slot,
                                         Location loc) {
  std::optional<unsigned> index = takeScratchDSR(pe::OperandMode::DestDSR);
  if (!index)
    return emitError(loc) << "no free DSR left in the dest file";
  if (failed(buildDSD(dsd, pe::OperandMode::DestDSR, *index, loc)))
    return failure();
  emit(Opcode::DsrStore,
       {Operand::dsr(pe::OperandMode::DestDSR, *index),
        Operand::reg(pe::StackRegister), Operand::imm(slot + spAdjust)},
       loc);
  return success();
}

void FunctionLowering::emitParallelMove(
    llvm::SmallVector<std::pair<unsigned, unsigned>> moves, unsigned temp,
    Location loc) {
  // Repeatedly emit a move whose destination no pending move still reads;
  // when only cycles remain, rotate one through `temp`.
  while (!moves.empty()) {
    bool progress = false;
    for (size_t i = 0; i < moves.size(); ++i) {
      unsigned dst = moves[i].first;
      bool read = llvm::any_of(moves, [&](auto &m) { return m.second == dst; });
      if (read)
        continue;
      emit(Opcode::Mov, {Operand::reg(dst), Operand::reg(moves[i].second)},
           loc);
      moves.erase(moves.begin() + i);
      progress = true;
      break;
    }
    if (progress)
      continue;
    auto [dst, src] = moves.front();
    emit(Opcode::Mov, {Operand::reg(temp), Operand::reg(src)}, loc);
    for (auto &m : moves)
      if (m.second == src)
        m.second = temp;
  }
}

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
