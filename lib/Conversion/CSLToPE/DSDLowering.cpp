//===- DSDLowering.cpp - csl ops: tasks, config words and DSDs -----------===//

#include "FunctionLowering.h"
#include "LoweringUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::lowering;
using pe::Opcode;
using pe::Operand;
using pe::OperandMode;

static unsigned fileIndex(OperandMode file) {
  return file == OperandMode::DestDSR   ? 0
         : file == OperandMode::Src0DSR ? 1
                                        : 2;
}

static OperandMode fileOf(csl::DSRType type) {
  switch (type.getKind()) {
  case csl::DSRKind::Dest:
    return OperandMode::DestDSR;
  case csl::DSRKind::Src0:
    return OperandMode::Src0DSR;
  case csl::DSRKind::Src1:
    return OperandMode::Src1DSR;
  }
  return OperandMode::DestDSR;
}

/// Element width in bits of a DSR holding elements of `type`.
static int64_t widthOf(Type type) {
  return type && getBitWidth(type) == 32 ? 32 : 16;
}

static Type elementTypeOf(Value dsd) {
  if (auto t = dyn_cast<csl::DSDType>(dsd.getType()))
    return t.getElementType();
  return {};
}

std::optional<unsigned> FunctionLowering::takeScratchDSR(OperandMode file) {
  unsigned f = fileIndex(file);
  if (nextScratchDSR[f] >= ctx.scratchDSRs[f].size())
    return std::nullopt;
  return ctx.scratchDSRs[f][nextScratchDSR[f]++];
}

Operand FunctionLowering::taskRef(Value v, Location loc) {
  if (std::optional<int64_t> c = getConst(v); c && *c >= 0 && *c < 64)
    return Operand::imm(*c);
  return Operand::reg(use(v, loc));
}

/// The flattened element offset of an affine tensor access: a constant term
/// and one coefficient per induction variable.
static LogicalResult linearize(AffineMap map, MemRefType base,
                               int64_t &constant,
                               llvm::SmallVectorImpl<int64_t> &coefficients) {
  coefficients.assign(map.getNumDims(), 0);
  constant = 0;
  int64_t stride = 1;
  for (int64_t d = map.getNumResults() - 1; d >= 0; --d) {
    AffineExpr e = map.getResult(d);
    // Split e into c0 + sum(ck * ik) by probing it on unit vectors.
    llvm::SmallVector<int64_t> zeros(map.getNumDims(), 0);
    auto eval = [&](llvm::ArrayRef<int64_t> point) -> std::optional<int64_t> {
      AffineMap single = AffineMap::get(map.getNumDims(), 0, e);
      llvm::SmallVector<int64_t> out = single.compose(point);
      return out.empty() ? std::nullopt : std::optional<int64_t>(out[0]);
    };
    // Only sums of constant multiples of the indices are linear.
    bool linear =
        e.isPureAffine() &&
        !e.walk([](AffineExpr sub) {
            return sub.getKind() == AffineExprKind::Mod ||
                           sub.getKind() == AffineExprKind::FloorDiv ||
                           sub.getKind() == AffineExprKind::CeilDiv
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          }).wasInterrupted();
    if (!linear)
      return failure();
    std::optional<int64_t> c0 = eval(zeros);
    if (!c0)
      return failure();
    constant += *c0 * stride;
    for (unsigned k = 0; k < map.getNumDims(); ++k) {
      llvm::SmallVector<int64_t> unit(map.getNumDims(), 0);
      unit[k] = 1;
      std::optional<int64_t> v = eval(unit);
      if (!v)
        return failure();
      coefficients[k] += (*v - *c0) * stride;
    }
    if (d > 0)
      stride *= base.getDimSize(d);
  }
  return success();
}

LogicalResult FunctionLowering::buildDSD(Value dsd, OperandMode file,
                                         unsigned index, Location loc) {
  Operation *op = dsd.getDefiningOp();
  Operand dsr = Operand::dsr(file, index);
  // A DSD in a frame slot (a call's result, a block argument) or behind an
  // address (a function's DSD parameter).
  ValueLoc where = locs.lookup(dsd);
  if (where.kind == LocKind::DescSlot) {
    emit(Opcode::DsrLoad,
         {dsr, Operand::reg(pe::StackRegister),
          Operand::imm(where.value + spAdjust)},
         loc);
    return success();
  }
  if (!op || isa<func::CallOp>(op)) {
    unsigned r = use(dsd, loc);
    emit(Opcode::DsrLoad, {dsr, Operand::reg(r), Operand::imm(0)}, loc);
    return success();
  }
  Location at = op->getLoc();
  auto baseOperand = [&](Value memref) -> Operand {
    return useRegOrImm(memref, /*isSigned=*/false, at);
  };
  if (auto m = dyn_cast<csl::Mem1dDSDOp>(op)) {
    emit(
        Opcode::DsrMem1d,
        {dsr, Operand::imm(widthOf(elementTypeOf(dsd))),
         baseOperand(m.getBase()), useRegOrImm(m.getExtent(), false, at),
         m.getOffset() ? useRegOrImm(m.getOffset(), true, at) : Operand::imm(0),
         m.getStride() ? useRegOrImm(m.getStride(), true, at) : Operand::imm(1),
         Operand::imm(m.getWaveletIndexOffset())},
        at);
    return success();
  }
  if (auto t = dyn_cast<csl::TensorAccessDSDOp>(op)) {
    auto baseType = cast<MemRefType>(t.getBase().getType());
    int64_t constant;
    llvm::SmallVector<int64_t> coefficients;
    if (failed(linearize(t.getMap(), baseType, constant, coefficients)))
      return emitError(at) << "this tensor access is not a linear function of "
                              "its indices, which no DSD can express";
    llvm::ArrayRef<int64_t> sizes = t.getSizes();
    Operand width = Operand::imm(widthOf(elementTypeOf(dsd)));
    Operand wio = Operand::imm(t.getWaveletIndexOffset());
    if (sizes.size() == 1) {
      emit(Opcode::DsrMem1d,
           {dsr, width, baseOperand(t.getBase()), Operand::imm(sizes[0]),
            Operand::imm(constant), Operand::imm(coefficients[0]), wio},
           at);
      return success();
    }
    // mem4d has no offset: move the base instead.
    unsigned bytes = getStorageBytes(baseType.getElementType());
    Operand base;
    if (std::optional<int64_t> c = getConst(t.getBase())) {
      base = Operand::imm(*c + constant * bytes);
    } else {
      unsigned r = use(t.getBase(), at);
      if (constant) {
        unsigned s = r >= FirstScratch ? r : scratch();
        emit(Opcode::AddI,
             {Operand::reg(s), Operand::reg(r), Operand::imm(constant * bytes)},
             at);
        r = s;
      }
      base = Operand::reg(r);
    }
    std::vector<Operand> operands = {dsr, width, base, wio};
    for (auto [size, coefficient] : llvm::zip(sizes, coefficients)) {
      operands.push_back(Operand::imm(size));
      operands.push_back(Operand::imm(coefficient));
    }
    emit(Opcode::DsrMem4d, std::move(operands), at);
    return success();
  }
  if (auto c = dyn_cast<csl::CircbufDSDOp>(op)) {
    auto baseType = cast<MemRefType>(c.getBase().getType());
    int64_t wrap =
        c.getWraparound()
            ? *c.getWraparound()
            : (baseType.hasStaticShape() ? baseType.getNumElements() : 0);
    emit(Opcode::DsrCircbuf,
         {dsr, Operand::imm(widthOf(elementTypeOf(dsd))),
          baseOperand(c.getBase()), useRegOrImm(c.getExtent(), false, at),
          Operand::imm(wrap)},
         at);
    return success();
  }
  auto constHandle = [&](Value v, StringRef what) -> FailureOr<int64_t> {
    std::optional<int64_t> c = getConst(v);
    if (!c)
      return emitError(at) << "the " << what
                           << " of a fabric DSD must be known at compile time";
    return *c;
  };
  if (auto f = dyn_cast<csl::FabinDSDOp>(op)) {
    FailureOr<int64_t> color = constHandle(f.getColor(), "color");
    FailureOr<int64_t> queue = constHandle(f.getQueue(), "input queue");
    if (failed(color) || failed(queue))
      return failure();
    emit(Opcode::DsrFabin,
         {dsr, useRegOrImm(f.getExtent(), false, at), Operand::imm(*color),
          Operand::imm(*queue), Operand::imm(f.getControlTransform()),
          Operand::imm(static_cast<int64_t>(toPriority(f.getPriority())))},
         at);
    return success();
  }
  if (auto f = dyn_cast<csl::FaboutDSDOp>(op)) {
    FailureOr<int64_t> color = constHandle(f.getColor(), "color");
    FailureOr<int64_t> queue = constHandle(f.getQueue(), "output queue");
    if (failed(color) || failed(queue))
      return failure();
    emit(Opcode::DsrFabout,
         {dsr, useRegOrImm(f.getExtent(), false, at), Operand::imm(*color),
          Operand::imm(*queue), Operand::imm(f.getControl()),
          Operand::imm(f.getWaveletIndexOffset()),
          Operand::imm(f.getAdvanceSwitch()),
          Operand::imm(f.getControlTransform()),
          Operand::imm(static_cast<int64_t>(toPriority(f.getPriority())))},
         at);
    return success();
  }
  if (auto f = dyn_cast<csl::GetFifoOp>(op)) {
    emit(Opcode::DsrFifo,
         {dsr, Operand::imm(ctx.fifoSlots.lookup(f.getFifo()))}, at);
    return success();
  }
  if (auto l = dyn_cast<csl::LoadDSDOp>(op)) {
    unsigned t = scratch();
    loadImm(t, ctx.globalAddress.lookup(l.getGlobal()), at);
    emit(Opcode::DsrLoad, {dsr, Operand::reg(t), Operand::imm(0)}, at);
    return success();
  }
  // Modifiers: build the DSD they modify, then change it in place.
  if (auto m = dyn_cast<csl::IncrementDSDOffsetOp>(op)) {
    if (failed(buildDSD(m.getDsd(), file, index, loc)))
      return failure();
    // The offset counts elements of CSL's type argument; the DSR's offset
    // counts elements of its own width, which for a DSD kept in a variable
    // only the DSR knows (@set_dsd_base_addr may have changed it), so
    // dsr.incoffw converts at run time (fft-1d-2d steps its f16 arrays by
    // f32 pairs).
    emit(Opcode::DsrIncOffsetWidth,
         {dsr, Operand::imm(widthOf(m.getElemType())),
          useRegOrImm(m.getOffset(), true, at)},
         at);
    return success();
  }
  if (auto m = dyn_cast<csl::SetDSDBaseAddrOp>(op)) {
    if (failed(buildDSD(m.getDsd(), file, index, loc)))
      return failure();
    // The DSD takes its new memory's element width (and loses its offset)
    // at run time: a DSD loaded from a variable has the width of what it was
    // made over, and public programs re-base DSDs made over an i16 dummy
    // onto f32 arrays (benchmark-libs' blas, whose @map reads them at the
    // DSR's width).
    auto memory = cast<MemRefType>(m.getBase().getType());
    emit(Opcode::DsrSetBaseWidth,
         {dsr, Operand::imm(widthOf(memory.getElementType())),
          baseOperand(m.getBase())},
         at);
    return success();
  }
  if (auto m = dyn_cast<csl::SetDSDLengthOp>(op)) {
    if (failed(buildDSD(m.getDsd(), file, index, loc)))
      return failure();
    emit(Opcode::DsrSetLength, {dsr, useRegOrImm(m.getLength(), false, at)},
         at);
    return success();
  }
  if (auto m = dyn_cast<csl::SetDSDStrideOp>(op)) {
    if (failed(buildDSD(m.getDsd(), file, index, loc)))
      return failure();
    emit(Opcode::DsrSetStride, {dsr, useRegOrImm(m.getStride(), true, at)}, at);
    return success();
  }
  return emitError(at) << "'" << op->getName()
                       << "' does not make a DSD the PE can use";
}

FailureOr<Operand> FunctionLowering::dsdOperand(Value v, OperandMode file,
                                                Location loc,
                                                bool pointeeWide) {
  Type type = v.getType();
  if (isa<csl::DSDType>(type)) {
    std::optional<unsigned> index = takeScratchDSR(file);
    if (!index)
      return emitError(loc) << "no free DSR left in the "
                            << (file == OperandMode::DestDSR   ? "dest"
                                : file == OperandMode::Src0DSR ? "src0"
                                                               : "src1")
                            << " file for this operation";
    if (failed(buildDSD(v, file, *index, loc)))
      return failure();
    return Operand::dsr(file, *index);
  }
  if (auto dsrType = dyn_cast<csl::DSRType>(type)) {
    std::optional<int64_t> id = getConst(v);
    if (!id)
      return emitError(loc) << "a DSR must be known at compile time";
    return Operand::dsr(fileOf(dsrType), *id);
  }
  if (isa<MemRefType>(type))
    return Operand::ptr(use(v, loc), pointeeWide);
  return Operand::reg(use(v, loc));
}

FailureOr<pe::DSDOptions>
FunctionLowering::dsdOptions(bool async, Value activate, Value unblock,
                             Value utID, std::optional<csl::Priority> priority,
                             Value index, Location loc) {
  pe::DSDOptions options;
  options.async = async;
  options.priority = toPriority(priority);
  if (activate)
    options.activate = taskRef(activate, loc);
  if (unblock)
    options.unblock = taskRef(unblock, loc);
  if (utID)
    options.microthread = taskRef(utID, loc);
  if (index)
    options.indexReg = use(index, loc);
  return options;
}

/// Which DSR file each operand position of a DSD operation reads.
static OperandMode positionFile(unsigned position) {
  return position == 0   ? OperandMode::DestDSR
         : position == 1 ? OperandMode::Src0DSR
                         : OperandMode::Src1DSR;
}

LogicalResult FunctionLowering::lowerDSDOperation(Operation *op) {
  Location loc = op->getLoc();
  std::optional<pe::Opcode> opcode =
      pe::lookupMnemonic(op->getName().stripDialect());
  if (!opcode)
    return emitError(loc) << "'" << op->getName() << "' has no PE instruction";
  auto segments = op->getAttrOfType<DenseI32ArrayAttr>("operandSegmentSizes");
  // The DSD operands come first; the options follow (activate, unblock,
  // ut_id, index), each an optional operand.
  size_t numOptions = 4;
  size_t numData = segments.size() - numOptions;
  // DSDs first: once a descriptor is in its DSR, the scratch registers that
  // built it are free for the next one; scalars and pointers then keep
  // theirs until the operation.
  std::vector<Operand> operands(numData);
  for (bool dsds : {true, false}) {
    for (size_t i = 0; i < numData; ++i) {
      Value v = op->getOperand(i);
      if (isa<csl::DSDType>(v.getType()) != dsds)
        continue;
      unsigned firstFree = nextScratch;
      FailureOr<Operand> operand = dsdOperand(v, positionFile(i), loc);
      if (failed(operand))
        return failure();
      operands[i] = *operand;
      if (dsds)
        nextScratch = firstFree;
    }
  }
  auto optional = [&](size_t segment) -> Value {
    size_t start = 0;
    for (size_t s = 0; s < segment; ++s)
      start += segments[s];
    return segments[segment] ? op->getOperand(start) : Value();
  };
  bool async = op->hasAttr("async");
  std::optional<csl::Priority> priority;
  if (auto p = op->getAttrOfType<csl::PriorityAttr>("priority"))
    priority = p.getValue();
  FailureOr<pe::DSDOptions> options =
      dsdOptions(async, optional(numData), optional(numData + 1),
                 optional(numData + 2), priority, optional(numData + 3), loc);
  if (failed(options))
    return failure();
  emit(*opcode, std::move(operands), loc, *options);
  return success();
}

LogicalResult FunctionLowering::lowerMap(csl::MapOp op) {
  Location loc = op->getLoc();
  auto callee = ctx.symbols.lookup<func::FuncOp>(op.getCallee());
  if (!callee)
    return emitError(loc) << "@map calls '" << op.getCallee()
                          << "', which is not a function of this program";
  size_t numArgs = callee.getNumArguments();
  bool hasDest = callee.getNumResults() == 1;
  if (numArgs > 8)
    return emitError(loc) << "@map functions take at most 8 arguments";
  // Each argument takes a DSR of the src files in turn, or a register.
  std::vector<Operand> operands = {Operand::imm(0)};
  Operand dest = Operand::none();
  if (hasDest) {
    Value d = op.getOperands().back();
    bool wide = false;
    if (auto m = dyn_cast<MemRefType>(d.getType()))
      wide = getBitWidth(m.getElementType()) == 32;
    unsigned firstFree = nextScratch;
    FailureOr<Operand> o = dsdOperand(d, OperandMode::DestDSR, loc, wide);
    if (failed(o))
      return failure();
    dest = *o;
    if (isa<csl::DSDType>(d.getType()))
      nextScratch = firstFree;
  }
  operands.push_back(dest);
  operands.resize(2 + numArgs);
  for (bool dsds : {true, false}) {
    for (size_t i = 0; i < numArgs; ++i) {
      Value v = op.getOperands()[i];
      if (isa<csl::DSDType>(v.getType()) != dsds)
        continue;
      Type param = callee.getArgumentTypes()[i];
      if (isa<MemRefType>(param)) { // f takes the pointer itself
        operands[2 + i] = Operand::reg(use(v, loc));
        continue;
      }
      unsigned firstFree = nextScratch;
      OperandMode file = i % 2 ? OperandMode::Src1DSR : OperandMode::Src0DSR;
      FailureOr<Operand> o = dsdOperand(v, file, loc, getBitWidth(param) == 32);
      if (failed(o))
        return failure();
      operands[2 + i] = *o;
      if (dsds)
        nextScratch = firstFree;
    }
  }
  emit(Opcode::Map, std::move(operands), loc);
  mf.insts.back().fixup = {Fixup::Kind::Function, 0, 0, op.getCallee().str()};
  mf.callees.push_back(op.getCallee().str());
  freeRegs = AllocatableRegs;
  return success();
}

LogicalResult FunctionLowering::lowerCSL(Operation *op, bool &handled) {
  handled = true;
  Location loc = op->getLoc();
  if (auto a = dyn_cast<csl::ActivateOp>(op)) {
    emit(Opcode::Activate, {taskRef(a.getTask(), loc)}, loc);
    return success();
  }
  if (isa<csl::BlockOp, csl::UnblockOp, csl::QueueFlushOp>(op)) {
    Value target = op->getOperand(0);
    Opcode opcode = isa<csl::BlockOp>(op)     ? Opcode::Block
                    : isa<csl::UnblockOp>(op) ? Opcode::Unblock
                                              : Opcode::QueueFlush;
    emit(opcode,
         {Operand::imm(
              static_cast<int64_t>(getBlockSpace(op, target.getType()))),
          taskRef(target, loc)},
         loc);
    return success();
  }
  if (auto a = dyn_cast<csl::AssertOp>(op)) {
    unsigned c = use(a.getCondition(), loc);
    emit(Opcode::Assert, {Operand::reg(c), Operand::imm(ctx.nextAssertCode++)},
         loc);
    return success();
  }
  if (auto g = dyn_cast<csl::GetConfigOp>(op)) {
    Operand addr = useRegOrImm(g.getAddr(), false, loc);
    unsigned d = def(g.getResult());
    emit(Opcode::CfgGet, {Operand::reg(d), addr}, loc);
    finish(g.getResult(), d, loc);
    return success();
  }
  if (auto s = dyn_cast<csl::SetConfigOp>(op)) {
    Operand addr = useRegOrImm(s.getAddr(), false, loc);
    unsigned v = use(s.getValue(), loc);
    emit(Opcode::CfgSet, {addr, Operand::reg(v)}, loc);
    return success();
  }
  if (auto r = dyn_cast<csl::Random16Op>(op)) {
    unsigned d = def(r.getResult());
    emit(Opcode::Random16, {Operand::reg(d)}, loc);
    finish(r.getResult(), d, loc);
    return success();
  }
  if (auto g = dyn_cast<csl::GetIntOp>(op)) {
    unsigned a = use(g.getHandle(), loc);
    unsigned d = def(g.getResult());
    if (a != d)
      emit(Opcode::Mov, {Operand::reg(d), Operand::reg(a)}, loc);
    normalize(d, g.getType(), loc);
    finish(g.getResult(), d, loc);
    return success();
  }
  if (auto l = dyn_cast<csl::LoadToDSROp>(op)) {
    std::optional<int64_t> id = getConst(l.getDsr());
    if (!id)
      return emitError(loc) << "a DSR must be known at compile time";
    OperandMode file = fileOf(cast<csl::DSRType>(l.getDsr().getType()));
    if (failed(buildDSD(l.getDsd(), file, *id, loc)))
      return failure();
    FailureOr<pe::DSDOptions> options =
        dsdOptions(l.getAsync(), l.getActivate(), l.getUnblock(), l.getUtId(),
                   std::nullopt, Value(), loc);
    if (failed(options))
      return failure();
    if (!options->isDefault())
      emit(Opcode::DsrOptions, {Operand::dsr(file, *id)}, loc, *options);
    if (l.getSaveAddress())
      emit(Opcode::DsrSaveAddress, {Operand::dsr(file, *id)}, loc);
    return success();
  }
  if (auto s = dyn_cast<csl::StoreDSDOp>(op)) {
    std::optional<unsigned> index = takeScratchDSR(OperandMode::DestDSR);
    if (!index)
      return emitError(loc) << "no free DSR left in the dest file";
    if (failed(buildDSD(s.getValue(), OperandMode::DestDSR, *index, loc)))
      return failure();
    unsigned t = scratch();
    loadImm(t, ctx.globalAddress.lookup(s.getGlobal()), loc);
    emit(Opcode::DsrStore,
         {Operand::dsr(OperandMode::DestDSR, *index), Operand::reg(t),
          Operand::imm(0)},
         loc);
    return success();
  }
  if (auto m = dyn_cast<csl::MapOp>(op))
    return lowerMap(m);
  if (auto y = dyn_cast<csl::YieldOp>(op)) {
    // The end of a DSD variable's initializer (start-up code only).
    if (y.getValues().size() != 1 || !startupTarget)
      return emitError(loc) << "unexpected csl.yield";
    std::optional<unsigned> index = takeScratchDSR(OperandMode::DestDSR);
    if (!index)
      return emitError(loc) << "no free DSR left in the dest file";
    if (failed(buildDSD(y.getValues()[0], OperandMode::DestDSR, *index, loc)))
      return failure();
    unsigned t = scratch();
    loadImm(t, *startupTarget, loc);
    emit(Opcode::DsrStore,
         {Operand::dsr(OperandMode::DestDSR, *index), Operand::reg(t),
          Operand::imm(0)},
         loc);
    return success();
  }
  if (op->getDialect() && op->getDialect()->getNamespace() == "csl" &&
      op->getAttrOfType<DenseI32ArrayAttr>("operandSegmentSizes") &&
      pe::lookupMnemonic(op->getName().stripDialect()))
    return lowerDSDOperation(op);
  handled = false;
  return success();
}
