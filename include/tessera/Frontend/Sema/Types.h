//===- Types.h - CSL types --------------------------------------*- C++ -*-===//
//
// The types of CSL as the semantic analysis sees them. A TypeContext owns
// every type and uniques the structural ones, so two types are the same type
// exactly when their pointers are equal. Named structs and enums are nominal:
// each definition (and each module instance of it) gets its own type.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_FRONTEND_SEMA_TYPES_H
#define TESSERA_FRONTEND_SEMA_TYPES_H

#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Casting.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace tessera::frontend::ast {
class Node;
} // namespace tessera::frontend::ast

namespace tessera::frontend::sema {

class TypeContext;

class Type {
public:
  enum class Kind : uint8_t {
    Void,
    Bool,
    Int,            // iN / uN
    Float,          // f16, bf16, cb16, f32
    ComptimeInt,    // unbounded
    ComptimeFloat,  // an IEEE double at compile time
    TypeType,       // `type`
    ComptimeString, // string literals
    ComptimeStruct, // every anonymous struct and tuple value
    EnumLiteral,    // `.NAME` before it meets an enum type
    ImportedModule,
    Direction,
    Color,
    InputQueue,
    OutputQueue,
    UtID,
    DataTaskID,
    LocalTaskID,
    ControlTaskID,
    DSD,
    DSR,
    AnyOpaque,
    AnyType, // `anytype` parameters
    Array,
    Pointer,
    Function, // fn and task types
    Struct,   // named (nominal) struct
    Enum,     // named (nominal) enum
  };

  Kind getKind() const { return kind; }
  bool is(Kind k) const { return kind == k; }

  bool isInteger() const {
    return kind == Kind::Int || kind == Kind::ComptimeInt;
  }
  bool isFloat() const {
    return kind == Kind::Float || kind == Kind::ComptimeFloat;
  }
  bool isNumeric() const { return isInteger() || isFloat(); }
  bool isComptimeNumber() const {
    return kind == Kind::ComptimeInt || kind == Kind::ComptimeFloat;
  }
  /// Values of these types exist only at compile time.
  bool isComptimeOnly() const;
  /// Hardware handles: colors, queues, task and microthread IDs.
  bool isHandle() const;

  /// The type as CSL spells it: "i16", "[4]f32", "[*]const u32", "fn(i16)
  /// void".
  std::string str() const;

  Type(const Type &) = delete;
  Type &operator=(const Type &) = delete;
  virtual ~Type() = default;

protected:
  explicit Type(Kind kind) : kind(kind) {}
  friend class TypeContext;

private:
  Kind kind;
};

class IntType : public Type {
public:
  unsigned getBitWidth() const { return bits; }
  bool isSigned() const { return isSignedInt; }
  llvm::APSInt getMinValue() const;
  llvm::APSInt getMaxValue() const;
  static bool classof(const Type *t) { return t->getKind() == Kind::Int; }

private:
  friend class TypeContext;
  IntType(unsigned bits, bool isSigned)
      : Type(Kind::Int), bits(bits), isSignedInt(isSigned) {}
  unsigned bits;
  bool isSignedInt;
};

enum class FloatFormat : uint8_t { F16, BF16, CB16, F32 };

class FloatType : public Type {
public:
  FloatFormat getFormat() const { return format; }
  unsigned getBitWidth() const { return format == FloatFormat::F32 ? 32 : 16; }
  /// Significand bits including the implicit one: every integer of at most
  /// this many bits converts exactly.
  unsigned getPrecision() const;
  static bool classof(const Type *t) { return t->getKind() == Kind::Float; }

private:
  friend class TypeContext;
  explicit FloatType(FloatFormat format) : Type(Kind::Float), format(format) {}
  FloatFormat format;
};

/// The DSD kinds of @get_dsd, and the FIFOs of @allocate_fifo; each is its
/// own type.
enum class DSDKind : uint8_t { Mem1d, Mem4d, FabinDSD, FaboutDSD, Fifo };
/// DSR files.
enum class DSRKind : uint8_t { Dest, Src0, Src1 };

class DSDType : public Type {
public:
  DSDKind getDSDKind() const { return dsdKind; }
  static bool classof(const Type *t) { return t->getKind() == Kind::DSD; }

private:
  friend class TypeContext;
  explicit DSDType(DSDKind k) : Type(Kind::DSD), dsdKind(k) {}
  DSDKind dsdKind;
};

class DSRType : public Type {
public:
  DSRKind getDSRKind() const { return dsrKind; }
  static bool classof(const Type *t) { return t->getKind() == Kind::DSR; }

private:
  friend class TypeContext;
  explicit DSRType(DSRKind k) : Type(Kind::DSR), dsrKind(k) {}
  DSRKind dsrKind;
};

/// `[N]T` and `[N, M, ...]T`.
class ArrayType : public Type {
public:
  llvm::ArrayRef<uint64_t> getDims() const { return dims; }
  const Type *getElementType() const { return element; }
  /// Product of the dimensions.
  uint64_t getNumElements() const;
  static bool classof(const Type *t) { return t->getKind() == Kind::Array; }

private:
  friend class TypeContext;
  ArrayType(llvm::ArrayRef<uint64_t> dims, const Type *element)
      : Type(Kind::Array), dims(dims.begin(), dims.end()), element(element) {}
  llvm::SmallVector<uint64_t, 2> dims;
  const Type *element;
};

/// `*T`, `*const T`, `[*]T`, `[*]const T`.
class PointerType : public Type {
public:
  bool isMany() const { return many; }
  bool isConst() const { return constPointee; }
  const Type *getPointee() const { return pointee; }
  static bool classof(const Type *t) { return t->getKind() == Kind::Pointer; }

private:
  friend class TypeContext;
  PointerType(const Type *pointee, bool many, bool isConst)
      : Type(Kind::Pointer), pointee(pointee), many(many),
        constPointee(isConst) {}
  const Type *pointee;
  bool many;
  bool constPointee;
};

/// `fn(i16, f32) void` and `task() void`.
class FunctionType : public Type {
public:
  llvm::ArrayRef<const Type *> getParams() const { return params; }
  const Type *getResult() const { return result; }
  bool isTask() const { return task; }
  static bool classof(const Type *t) { return t->getKind() == Kind::Function; }

private:
  friend class TypeContext;
  FunctionType(llvm::ArrayRef<const Type *> params, const Type *result,
               bool task)
      : Type(Kind::Function), params(params.begin(), params.end()),
        result(result), task(task) {}
  llvm::SmallVector<const Type *, 4> params;
  const Type *result;
  bool task;
};

/// A named struct: identity by definition site.
class StructType : public Type {
public:
  struct Field {
    std::string name;
    const Type *type;
  };
  llvm::StringRef getName() const { return name; }
  llvm::ArrayRef<Field> getFields() const { return fields; }
  const ast::Node *getDefinition() const { return definition; }
  /// Index of field `name`, if any.
  std::optional<unsigned> findField(llvm::StringRef name) const;
  static bool classof(const Type *t) { return t->getKind() == Kind::Struct; }

private:
  friend class TypeContext;
  StructType(std::string name, std::vector<Field> fields,
             const ast::Node *definition)
      : Type(Kind::Struct), name(std::move(name)), fields(std::move(fields)),
        definition(definition) {}
  std::string name;
  std::vector<Field> fields;
  const ast::Node *definition;
};

/// `enum(u16) { a, b = 2 }`: identity by definition site.
class EnumType : public Type {
public:
  struct Member {
    std::string name;
    llvm::APSInt value;
  };
  llvm::StringRef getName() const { return name; }
  const IntType *getTagType() const { return tagType; }
  llvm::ArrayRef<Member> getMembers() const { return members; }
  std::optional<unsigned> findMember(llvm::StringRef name) const;
  std::optional<unsigned> findMemberByValue(const llvm::APSInt &value) const;
  static bool classof(const Type *t) { return t->getKind() == Kind::Enum; }

private:
  friend class TypeContext;
  EnumType(std::string name, const IntType *tagType,
           std::vector<Member> members)
      : Type(Kind::Enum), name(std::move(name)), tagType(tagType),
        members(std::move(members)) {}
  std::string name;
  const IntType *tagType;
  std::vector<Member> members;
};

/// Owns and uniques every type.
class TypeContext {
public:
  TypeContext();
  ~TypeContext();
  TypeContext(const TypeContext &) = delete;
  TypeContext &operator=(const TypeContext &) = delete;

  /// Types without parameters (Void, Bool, ComptimeInt, Color, ...).
  const Type *get(Type::Kind kind) {
    if (const Type *t = simple[static_cast<size_t>(kind)])
      return t;
    return createSimple(kind);
  }
  const Type *getVoid() { return get(Type::Kind::Void); }
  const Type *getBool() { return get(Type::Kind::Bool); }
  const Type *getComptimeInt() { return get(Type::Kind::ComptimeInt); }
  const Type *getComptimeFloat() { return get(Type::Kind::ComptimeFloat); }
  const Type *getTypeType() { return get(Type::Kind::TypeType); }
  const Type *getComptimeString() { return get(Type::Kind::ComptimeString); }
  const Type *getComptimeStruct() { return get(Type::Kind::ComptimeStruct); }

  /// The largest width CSL allows for iN/uN.
  static constexpr unsigned kMaxIntBits = 16777215;
  const IntType *getInt(unsigned bits, bool isSigned);
  const FloatType *getFloat(FloatFormat format);
  const DSDType *getDSD(DSDKind kind);
  const DSRType *getDSR(DSRKind kind);
  const ArrayType *getArray(llvm::ArrayRef<uint64_t> dims, const Type *element);
  const PointerType *getPointer(const Type *pointee, bool many, bool isConst);
  const FunctionType *getFunction(llvm::ArrayRef<const Type *> params,
                                  const Type *result, bool isTask);
  /// A fresh nominal type each call.
  const StructType *createStruct(std::string name,
                                 std::vector<StructType::Field> fields,
                                 const ast::Node *definition);
  const EnumType *createEnum(std::string name, const IntType *tagType,
                             std::vector<EnumType::Member> members);

  /// The type a predeclared identifier names ("i16", "f32", "color",
  /// "comptime_struct", "mem1d_dsd", ...), or null.
  const Type *lookupBuiltinTypeName(llvm::StringRef name);

private:
  const Type *createSimple(Type::Kind kind);
  template <typename T> T *own(T *t);
  std::vector<std::unique_ptr<Type>> owned;
  // The interpreter asks for these on every value it makes: an array, not
  // a map.
  std::array<const Type *, static_cast<size_t>(Type::Kind::Enum) + 1> simple{};
  std::array<const IntType *, 2 * 65> smallInts{};
  std::map<std::pair<unsigned, bool>, const IntType *> ints;
  std::map<FloatFormat, const FloatType *> floats;
  std::map<DSDKind, const DSDType *> dsds;
  std::map<DSRKind, const DSRType *> dsrs;
  std::map<std::pair<std::vector<uint64_t>, const Type *>, const ArrayType *>
      arrays;
  std::map<std::tuple<const Type *, bool, bool>, const PointerType *> pointers;
  std::map<std::tuple<std::vector<const Type *>, const Type *, bool>,
           const FunctionType *>
      functions;
};

} // namespace tessera::frontend::sema

#endif // TESSERA_FRONTEND_SEMA_TYPES_H
