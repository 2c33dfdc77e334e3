//===- Value.cpp - CSL comptime values ------------------------------------===//

#include "tessera/Frontend/Sema/Value.h"

#include "tessera/Frontend/AST.h"
#include "tessera/Support/Float16.h"

#include "llvm/ADT/StringExtras.h"

#include <charconv>
#include <cmath>

using namespace tessera::frontend;
using namespace tessera::frontend::sema;

llvm::APSInt sema::normalizeComptimeInt(const llvm::APSInt &v) {
  // The common case, without APInt's wide intermediate values.
  if (v.getBitWidth() <= 64 && (v.isSigned() || v.getActiveBits() < 64)) {
    int64_t x = v.isSigned() ? v.getSExtValue()
                             : static_cast<int64_t>(v.getZExtValue());
    unsigned bits = std::max(1u, llvm::APInt(64, x, true).getSignificantBits());
    return llvm::APSInt(llvm::APInt(bits, x, /*isSigned=*/true),
                        /*isUnsigned=*/false);
  }
  llvm::APSInt s = v;
  if (s.isUnsigned()) {
    s = s.extend(s.getBitWidth() + 1);
    s.setIsSigned(true);
  }
  unsigned bits = std::max(1u, s.getSignificantBits());
  return llvm::APSInt(s.trunc(bits), /*isUnsigned=*/false);
}

bool sema::fitsInType(const llvm::APSInt &v, const IntType *type) {
  if (type->getBitWidth() == 0)
    return v.isZero();
  if (v.isNegative())
    return type->isSigned() && v.getSignificantBits() <= type->getBitWidth();
  unsigned activeBits = v.getActiveBits();
  return activeBits <= type->getBitWidth() - (type->isSigned() ? 1 : 0);
}

llvm::APSInt sema::wrapToType(const llvm::APSInt &v, const IntType *type) {
  unsigned bits = std::max(1u, type->getBitWidth());
  llvm::APInt wrapped =
      v.isSigned() ? v.sextOrTrunc(bits) : v.zextOrTrunc(bits);
  return llvm::APSInt(wrapped, !type->isSigned());
}

double sema::roundToFloatType(double v, const Type *type) {
  auto *ft = llvm::dyn_cast<FloatType>(type);
  if (!ft)
    return v;
  float f = static_cast<float>(v);
  switch (ft->getFormat()) {
  case FloatFormat::F32:
    return f;
  case FloatFormat::F16:
    return halfBitsToFloat(floatToHalfBits(f));
  case FloatFormat::BF16:
    return bfloat16BitsToFloat(floatToBFloat16Bits(f));
  case FloatFormat::CB16:
    // cb16 rounding is not public; keep binary32 precision (docs/Semantics.md).
    return f;
  }
  return v;
}

std::string sema::intToString(const llvm::APSInt &v) {
  return llvm::toString(v, 10);
}

std::string sema::formatFloat(double v, bool asFloat32) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  char buf[64];
  std::to_chars_result r =
      asFloat32 ? std::to_chars(buf, buf + sizeof(buf), static_cast<float>(v))
                : std::to_chars(buf, buf + sizeof(buf), v);
  std::string s(buf, r.ptr);
  // Keep a float looking like a float: 2.0, not 2.
  if (s.find_first_of(".en") == std::string::npos)
    s += ".0";
  return s;
}

struct Value::Payload {
  std::string text;
  std::vector<FieldValue> fields;
  std::vector<Value> elements;
};

Value::Payload &Value::getMutablePayload() {
  if (!payload)
    payload = std::make_shared<Payload>();
  else if (payload.use_count() > 1)
    payload = std::make_shared<Payload>(*payload);
  return *payload;
}

llvm::StringRef Value::getString() const {
  if (kind == Kind::EnumValue)
    return llvm::cast<EnumType>(type)->getMembers()[index].name;
  if (kind != Kind::String && kind != Kind::EnumLiteral)
    return "";
  return payload ? llvm::StringRef(payload->text) : llvm::StringRef();
}

Value Value::getVoid(TypeContext &ctx) {
  Value v;
  v.kind = Kind::Void;
  v.type = ctx.getVoid();
  return v;
}

Value Value::getBool(TypeContext &ctx, bool b) {
  Value v;
  v.kind = Kind::Bool;
  v.type = ctx.getBool();
  v.boolValue = b;
  return v;
}

Value Value::getInt(const Type *type, const llvm::APSInt &i) {
  Value v;
  v.kind = Kind::Int;
  v.type = type;
  if (auto *it = llvm::dyn_cast<IntType>(type))
    v.intValue = wrapToType(i, it);
  else
    v.intValue = normalizeComptimeInt(i);
  return v;
}

Value Value::getComptimeInt(TypeContext &ctx, const llvm::APSInt &i) {
  return getInt(ctx.getComptimeInt(), i);
}

Value Value::getComptimeInt(TypeContext &ctx, int64_t i) {
  return getInt(ctx.getComptimeInt(), llvm::APSInt::get(i));
}

Value Value::getFloat(const Type *type, double f) {
  Value v;
  v.kind = Kind::Float;
  v.type = type;
  v.floatValue = roundToFloatType(f, type);
  return v;
}

Value Value::getType(TypeContext &ctx, const Type *t) {
  Value v;
  v.kind = Kind::Type;
  v.type = ctx.getTypeType();
  v.typeValue = t;
  return v;
}

Value Value::getString(TypeContext &ctx, llvm::StringRef s) {
  Value v;
  v.kind = Kind::String;
  v.type = ctx.getComptimeString();
  v.getMutablePayload().text = s.str();
  return v;
}

Value Value::getEnumLiteral(TypeContext &ctx, llvm::StringRef name) {
  Value v;
  v.kind = Kind::EnumLiteral;
  v.type = ctx.get(Type::Kind::EnumLiteral);
  v.getMutablePayload().text = name.str();
  return v;
}

Value Value::getEnumValue(const EnumType *type, unsigned member) {
  Value v;
  v.kind = Kind::EnumValue;
  v.type = type;
  v.index = member;
  v.intValue = type->getMembers()[member].value;
  return v;
}

Value Value::getStruct(const Type *type, std::vector<FieldValue> fs) {
  Value v;
  v.kind = Kind::Struct;
  v.type = type;
  v.getMutablePayload().fields = std::move(fs);
  return v;
}

Value Value::getArray(const ArrayType *type, std::vector<Value> es) {
  Value v;
  v.kind = Kind::Array;
  v.type = type;
  v.getMutablePayload().elements = std::move(es);
  return v;
}

Value Value::getHandle(const Type *type, uint64_t id) {
  Value v;
  v.kind = Kind::Handle;
  v.type = type;
  v.index = id;
  return v;
}

Value Value::getFunction(const Type *fnType, const ast::FnDecl *decl,
                         ModuleInstance *module) {
  Value v;
  v.kind = Kind::Function;
  v.type = fnType;
  v.fnDecl = decl;
  v.module = module;
  return v;
}

Value Value::getModule(TypeContext &ctx, ModuleInstance *module) {
  Value v;
  v.kind = Kind::Module;
  v.type = ctx.get(Type::Kind::ImportedModule);
  v.module = module;
  return v;
}

Value Value::getRunTime(const Type *type, const ast::Node *symbol) {
  Value v;
  v.kind = Kind::RunTime;
  v.type = type;
  v.symbol = symbol;
  return v;
}

llvm::ArrayRef<FieldValue> Value::getFields() const {
  if (kind != Kind::Struct || !payload)
    return {};
  return payload->fields;
}

std::vector<FieldValue> &Value::getMutableFields() {
  return getMutablePayload().fields;
}

bool Value::isTuple() const {
  return kind == Kind::Struct && !getFields().empty() &&
         getFields().front().name.empty();
}

const Value *Value::findField(llvm::StringRef name) const {
  for (const FieldValue &f : getFields())
    if (!f.name.empty() && f.name == name)
      return &f.value;
  return nullptr;
}

llvm::ArrayRef<Value> Value::getElements() const {
  if (kind != Kind::Array || !payload)
    return {};
  return payload->elements;
}

std::vector<Value> &Value::getMutableElements() {
  return getMutablePayload().elements;
}

bool Value::equals(const Value &o) const {
  if (kind != o.kind || type != o.type)
    return false;
  switch (kind) {
  case Kind::Void:
    return true;
  case Kind::Bool:
    return boolValue == o.boolValue;
  case Kind::Int:
  case Kind::EnumValue:
    return llvm::APSInt::isSameValue(intValue, o.intValue);
  case Kind::Float:
    return floatValue == o.floatValue;
  case Kind::Type:
    return typeValue == o.typeValue;
  case Kind::String:
  case Kind::EnumLiteral:
    return getString() == o.getString();
  case Kind::Handle:
    return index == o.index;
  case Kind::Function:
    return fnDecl == o.fnDecl && module == o.module;
  case Kind::Module:
    return module == o.module;
  case Kind::RunTime:
    return false;
  case Kind::Struct: {
    auto a = getFields(), b = o.getFields();
    if (a.size() != b.size())
      return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i].name != b[i].name || !a[i].value.equals(b[i].value))
        return false;
    return true;
  }
  case Kind::Array: {
    auto a = getElements(), b = o.getElements();
    if (a.size() != b.size())
      return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!a[i].equals(b[i]))
        return false;
    return true;
  }
  }
  return false;
}

void Value::print(llvm::raw_ostream &os) const {
  switch (kind) {
  case Kind::Void:
    os << "{}";
    return;
  case Kind::Bool:
    os << (boolValue ? "true" : "false");
    return;
  case Kind::Int:
    os << intToString(intValue);
    return;
  case Kind::Float: {
    auto *ft = llvm::dyn_cast<FloatType>(type);
    os << formatFloat(floatValue, ft != nullptr);
    return;
  }
  case Kind::Type:
    os << typeValue->str();
    return;
  case Kind::String:
    os << getString();
    return;
  case Kind::EnumLiteral:
    os << '.' << getString();
    return;
  case Kind::EnumValue:
    os << type->str() << '.' << getString();
    return;
  case Kind::Struct: {
    if (getFields().empty()) {
      os << ".{}";
      return;
    }
    os << ".{ ";
    llvm::interleave(
        getFields(), os,
        [&](const FieldValue &f) {
          if (!f.name.empty())
            os << '.' << f.name << " = ";
          if (f.value.is(Kind::String))
            os << '"' << f.value.getString() << '"';
          else
            f.value.print(os);
        },
        ", ");
    os << " }";
    return;
  }
  case Kind::Array:
    if (getElements().empty()) {
      os << type->str() << "{}";
      return;
    }
    os << type->str() << "{ ";
    llvm::interleave(
        getElements(), os, [&](const Value &e) { e.print(os); }, ", ");
    os << " }";
    return;
  case Kind::Handle:
    if (type->is(Type::Kind::Direction)) {
      static const char *const names[] = {"RAMP", "EAST", "WEST", "SOUTH",
                                          "NORTH"};
      os << (index < 5 ? names[index] : "direction");
      return;
    }
    os << type->str() << '(' << index << ')';
    return;
  case Kind::Function:
    os << (llvm::cast<FunctionType>(type)->isTask() ? "task '" : "fn '")
       << (fnDecl ? fnDecl->name.text : "") << "'";
    return;
  case Kind::Module:
    os << "imported_module";
    return;
  case Kind::RunTime:
    os << "run-time value of type '" << type->str() << "'";
    return;
  }
}

std::string Value::str() const {
  std::string out;
  llvm::raw_string_ostream os(out);
  print(os);
  return out;
}
