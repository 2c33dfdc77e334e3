//===- FunctionLowering.cpp - frame, registers and control flow ----------===//
//
// The parts of FunctionLowering every op uses: frame slots, the register
// plan of a block, operand materialisation, and the CFG (branches, calls,
// returns). Arithmetic, memory and csl ops are in their own files.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"
#include "LoweringUtils.h"
#include "tessera/Support/Format.h"

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
                             << formatThousands(frameSize)
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
