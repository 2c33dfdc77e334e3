//===- ArithLowering.cpp - arith ops to PE instructions -------------------===//
//
// Narrow integers (i1, i8, i16) live zero-extended in registers; results
// that can carry bits above their width are masked again, and signed
// operations sign-extend their operands into scratch first.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"
#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::lowering;
using pe::Opcode;
using pe::Operand;

namespace {
bool isF16(Type t) { return t.isF16(); }
bool isF32(Type t) { return t.isF32(); }
} // namespace

static std::optional<pe::FCmpPredicate>
getFCmpPredicate(arith::CmpFPredicate p) {
  using P = arith::CmpFPredicate;
  using Q = pe::FCmpPredicate;
  switch (p) {
  case P::AlwaysFalse:
    return Q::False;
  case P::OEQ:
    return Q::OEQ;
  case P::OGT:
    return Q::OGT;
  case P::OGE:
    return Q::OGE;
  case P::OLT:
    return Q::OLT;
  case P::OLE:
    return Q::OLE;
  case P::ONE:
    return Q::ONE;
  case P::ORD:
    return Q::ORD;
  case P::UNO:
    return Q::UNO;
  case P::UEQ:
    return Q::UEQ;
  case P::UGT:
    return Q::UGT;
  case P::UGE:
    return Q::UGE;
  case P::ULT:
    return Q::ULT;
  case P::ULE:
    return Q::ULE;
  case P::UNE:
    return Q::UNE;
  case P::AlwaysTrue:
    return Q::True;
  }
  return std::nullopt;
}

LogicalResult FunctionLowering::lowerArith(Operation *op, bool &handled) {
  handled = true;
  Location loc = op->getLoc();
  if (op->getDialect()->getNamespace() != "arith") {
    handled = false;
    return success();
  }
  Value result = op->getNumResults() ? op->getResult(0) : Value();
  Type type = result ? result.getType() : Type();

  // Three-register operations on canonical (zero-extended) operands.
  auto binary = [&](Opcode opcode, bool renormalize) {
    unsigned a = use(op->getOperand(0), loc);
    unsigned b = use(op->getOperand(1), loc);
    unsigned d = def(result);
    emit(opcode, {Operand::reg(d), Operand::reg(a), Operand::reg(b)}, loc);
    if (renormalize)
      normalize(d, type, loc);
    finish(result, d, loc);
    return success();
  };
  // The same on sign-extended operands; the result is masked again.
  auto signedBinary = [&](Opcode opcode) {
    unsigned a = useSigned(op->getOperand(0), loc);
    unsigned b = useSigned(op->getOperand(1), loc);
    unsigned d = def(result);
    emit(opcode, {Operand::reg(d), Operand::reg(a), Operand::reg(b)}, loc);
    normalize(d, type, loc);
    finish(result, d, loc);
    return success();
  };
  auto unary = [&](Opcode opcode, Value src) {
    unsigned a = use(src, loc);
    unsigned d = def(result);
    emit(opcode, {Operand::reg(d), Operand::reg(a)}, loc);
    finish(result, d, loc);
    return success();
  };
  auto move = [&](Value src, bool renormalize) {
    unsigned a = use(src, loc);
    unsigned d = def(result);
    if (d != a)
      emit(Opcode::Mov, {Operand::reg(d), Operand::reg(a)}, loc);
    if (renormalize)
      normalize(d, type, loc);
    finish(result, d, loc);
    return success();
  };
  auto floatOp = [&](Opcode f32, Opcode f16) -> LogicalResult {
    if (isF32(type))
      return binary(f32, false);
    if (isF16(type))
      return binary(f16, false);
    return emitError(loc) << "'" << op->getName() << "' on " << type
                          << " is not supported";
  };

  if (isa<arith::AddIOp>(op))
    return binary(Opcode::Add, true);
  if (isa<arith::SubIOp>(op))
    return binary(Opcode::Sub, true);
  if (isa<arith::MulIOp>(op))
    return binary(Opcode::Mul, true);
  if (isa<arith::DivUIOp>(op))
    return binary(Opcode::DivU, false);
  if (isa<arith::RemUIOp>(op))
    return binary(Opcode::RemU, false);
  if (isa<arith::DivSIOp>(op))
    return signedBinary(Opcode::DivS);
  if (isa<arith::RemSIOp>(op))
    return signedBinary(Opcode::RemS);
  if (isa<arith::AndIOp>(op))
    return binary(Opcode::And, false);
  if (isa<arith::OrIOp>(op))
    return binary(Opcode::Or, false);
  if (isa<arith::XOrIOp>(op))
    return binary(Opcode::Xor, false);
  if (isa<arith::ShLIOp>(op))
    return binary(Opcode::Shl, true);
  if (isa<arith::ShRUIOp>(op))
    return binary(Opcode::ShrL, false);
  if (isa<arith::ShRSIOp>(op)) {
    unsigned a = useSigned(op->getOperand(0), loc);
    unsigned b = use(op->getOperand(1), loc);
    unsigned d = def(result);
    emit(Opcode::ShrA, {Operand::reg(d), Operand::reg(a), Operand::reg(b)},
         loc);
    normalize(d, type, loc);
    finish(result, d, loc);
    return success();
  }
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    using P = arith::CmpIPredicate;
    P p = cmp.getPredicate();
    bool isSigned = p == P::slt || p == P::sle || p == P::sgt || p == P::sge;
    Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
    // Greater-than swaps the operands (docs/ISA.md).
    if (p == P::sgt || p == P::sge || p == P::ugt || p == P::uge)
      std::swap(lhs, rhs);
    unsigned a = isSigned ? useSigned(lhs, loc) : use(lhs, loc);
    unsigned b = isSigned ? useSigned(rhs, loc) : use(rhs, loc);
    unsigned d = def(result);
    Opcode opcode = Opcode::CmpEq;
    switch (p) {
    case P::eq:
      opcode = Opcode::CmpEq;
      break;
    case P::ne:
      opcode = Opcode::CmpNe;
      break;
    case P::slt:
    case P::sgt:
      opcode = Opcode::CmpLtS;
      break;
    case P::sle:
    case P::sge:
      opcode = Opcode::CmpLeS;
      break;
    case P::ult:
    case P::ugt:
      opcode = Opcode::CmpLtU;
      break;
    case P::ule:
    case P::uge:
      opcode = Opcode::CmpLeU;
      break;
    }
    emit(opcode, {Operand::reg(d), Operand::reg(a), Operand::reg(b)}, loc);
    finish(result, d, loc);
    return success();
  }
  if (auto sel = dyn_cast<arith::SelectOp>(op)) {
    unsigned c = use(sel.getCondition(), loc);
    unsigned a = use(sel.getTrueValue(), loc);
    unsigned b = use(sel.getFalseValue(), loc);
    unsigned d = def(result);
    emit(Opcode::Select,
         {Operand::reg(d), Operand::reg(c), Operand::reg(a), Operand::reg(b)},
         loc);
    finish(result, d, loc);
    return success();
  }
  if (isa<arith::MaxUIOp, arith::MinUIOp, arith::MaxSIOp, arith::MinSIOp>(op)) {
    bool isSigned = isa<arith::MaxSIOp, arith::MinSIOp>(op);
    bool isMax = isa<arith::MaxUIOp, arith::MaxSIOp>(op);
    unsigned a = isSigned ? useSigned(op->getOperand(0), loc)
                          : use(op->getOperand(0), loc);
    unsigned b = isSigned ? useSigned(op->getOperand(1), loc)
                          : use(op->getOperand(1), loc);
    unsigned c = scratch();
    emit(isSigned ? Opcode::CmpLtS : Opcode::CmpLtU,
         {Operand::reg(c), Operand::reg(a), Operand::reg(b)}, loc);
    unsigned d = def(result);
    // a < b: max is b, min is a.
    emit(Opcode::Select,
         {Operand::reg(d), Operand::reg(c), Operand::reg(isMax ? b : a),
          Operand::reg(isMax ? a : b)},
         loc);
    normalize(d, type, loc);
    finish(result, d, loc);
    return success();
  }

  // Width changes.
  if (isa<arith::ExtUIOp, arith::IndexCastUIOp, arith::BitcastOp>(op))
    return move(op->getOperand(0),
                getBitWidth(type) < getBitWidth(op->getOperand(0).getType()));
  if (isa<arith::TruncIOp>(op))
    return move(op->getOperand(0), true);
  if (isa<arith::ExtSIOp, arith::IndexCastOp>(op)) {
    if (getBitWidth(type) <= getBitWidth(op->getOperand(0).getType()))
      return move(op->getOperand(0), true);
    unsigned a = useSigned(op->getOperand(0), loc);
    unsigned d = def(result);
    if (d != a)
      emit(Opcode::Mov, {Operand::reg(d), Operand::reg(a)}, loc);
    normalize(d, type, loc);
    finish(result, d, loc);
    return success();
  }

  // Floats.
  if (isa<arith::AddFOp>(op))
    return floatOp(Opcode::FAddS, Opcode::FAddH);
  if (isa<arith::SubFOp>(op))
    return floatOp(Opcode::FSubS, Opcode::FSubH);
  if (isa<arith::MulFOp>(op))
    return floatOp(Opcode::FMulS, Opcode::FMulH);
  if (isa<arith::DivFOp>(op))
    return floatOp(Opcode::FDivS, Opcode::FDivH);
  if (isa<arith::MinimumFOp, arith::MinNumFOp>(op))
    return floatOp(Opcode::FMinS, Opcode::FMinH);
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(op))
    return floatOp(Opcode::FMaxS, Opcode::FMaxH);
  if (isa<arith::NegFOp>(op)) {
    if (isF32(type))
      return unary(Opcode::FNegS, op->getOperand(0));
    if (isF16(type))
      return unary(Opcode::FNegH, op->getOperand(0));
  }
  if (auto cmp = dyn_cast<arith::CmpFOp>(op)) {
    Type t = cmp.getLhs().getType();
    if (isF32(t) || isF16(t)) {
      unsigned a = use(cmp.getLhs(), loc);
      unsigned b = use(cmp.getRhs(), loc);
      unsigned d = def(result);
      emit(isF32(t) ? Opcode::FCmpS : Opcode::FCmpH,
           {Operand::reg(d), Operand::reg(a), Operand::reg(b),
            Operand::imm(
                static_cast<int64_t>(*getFCmpPredicate(cmp.getPredicate())))},
           loc);
      finish(result, d, loc);
      return success();
    }
  }
  Type from = op->getNumOperands() ? op->getOperand(0).getType() : Type();
  if (isa<arith::ExtFOp>(op)) {
    if (from.isF16() && isF32(type))
      return unary(Opcode::FCvtSH, op->getOperand(0));
    if (from.isBF16() && isF32(type))
      return unary(Opcode::FCvtSBF, op->getOperand(0));
  }
  if (isa<arith::TruncFOp>(op)) {
    if (from.isF32() && isF16(type))
      return unary(Opcode::FCvtHS, op->getOperand(0));
    if (from.isF32() && type.isBF16())
      return unary(Opcode::FCvtBFS, op->getOperand(0));
  }
  if (isa<arith::UIToFPOp, arith::SIToFPOp>(op) &&
      (isF32(type) || isF16(type))) {
    bool isSigned = isa<arith::SIToFPOp>(op);
    unsigned a = isSigned ? useSigned(op->getOperand(0), loc)
                          : use(op->getOperand(0), loc);
    unsigned d = def(result);
    Opcode opcode = isF32(type) ? (isSigned ? Opcode::FCvtSW : Opcode::FCvtSWU)
                                : (isSigned ? Opcode::FCvtHW : Opcode::FCvtHWU);
    emit(opcode, {Operand::reg(d), Operand::reg(a)}, loc);
    finish(result, d, loc);
    return success();
  }
  if (isa<arith::FPToUIOp, arith::FPToSIOp>(op) &&
      (from.isF32() || from.isF16())) {
    bool isSigned = isa<arith::FPToSIOp>(op);
    unsigned a = use(op->getOperand(0), loc);
    unsigned d = def(result);
    Opcode opcode = from.isF32()
                        ? (isSigned ? Opcode::FCvtWS : Opcode::FCvtWUS)
                        : (isSigned ? Opcode::FCvtWH : Opcode::FCvtWUH);
    emit(opcode, {Operand::reg(d), Operand::reg(a)}, loc);
    normalize(d, type, loc);
    finish(result, d, loc);
    return success();
  }
  return emitError(loc) << "'" << op->getName() << "' on "
                        << (type ? type : from)
                        << " cannot be lowered to the PE instruction set yet";
}
