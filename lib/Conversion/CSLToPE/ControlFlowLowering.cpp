//===- ControlFlowLowering.cpp - branches, calls, returns ----------------===//
//
// Branches copy their operands into the target block's argument slots;
// calls move arguments into r0..r7 (the rest onto the stack) and DSDs
// through descriptor slots (docs/CodeGen.md).
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
  // Nothing lives in r0..r9 across a call. The values that die at the call
  // (its arguments) are gone with the rest: releasing their registers after
  // the call would free the one the result is given below.
  freeRegs = AllocatableRegs;
  deaths.erase(op);
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
