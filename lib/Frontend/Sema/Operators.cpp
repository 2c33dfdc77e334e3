//===- Operators.cpp - CSL operators on comptime values -------------------===//
//
// comptime_int arithmetic is exact. On sized integers a comptime result
// outside the type's range is an error (run-time code wraps; see
// wrapToType). comptime_float is an IEEE double; f16/f32 results are rounded
// to their format after each operation.
//
//===----------------------------------------------------------------------===//

#include "Evaluator.h"

#include <cmath>

using namespace tessera::frontend;
using namespace tessera::frontend::sema;

using K = Type::Kind;
using ast::BinaryOp;

/// `v` as a signed integer `bits` wide (enough to hold it).
static llvm::APSInt widen(const llvm::APSInt &v, unsigned bits) {
  llvm::APInt w = v.isSigned() ? v.sext(bits) : v.zext(bits);
  return llvm::APSInt(w, /*isUnsigned=*/false);
}

static std::string intText(const llvm::APSInt &v) { return intToString(v); }

static bool isArithmetic(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
  case BinaryOp::Sub:
  case BinaryOp::Mul:
  case BinaryOp::Div:
  case BinaryOp::Rem:
    return true;
  default:
    return false;
  }
}

static bool isBitwise(BinaryOp op) {
  return op == BinaryOp::BitAnd || op == BinaryOp::BitOr ||
         op == BinaryOp::BitXor;
}

static bool isShift(BinaryOp op) {
  return op == BinaryOp::Shl || op == BinaryOp::Shr;
}

static bool compareResult(BinaryOp op, int c) {
  switch (op) {
  case BinaryOp::Eq:
    return c == 0;
  case BinaryOp::Ne:
    return c != 0;
  case BinaryOp::Lt:
    return c < 0;
  case BinaryOp::Gt:
    return c > 0;
  case BinaryOp::Le:
    return c <= 0;
  case BinaryOp::Ge:
    return c >= 0;
  default:
    return false;
  }
}

bool Evaluator::checkComptimeIntBits(uint64_t bits, llvm::SMLoc loc) {
  if (bits <= options.maxComptimeIntBits)
    return true;
  diags.error(loc, "comptime_int result needs " + llvm::Twine(bits) +
                       " bits, more than the limit of " +
                       llvm::Twine(options.maxComptimeIntBits));
  return false;
}

std::optional<Value> Evaluator::binary(BinaryOp op, const Value &lhs,
                                       const Value &rhs, llvm::SMLoc loc) {
  llvm::StringRef spelling = ast::getSpelling(op);
  auto invalid = [&]() -> std::optional<Value> {
    diags.error(loc, "invalid operands to '" + spelling + "': '" +
                         lhs.getType()->str() + "' and '" +
                         rhs.getType()->str() + "'");
    return std::nullopt;
  };

  if (op == BinaryOp::And || op == BinaryOp::Or) {
    // Short-circuiting happens in the caller; here both sides are known.
    for (const Value *v : {&lhs, &rhs})
      if (!v->getType()->is(K::Bool)) {
        diags.error(loc,
                    "expected 'bool', found '" + v->getType()->str() + "'");
        return std::nullopt;
      }
    if (!lhs.isComptimeKnown() || !rhs.isComptimeKnown())
      return Value::getRunTime(types.getBool());
    return Value::getBool(types, op == BinaryOp::And
                                     ? lhs.getBool() && rhs.getBool()
                                     : lhs.getBool() || rhs.getBool());
  }

  if (isShift(op)) {
    if (!lhs.getType()->isInteger() || !rhs.getType()->isInteger())
      return invalid();
    const Type *type = lhs.getType();
    if (!lhs.isComptimeKnown() || !rhs.isComptimeKnown()) {
      if (type->is(K::ComptimeInt)) {
        diags.error(loc, "shifting a 'comptime_int' by a run-time amount");
        return std::nullopt;
      }
      return Value::getRunTime(type);
    }
    const llvm::APSInt &amount = rhs.getInt();
    if (amount.isNegative()) {
      diags.error(loc, "shift amount " + intText(amount) + " is negative");
      return std::nullopt;
    }
    auto *it = llvm::dyn_cast<IntType>(type);
    uint64_t limit = it ? it->getBitWidth() : options.maxComptimeIntBits;
    if (amount.getActiveBits() > 32 || amount.getZExtValue() >= limit) {
      diags.error(loc, "shift amount " + intText(amount) +
                           " is too large for '" + type->str() + "'");
      return std::nullopt;
    }
    unsigned n = amount.getZExtValue();
    const llvm::APSInt &a = lhs.getInt();
    if (!it && op == BinaryOp::Shl &&
        !checkComptimeIntBits(a.getBitWidth() + n, loc))
      return std::nullopt;
    llvm::APSInt wide = widen(a, a.getBitWidth() + n + 1);
    llvm::APSInt result = op == BinaryOp::Shl
                              ? llvm::APSInt(wide.shl(n), false)
                              : llvm::APSInt(wide.ashr(n), false);
    if (it && !fitsInType(result, it)) {
      diags.error(loc, "overflow: " + intText(a) + " << " + intText(amount) +
                           " = " + intText(result) + " does not fit in '" +
                           type->str() + "'");
      return std::nullopt;
    }
    return Value::getInt(type, result);
  }

  const Type *type = peerType(lhs, rhs);
  if (!type) {
    if (lhs.getType()->isNumeric() && rhs.getType()->isNumeric()) {
      diags.error(loc, "mismatched types '" + lhs.getType()->str() + "' and '" +
                           rhs.getType()->str() + "' in '" + spelling + "'");
      return std::nullopt;
    }
    return invalid();
  }
  bool comparison = ast::isComparison(op);
  bool equality = op == BinaryOp::Eq || op == BinaryOp::Ne;
  if ((isArithmetic(op) && !type->isNumeric()) ||
      (isBitwise(op) && !type->isInteger()) ||
      (comparison && !equality && !type->isNumeric()))
    return invalid();
  if (equality && !type->isNumeric() &&
      !(type->is(K::Bool) || type->is(K::TypeType) || type->is(K::Enum) ||
        type->is(K::EnumLiteral) || type->isHandle() ||
        type->is(K::Direction) || type->is(K::ComptimeString) ||
        type->is(K::Void)))
    return invalid();

  if (!lhs.isComptimeKnown() || !rhs.isComptimeKnown())
    return Value::getRunTime(comparison ? types.getBool() : type);

  // Operands mostly have the peer type already; coerce only the others.
  std::optional<Value> coercedLhs, coercedRhs;
  const Value *a = &lhs, *b = &rhs;
  if (lhs.getType() != type) {
    if (!(coercedLhs = coerce(lhs, type, loc)))
      return std::nullopt;
    a = &*coercedLhs;
  }
  if (rhs.getType() != type) {
    if (!(coercedRhs = coerce(rhs, type, loc)))
      return std::nullopt;
    b = &*coercedRhs;
  }

  if (comparison && !type->isNumeric()) {
    bool same = a->equals(*b);
    return Value::getBool(types, op == BinaryOp::Eq ? same : !same);
  }

  if (type->isFloat()) {
    double x = a->getFloat(), y = b->getFloat();
    if (comparison) {
      // Every comparison with NaN is false except !=.
      if (std::isnan(x) || std::isnan(y))
        return Value::getBool(types, op == BinaryOp::Ne);
      return Value::getBool(types, compareResult(op, x < y ? -1 : x > y));
    }
    bool comptimeFloat = type->is(K::ComptimeFloat);
    if ((op == BinaryOp::Div || op == BinaryOp::Rem) && y == 0 &&
        comptimeFloat) {
      diags.error(loc, "division by zero");
      return std::nullopt;
    }
    double r = 0;
    switch (op) {
    case BinaryOp::Add:
      r = x + y;
      break;
    case BinaryOp::Sub:
      r = x - y;
      break;
    case BinaryOp::Mul:
      r = x * y;
      break;
    case BinaryOp::Div:
      r = x / y;
      break;
    case BinaryOp::Rem:
      r = std::fmod(x, y);
      break;
    default:
      return invalid();
    }
    if (comptimeFloat && std::isnan(r)) {
      diags.error(loc,
                  "comptime_float operation '" + spelling + "' produced nan");
      return std::nullopt;
    }
    return Value::getFloat(type, r);
  }

  const llvm::APSInt &x = a->getInt(), &y = b->getInt();
  if (comparison)
    return Value::getBool(types,
                          compareResult(op, llvm::APSInt::compareValues(x, y)));
  if ((op == BinaryOp::Div || op == BinaryOp::Rem) && y.isZero()) {
    diags.error(loc, "division by zero");
    return std::nullopt;
  }
  unsigned width = std::max(x.getBitWidth(), y.getBitWidth()) + 2;
  if (op == BinaryOp::Mul)
    width = x.getBitWidth() + y.getBitWidth() + 2;
  llvm::APSInt wx = widen(x, width), wy = widen(y, width);
  llvm::APInt r;
  switch (op) {
  case BinaryOp::Add:
    r = wx + wy;
    break;
  case BinaryOp::Sub:
    r = wx - wy;
    break;
  case BinaryOp::Mul:
    r = wx * wy;
    break;
  // Truncating division and a remainder with the dividend's sign, as C.
  case BinaryOp::Div:
    r = wx.sdiv(wy);
    break;
  case BinaryOp::Rem:
    r = wx.srem(wy);
    break;
  case BinaryOp::BitAnd:
    r = wx & wy;
    break;
  case BinaryOp::BitOr:
    r = wx | wy;
    break;
  case BinaryOp::BitXor:
    r = wx ^ wy;
    break;
  default:
    return invalid();
  }
  llvm::APSInt result(r, false);
  if (type->is(K::ComptimeInt) &&
      !checkComptimeIntBits(result.getSignificantBits(), loc))
    return std::nullopt;
  if (auto *it = llvm::dyn_cast<IntType>(type)) {
    if (isBitwise(op)) // both operands fit, so only the sign needs wrapping
      return Value::getInt(type, wrapToType(result, it));
    if (!fitsInType(result, it)) {
      diags.error(loc, "overflow: " + intText(x) + " " + spelling + " " +
                           intText(y) + " = " + intText(result) +
                           " does not fit in '" + type->str() + "'");
      return std::nullopt;
    }
  }
  return Value::getInt(type, result);
}

std::optional<Value> Evaluator::unary(ast::UnaryOp op, const Value &v,
                                      llvm::SMLoc loc) {
  const Type *type = v.getType();
  auto invalid = [&]() -> std::optional<Value> {
    diags.error(loc, "invalid operand to '" + ast::getSpelling(op) + "': '" +
                         type->str() + "'");
    return std::nullopt;
  };
  switch (op) {
  case ast::UnaryOp::Not:
    if (!type->is(K::Bool)) {
      diags.error(loc, "expected 'bool', found '" + type->str() + "'");
      return std::nullopt;
    }
    if (!v.isComptimeKnown())
      return v;
    return Value::getBool(types, !v.getBool());
  case ast::UnaryOp::Neg:
    if (!type->isNumeric())
      return invalid();
    if (!v.isComptimeKnown())
      return v;
    if (type->isFloat())
      return Value::getFloat(type, -v.getFloat());
    {
      const llvm::APSInt &x = v.getInt();
      llvm::APSInt r(-widen(x, x.getBitWidth() + 1), false);
      auto *it = llvm::dyn_cast<IntType>(type);
      if (it && !fitsInType(r, it)) {
        std::string operand =
            x.isNegative() ? "(" + intText(x) + ")" : intText(x);
        diags.error(loc, "overflow: -" + operand + " = " + intText(r) +
                             " does not fit in '" + type->str() + "'");
        return std::nullopt;
      }
      return Value::getInt(type, r);
    }
  case ast::UnaryOp::BitNot:
    if (!type->isInteger())
      return invalid();
    if (!v.isComptimeKnown())
      return v;
    // Flipping every bit: -x - 1 for comptime_int, within the width otherwise.
    return Value::getInt(type,
                         llvm::APSInt(~v.getInt(), v.getInt().isUnsigned()));
  case ast::UnaryOp::AddressOf:
    break;
  }
  return invalid();
}
