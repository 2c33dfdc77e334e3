//===- Types.cpp - CSL types ----------------------------------------------===//

#include "tessera/Frontend/Sema/Types.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace tessera::frontend::sema;

bool Type::isComptimeOnly() const {
  switch (kind) {
  case Kind::ComptimeInt:
  case Kind::ComptimeFloat:
  case Kind::TypeType:
  case Kind::ComptimeString:
  case Kind::ComptimeStruct:
  case Kind::EnumLiteral:
  case Kind::ImportedModule:
  case Kind::AnyType:
  case Kind::Function: // function values are comptime-only; pointers are not
    return true;
  default:
    return false;
  }
}

bool Type::isHandle() const {
  switch (kind) {
  case Kind::Color:
  case Kind::InputQueue:
  case Kind::OutputQueue:
  case Kind::UtID:
  case Kind::DataTaskID:
  case Kind::LocalTaskID:
  case Kind::ControlTaskID:
    return true;
  default:
    return false;
  }
}

static llvm::StringRef getSimpleName(Type::Kind kind) {
  using K = Type::Kind;
  switch (kind) {
  case K::Void:
    return "void";
  case K::Bool:
    return "bool";
  case K::ComptimeInt:
    return "comptime_int";
  case K::ComptimeFloat:
    return "comptime_float";
  case K::TypeType:
    return "type";
  case K::ComptimeString:
    return "comptime_string";
  case K::ComptimeStruct:
    return "comptime_struct";
  case K::EnumLiteral:
    return "enum_literal";
  case K::ImportedModule:
    return "imported_module";
  case K::Direction:
    return "direction";
  case K::Color:
    return "color";
  case K::InputQueue:
    return "input_queue";
  case K::OutputQueue:
    return "output_queue";
  case K::UtID:
    return "ut_id";
  case K::DataTaskID:
    return "data_task_id";
  case K::LocalTaskID:
    return "local_task_id";
  case K::ControlTaskID:
    return "control_task_id";
  case K::AnyOpaque:
    return "anyopaque";
  case K::AnyType:
    return "anytype";
  default:
    return "";
  }
}

static void print(const Type *t, llvm::raw_ostream &os) {
  using K = Type::Kind;
  switch (t->getKind()) {
  case K::Int: {
    auto *i = llvm::cast<IntType>(t);
    os << (i->isSigned() ? 'i' : 'u') << i->getBitWidth();
    return;
  }
  case K::Float:
    switch (llvm::cast<FloatType>(t)->getFormat()) {
    case FloatFormat::F16:
      os << "f16";
      return;
    case FloatFormat::BF16:
      os << "bf16";
      return;
    case FloatFormat::CB16:
      os << "cb16";
      return;
    case FloatFormat::F32:
      os << "f32";
      return;
    }
    return;
  case K::DSD:
    switch (llvm::cast<DSDType>(t)->getDSDKind()) {
    case DSDKind::Mem1d:
      os << "mem1d_dsd";
      return;
    case DSDKind::Mem4d:
      os << "mem4d_dsd";
      return;
    case DSDKind::FabinDSD:
      os << "fabin_dsd";
      return;
    case DSDKind::FaboutDSD:
      os << "fabout_dsd";
      return;
    case DSDKind::Fifo:
      os << "fifo";
      return;
    }
    return;
  case K::DSR:
    switch (llvm::cast<DSRType>(t)->getDSRKind()) {
    case DSRKind::Dest:
      os << "dsr_dest";
      return;
    case DSRKind::Src0:
      os << "dsr_src0";
      return;
    case DSRKind::Src1:
      os << "dsr_src1";
      return;
    }
    return;
  case K::Array: {
    auto *a = llvm::cast<ArrayType>(t);
    os << '[';
    llvm::interleave(a->getDims(), os, ", ");
    os << ']';
    print(a->getElementType(), os);
    return;
  }
  case K::Pointer: {
    auto *p = llvm::cast<PointerType>(t);
    os << (p->isMany() ? "[*]" : "*") << (p->isConst() ? "const " : "");
    print(p->getPointee(), os);
    return;
  }
  case K::Function: {
    auto *f = llvm::cast<FunctionType>(t);
    os << (f->isTask() ? "task(" : "fn(");
    llvm::interleave(
        f->getParams(), os, [&](const Type *p) { print(p, os); }, ", ");
    os << ") ";
    print(f->getResult(), os);
    return;
  }
  case K::Struct:
    os << llvm::cast<StructType>(t)->getName();
    return;
  case K::Enum:
    os << llvm::cast<EnumType>(t)->getName();
    return;
  default:
    os << getSimpleName(t->getKind());
  }
}

std::string Type::str() const {
  std::string out;
  llvm::raw_string_ostream os(out);
  print(this, os);
  return out;
}

llvm::APSInt IntType::getMinValue() const {
  return llvm::APSInt::getMinValue(bits, !isSignedInt);
}

llvm::APSInt IntType::getMaxValue() const {
  return llvm::APSInt::getMaxValue(bits, !isSignedInt);
}

unsigned FloatType::getPrecision() const {
  switch (format) {
  case FloatFormat::F16:
    return 11;
  case FloatFormat::BF16:
    return 8;
  case FloatFormat::CB16:
    return 10; // 6-bit exponent, 9 stored bits
  case FloatFormat::F32:
    return 24;
  }
  return 0;
}

uint64_t ArrayType::getNumElements() const {
  // Saturates, so an absurd shape reads as too large rather than wrapping.
  uint64_t n = 1;
  for (uint64_t d : dims) {
    if (d != 0 && n > UINT64_MAX / d)
      return UINT64_MAX;
    n *= d;
  }
  return n;
}

std::optional<unsigned> StructType::findField(llvm::StringRef n) const {
  for (unsigned i = 0; i < fields.size(); ++i)
    if (fields[i].name == n)
      return i;
  return std::nullopt;
}

std::optional<unsigned> EnumType::findMember(llvm::StringRef n) const {
  for (unsigned i = 0; i < members.size(); ++i)
    if (members[i].name == n)
      return i;
  return std::nullopt;
}

std::optional<unsigned>
EnumType::findMemberByValue(const llvm::APSInt &v) const {
  for (unsigned i = 0; i < members.size(); ++i)
    if (llvm::APSInt::isSameValue(members[i].value, v))
      return i;
  return std::nullopt;
}

TypeContext::TypeContext() = default;
TypeContext::~TypeContext() = default;

template <typename T> T *TypeContext::own(T *t) {
  owned.emplace_back(t);
  return t;
}

const Type *TypeContext::createSimple(Type::Kind kind) {
  return simple[static_cast<size_t>(kind)] = own(new Type(kind));
}

const IntType *TypeContext::getInt(unsigned bits, bool isSigned) {
  auto &slot = bits <= 64 ? smallInts[2 * bits + isSigned]
                          : ints[{bits, isSigned}];
  if (!slot)
    slot = own(new IntType(bits, isSigned));
  return slot;
}

const FloatType *TypeContext::getFloat(FloatFormat format) {
  auto &slot = floats[format];
  if (!slot)
    slot = own(new FloatType(format));
  return slot;
}

const DSDType *TypeContext::getDSD(DSDKind kind) {
  auto &slot = dsds[kind];
  if (!slot)
    slot = own(new DSDType(kind));
  return slot;
}

const DSRType *TypeContext::getDSR(DSRKind kind) {
  auto &slot = dsrs[kind];
  if (!slot)
    slot = own(new DSRType(kind));
  return slot;
}

const ArrayType *TypeContext::getArray(llvm::ArrayRef<uint64_t> dims,
                                       const Type *element) {
  auto &slot =
      arrays[{std::vector<uint64_t>(dims.begin(), dims.end()), element}];
  if (!slot)
    slot = own(new ArrayType(dims, element));
  return slot;
}

const PointerType *TypeContext::getPointer(const Type *pointee, bool many,
                                           bool isConst) {
  auto &slot = pointers[{pointee, many, isConst}];
  if (!slot)
    slot = own(new PointerType(pointee, many, isConst));
  return slot;
}

const FunctionType *
TypeContext::getFunction(llvm::ArrayRef<const Type *> params,
                         const Type *result, bool isTask) {
  auto &slot = functions[{
      std::vector<const Type *>(params.begin(), params.end()), result, isTask}];
  if (!slot)
    slot = own(new FunctionType(params, result, isTask));
  return slot;
}

const StructType *
TypeContext::createStruct(std::string name,
                          std::vector<StructType::Field> fields,
                          const ast::Node *definition) {
  return own(new StructType(std::move(name), std::move(fields), definition));
}

const EnumType *TypeContext::createEnum(std::string name,
                                        const IntType *tagType,
                                        std::vector<EnumType::Member> members) {
  return own(new EnumType(std::move(name), tagType, std::move(members)));
}

const Type *TypeContext::lookupBuiltinTypeName(llvm::StringRef name) {
  using K = Type::Kind;
  if (name.size() >= 2 && (name[0] == 'i' || name[0] == 'u')) {
    unsigned bits;
    // "i016" is an ordinary identifier, as in Zig.
    if (!name.drop_front().getAsInteger(10, bits) && name[1] != '0' &&
        bits <= kMaxIntBits)
      return getInt(bits, name[0] == 'i');
    if (name == "i0" || name == "u0")
      return getInt(0, name[0] == 'i');
  }
  std::optional<K> simpleKind = llvm::StringSwitch<std::optional<K>>(name)
                                    .Case("void", K::Void)
                                    .Case("bool", K::Bool)
                                    .Case("comptime_int", K::ComptimeInt)
                                    .Case("comptime_float", K::ComptimeFloat)
                                    .Case("type", K::TypeType)
                                    .Case("comptime_string", K::ComptimeString)
                                    .Case("comptime_struct", K::ComptimeStruct)
                                    .Case("imported_module", K::ImportedModule)
                                    .Case("direction", K::Direction)
                                    .Case("color", K::Color)
                                    .Case("input_queue", K::InputQueue)
                                    .Case("output_queue", K::OutputQueue)
                                    .Case("ut_id", K::UtID)
                                    .Case("data_task_id", K::DataTaskID)
                                    .Case("local_task_id", K::LocalTaskID)
                                    .Case("control_task_id", K::ControlTaskID)
                                    .Case("anyopaque", K::AnyOpaque)
                                    .Case("anytype", K::AnyType)
                                    .Default(std::nullopt);
  if (simpleKind)
    return get(*simpleKind);
  if (name == "f16")
    return getFloat(FloatFormat::F16);
  if (name == "bf16")
    return getFloat(FloatFormat::BF16);
  if (name == "cb16")
    return getFloat(FloatFormat::CB16);
  if (name == "f32")
    return getFloat(FloatFormat::F32);
  if (name == "mem1d_dsd")
    return getDSD(DSDKind::Mem1d);
  if (name == "mem4d_dsd")
    return getDSD(DSDKind::Mem4d);
  if (name == "fabin_dsd")
    return getDSD(DSDKind::FabinDSD);
  if (name == "fabout_dsd")
    return getDSD(DSDKind::FaboutDSD);
  if (name == "dsr_dest")
    return getDSR(DSRKind::Dest);
  if (name == "dsr_src0")
    return getDSR(DSRKind::Src0);
  if (name == "dsr_src1")
    return getDSR(DSRKind::Src1);
  return nullptr;
}
