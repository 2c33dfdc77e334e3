//===- Coercion.cpp - Implicit coercions and @as --------------------------===//

#include "Evaluator.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>

using namespace tessera::frontend;
using namespace tessera::frontend::sema;

using K = Type::Kind;

static bool isDirectionName(llvm::StringRef n) {
  return n == "NORTH" || n == "SOUTH" || n == "EAST" || n == "WEST" ||
         n == "RAMP";
}

/// The mathematical value of an integer as a double (for int -> float).
static double toDouble(const llvm::APSInt &v) {
  return v.isSigned() ? v.signedRoundToDouble() : v.roundToDouble();
}

bool Evaluator::isImplicitlyCoercible(const Type *from, const Type *to) const {
  if (from == to || to->is(K::AnyType))
    return true;
  if (from->is(K::ComptimeInt))
    return to->isNumeric();
  if (from->is(K::ComptimeFloat))
    return to->isFloat();
  if (auto *fi = llvm::dyn_cast<IntType>(from)) {
    if (auto *ti = llvm::dyn_cast<IntType>(to)) {
      if (fi->isSigned() == ti->isSigned())
        return ti->getBitWidth() >= fi->getBitWidth();
      return !fi->isSigned() && ti->getBitWidth() > fi->getBitWidth();
    }
    if (auto *tf = llvm::dyn_cast<FloatType>(to))
      return fi->getBitWidth() - (fi->isSigned() ? 1 : 0) <= tf->getPrecision();
    return false;
  }
  if (auto *ff = llvm::dyn_cast<FloatType>(from)) {
    auto *tf = llvm::dyn_cast<FloatType>(to);
    return tf && tf->getFormat() == FloatFormat::F32 &&
           ff->getFormat() != FloatFormat::F32;
  }
  if (from->is(K::EnumLiteral))
    return to->is(K::Enum) || to->is(K::Direction);
  auto *fp = llvm::dyn_cast<PointerType>(from);
  auto *tp = llvm::dyn_cast<PointerType>(to);
  if (fp && tp) {
    if (fp->isConst() && !tp->isConst())
      return false;
    if (fp->isMany() == tp->isMany())
      return fp->getPointee() == tp->getPointee();
    // `*[N]T` decays to `[*]T`.
    auto *arr = llvm::dyn_cast<ArrayType>(fp->getPointee());
    return !fp->isMany() && tp->isMany() && arr &&
           arr->getElementType() == tp->getPointee();
  }
  return false;
}

std::optional<Value> Evaluator::coerce(const Value &v, const Type *to,
                                       llvm::SMLoc loc) {
  const Type *from = v.getType();
  if (from == to || to->is(K::AnyType))
    return v;
  auto mismatch = [&]() -> std::optional<Value> {
    diags.error(loc,
                "expected '" + to->str() + "', found '" + from->str() + "'");
    return std::nullopt;
  };
  if (!v.isComptimeKnown()) {
    if (isImplicitlyCoercible(from, to))
      return Value::getRunTime(to, v.getSymbol());
    return mismatch();
  }

  // A comptime-known number keeps its value as comptime_int/comptime_float.
  if (to->is(K::ComptimeInt) && v.is(Value::Kind::Int))
    return Value::getInt(to, v.getInt());
  if (to->is(K::ComptimeFloat) && v.is(Value::Kind::Float))
    return Value::getFloat(to, v.getFloat());
  if (auto *ti = llvm::dyn_cast<IntType>(to)) {
    // A comptime-known integer coerces to any integer type that holds it
    // (`const off: i16 = u16_param - 1;`); run-time ones only widen.
    if (v.is(Value::Kind::Int)) {
      if (!fitsInType(v.getInt(), ti)) {
        diags.error(loc, "value " + llvm::Twine(intToString(v.getInt())) +
                             " does not fit in '" + to->str() + "'");
        return std::nullopt;
      }
      return Value::getInt(to, v.getInt());
    }
    if (v.is(Value::Kind::Float) && from->is(K::ComptimeFloat)) {
      double d = v.getFloat();
      if (d != std::trunc(d)) {
        diags.error(loc, "fractional value " + formatFloat(d, false) +
                             " cannot coerce to '" + to->str() + "'");
        return std::nullopt;
      }
      return convert(v, to, loc);
    }
    return mismatch();
  }
  if (to->isFloat()) {
    if (v.is(Value::Kind::Int) && isImplicitlyCoercible(from, to))
      return Value::getFloat(to, toDouble(v.getInt()));
    if (v.is(Value::Kind::Float) && isImplicitlyCoercible(from, to))
      return Value::getFloat(to, v.getFloat());
    return mismatch();
  }
  if (auto *et = llvm::dyn_cast<EnumType>(to)) {
    if (!v.is(Value::Kind::EnumLiteral))
      return mismatch();
    std::optional<unsigned> member = et->findMember(v.getString());
    if (!member) {
      diags.error(loc, "enum '" + to->str() + "' has no member named '" +
                           v.getString() + "'");
      return std::nullopt;
    }
    return Value::getEnumValue(et, *member);
  }
  if (to->is(K::Direction) && v.is(Value::Kind::EnumLiteral)) {
    if (!isDirectionName(v.getString())) {
      diags.error(loc, "'." + v.getString() +
                           "' is not a direction; expected one of NORTH, "
                           "SOUTH, EAST, WEST, RAMP");
      return std::nullopt;
    }
    static const char *const names[] = {"RAMP", "EAST", "WEST", "SOUTH",
                                        "NORTH"};
    for (unsigned i = 0; i < 5; ++i)
      if (v.getString() == names[i])
        return Value::getHandle(to, i);
  }
  if (auto *at = llvm::dyn_cast<ArrayType>(to)) {
    // A tuple or an array of another element type coerces element-wise.
    std::vector<Value> elements;
    if (v.isTuple() || (v.is(Value::Kind::Struct) && v.getFields().empty())) {
      for (const FieldValue &f : v.getFields())
        elements.push_back(f.value);
    } else if (auto *fa = llvm::dyn_cast<ArrayType>(from)) {
      if (fa->getDims() != at->getDims())
        return mismatch();
      elements.assign(v.getElements().begin(), v.getElements().end());
    } else {
      return mismatch();
    }
    if (elements.size() != at->getNumElements()) {
      diags.error(loc, "expected " + llvm::Twine(at->getNumElements()) +
                           " elements for '" + to->str() + "', found " +
                           llvm::Twine(elements.size()));
      return std::nullopt;
    }
    for (Value &e : elements) {
      std::optional<Value> c = coerce(e, at->getElementType(), loc);
      if (!c)
        return std::nullopt;
      e = *c;
    }
    return Value::getArray(at, std::move(elements));
  }
  if (auto *st = llvm::dyn_cast<StructType>(to)) {
    if (!from->is(K::ComptimeStruct) || v.isTuple())
      return mismatch();
    std::vector<FieldValue> fields;
    for (const FieldValue &f : v.getFields())
      if (!st->findField(f.name)) {
        diags.error(loc, "struct '" + to->str() + "' has no field named '" +
                             f.name + "'");
        return std::nullopt;
      }
    for (const StructType::Field &f : st->getFields()) {
      const Value *fv = v.findField(f.name);
      if (!fv) {
        diags.error(loc, "missing field '" + f.name + "' for struct '" +
                             to->str() + "'");
        return std::nullopt;
      }
      std::optional<Value> c = coerce(*fv, f.type, loc);
      if (!c)
        return std::nullopt;
      fields.push_back({f.name, *c});
    }
    return Value::getStruct(st, std::move(fields));
  }
  return mismatch();
}

std::optional<Value> Evaluator::convert(const Value &v, const Type *to,
                                        llvm::SMLoc loc) {
  const Type *from = v.getType();
  if (from == to)
    return v;
  auto invalid = [&]() -> std::optional<Value> {
    diags.error(loc, "cannot convert '" + from->str() + "' to '" + to->str() +
                         "' with @as");
    return std::nullopt;
  };
  bool numericLike =
      from->isNumeric() || from->is(K::Bool) || from->is(K::Enum);
  if (!v.isComptimeKnown()) {
    if ((to->isNumeric() || to->is(K::Bool) || to->is(K::Enum)) && numericLike)
      return Value::getRunTime(to, v.getSymbol());
    if (isImplicitlyCoercible(from, to))
      return Value::getRunTime(to, v.getSymbol());
    return invalid();
  }
  // The integer a bool or enum stands for.
  std::optional<llvm::APSInt> asInt;
  if (v.is(Value::Kind::Int) || v.is(Value::Kind::EnumValue))
    asInt = v.getInt();
  else if (v.is(Value::Kind::Bool))
    asInt = llvm::APSInt::get(v.getBool() ? 1 : 0);

  if (auto *ti = llvm::dyn_cast<IntType>(to)) {
    if (asInt) {
      // Sized to sized truncates like the hardware; comptime_int must fit.
      if (from->is(K::ComptimeInt) && !fitsInType(*asInt, ti)) {
        diags.error(loc, "value " + llvm::Twine(intToString(*asInt)) +
                             " does not fit in '" + to->str() + "'");
        return std::nullopt;
      }
      return Value::getInt(to, *asInt);
    }
    if (v.is(Value::Kind::Float)) {
      double t = std::trunc(v.getFloat());
      bool ok = std::isfinite(t);
      llvm::APSInt i(128, false);
      if (ok) {
        bool exact;
        llvm::APFloat f(t);
        ok = f.convertToInteger(i, llvm::APFloat::rmTowardZero, &exact) ==
                 llvm::APFloat::opOK ||
             exact;
        ok = ok && fitsInType(i, ti);
      }
      if (!ok) {
        diags.error(loc,
                    "value " +
                        formatFloat(v.getFloat(), llvm::isa<FloatType>(from)) +
                        " does not fit in '" + to->str() + "'");
        return std::nullopt;
      }
      return Value::getInt(to, i);
    }
    return invalid();
  }
  if (to->is(K::ComptimeInt)) {
    if (asInt)
      return Value::getInt(to, *asInt);
    return coerce(v, to, loc);
  }
  if (to->isFloat()) {
    if (asInt)
      return Value::getFloat(to, toDouble(*asInt));
    if (v.is(Value::Kind::Float))
      return Value::getFloat(to, v.getFloat());
    return invalid();
  }
  if (to->is(K::Bool)) {
    if (asInt)
      return Value::getBool(types, !asInt->isZero());
    if (v.is(Value::Kind::Float)) // unordered: NaN is true
      return Value::getBool(types, !(v.getFloat() == 0));
    return invalid();
  }
  if (auto *et = llvm::dyn_cast<EnumType>(to)) {
    if (v.is(Value::Kind::Int)) {
      std::optional<unsigned> m = et->findMemberByValue(
          llvm::APSInt(asInt->extOrTrunc(et->getTagType()->getBitWidth()),
                       !et->getTagType()->isSigned()));
      if (!m || !fitsInType(*asInt, et->getTagType())) {
        diags.error(loc, "enum '" + to->str() + "' has no member with value " +
                             intToString(*asInt));
        return std::nullopt;
      }
      return Value::getEnumValue(et, *m);
    }
  }
  return coerce(v, to, loc);
}

const Type *Evaluator::peerType(const Value &a, const Value &b) {
  const Type *ta = a.getType(), *tb = b.getType();
  if (ta == tb)
    return ta;
  if (ta->is(K::EnumLiteral) && (tb->is(K::Enum) || tb->is(K::Direction)))
    return tb;
  if (tb->is(K::EnumLiteral) && (ta->is(K::Enum) || ta->is(K::Direction)))
    return ta;
  if (!ta->isNumeric() || !tb->isNumeric())
    return nullptr;
  if (ta->isComptimeNumber() && tb->isComptimeNumber())
    return types.getComptimeFloat();
  if (isImplicitlyCoercible(ta, tb))
    return tb;
  if (isImplicitlyCoercible(tb, ta))
    return ta;
  return nullptr;
}

bool Evaluator::checkArraySize(const ArrayType *type, llvm::SMLoc loc) {
  uint64_t n = type->getNumElements();
  if (n <= options.maxArrayElements)
    return true;
  diags.error(
      loc, "array '" + type->str() + "' has " +
               (n == UINT64_MAX ? std::string("too many") : std::to_string(n)) +
               " elements; comptime arrays are limited to " +
               llvm::Twine(options.maxArrayElements));
  return false;
}

std::optional<Value> Evaluator::zeroValue(const Type *t, llvm::SMLoc loc) {
  switch (t->getKind()) {
  case K::Bool:
    return Value::getBool(types, false);
  case K::Int:
  case K::ComptimeInt:
    return Value::getInt(t, llvm::APSInt::get(0));
  case K::Float:
  case K::ComptimeFloat:
    return Value::getFloat(t, 0.0);
  case K::Void:
    return Value::getVoid(types);
  case K::Array: {
    auto *at = llvm::cast<ArrayType>(t);
    std::optional<Value> z = zeroValue(at->getElementType(), loc);
    if (!z)
      return std::nullopt;
    if (!checkArraySize(at, loc))
      return std::nullopt;
    return Value::getArray(at, std::vector<Value>(at->getNumElements(), *z));
  }
  case K::Struct: {
    std::vector<FieldValue> fields;
    for (const StructType::Field &f : llvm::cast<StructType>(t)->getFields()) {
      std::optional<Value> z = zeroValue(f.type, loc);
      if (!z)
        return std::nullopt;
      fields.push_back({f.name, *z});
    }
    return Value::getStruct(t, std::move(fields));
  }
  default:
    diags.error(loc, "type '" + t->str() + "' has no zero value");
    return std::nullopt;
  }
}
