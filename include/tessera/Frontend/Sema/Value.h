//===- Value.h - CSL comptime values ----------------------------*- C++ -*-===//
//
// A Value is what the comptime interpreter computes: a number, bool, type,
// string, enum literal, struct, array, hardware handle, function, module, or
// a run-time value of which only the type is known. Values have value
// semantics; the elements of structs and arrays are shared between copies
// and copied on the first write.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_FRONTEND_SEMA_VALUE_H
#define TESSERA_FRONTEND_SEMA_VALUE_H

#include "tessera/Frontend/Sema/Types.h"

#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace tessera::frontend::ast {
class FnDecl;
class Node;
} // namespace tessera::frontend::ast

namespace tessera::frontend::sema {

class ModuleInstance;
class Value;

/// A field of a struct value; positional (tuple) fields have empty names.
struct FieldValue;

class Value {
public:
  enum class Kind : uint8_t {
    Void,
    Bool,
    Int,         // comptime_int (unbounded) or a sized integer
    Float,       // comptime_float or a sized float, rounded to its format
    Type,        // a type used as a value
    String,      // comptime_string
    EnumLiteral, // `.NAME` not yet coerced to an enum
    EnumValue,   // a member of a named enum
    Struct,      // anonymous struct or tuple, or a named struct value
    Array,
    Handle,   // color, queue, task or microthread ID
    Function, // a fn or task declaration
    Module,   // an imported module instance
    RunTime,  // not comptime-known: only the type is
  };

  /// An invalid value (isValid() is false); use getVoid() for `{}`.
  Value() = default;

  static Value getVoid(TypeContext &ctx);
  static Value getBool(TypeContext &ctx, bool b);
  /// An integer of type `type` (comptime_int or an IntType); `v` is resized
  /// to the type's width, so it must fit (see fitsInType).
  static Value getInt(const Type *type, const llvm::APSInt &v);
  static Value getComptimeInt(TypeContext &ctx, const llvm::APSInt &v);
  static Value getComptimeInt(TypeContext &ctx, int64_t v);
  /// A float of type `type`; `v` is rounded to the type's format.
  static Value getFloat(const Type *type, double v);
  static Value getType(TypeContext &ctx, const Type *t);
  static Value getString(TypeContext &ctx, llvm::StringRef s);
  static Value getEnumLiteral(TypeContext &ctx, llvm::StringRef name);
  static Value getEnumValue(const EnumType *type, unsigned member);
  /// An anonymous struct (comptime_struct) or a named struct value.
  static Value getStruct(const Type *type, std::vector<FieldValue> fields);
  static Value getArray(const ArrayType *type, std::vector<Value> elements);
  static Value getHandle(const Type *type, uint64_t id);
  static Value getFunction(const Type *fnType, const ast::FnDecl *decl,
                           ModuleInstance *module);
  static Value getModule(TypeContext &ctx, ModuleInstance *module);
  /// A run-time value; `symbol` is the global or local it reads, if any.
  static Value getRunTime(const Type *type, const ast::Node *symbol = nullptr);

  bool isValid() const { return type != nullptr; }
  Kind getKind() const { return kind; }
  bool is(Kind k) const { return kind == k; }
  const Type *getType() const { return type; }
  bool isComptimeKnown() const { return kind != Kind::RunTime; }

  bool getBool() const { return boolValue; }
  /// Int values; also the tag of an EnumValue.
  const llvm::APSInt &getInt() const { return intValue; }
  double getFloat() const { return kind == Kind::Float ? floatValue : 0; }
  const Type *getTypeValue() const {
    return kind == Kind::Type ? typeValue : nullptr;
  }
  /// String contents, the name of an EnumLiteral or an EnumValue's member.
  llvm::StringRef getString() const;
  unsigned getEnumMember() const {
    return kind == Kind::EnumValue ? index : 0;
  }
  uint64_t getHandleID() const { return kind == Kind::Handle ? index : 0; }
  const ast::FnDecl *getFunctionDecl() const {
    return kind == Kind::Function ? fnDecl : nullptr;
  }
  ModuleInstance *getModule() const { return module; }
  const ast::Node *getSymbol() const {
    return kind == Kind::RunTime ? symbol : nullptr;
  }

  /// Struct fields in order.
  llvm::ArrayRef<FieldValue> getFields() const;
  std::vector<FieldValue> &getMutableFields();
  /// True for a struct whose fields are positional (`.{ 1, 2 }`).
  bool isTuple() const;
  /// The field named `name`, or null.
  const Value *findField(llvm::StringRef name) const;

  /// Array elements in row-major order.
  llvm::ArrayRef<Value> getElements() const;
  std::vector<Value> &getMutableElements();

  /// Structural equality of two comptime-known values.
  bool equals(const Value &other) const;

  /// As @comptime_print shows it: 42, 1.5, true, i16, .NORTH,
  /// .{ .a = 1 }, [2]u16{ 1, 2 }, color(3); strings without quotes.
  void print(llvm::raw_ostream &os) const;
  std::string str() const;

private:
  /// What strings, structs and arrays own, shared between copies.
  struct Payload;
  Payload &getMutablePayload();

  // The interpreter copies values all the time, so they are kept small:
  // one word for the kind's own scalar (which the getters guard by kind)
  // and one shared pointer for everything larger.
  Kind kind = Kind::Void;
  bool boolValue = false;
  const Type *type = nullptr;
  llvm::APSInt intValue;
  union {
    double floatValue = 0;       // Float
    const Type *typeValue;       // Type
    uint64_t index;              // EnumValue member, Handle ID
    const ast::FnDecl *fnDecl;   // Function
    const ast::Node *symbol;     // RunTime
  };
  ModuleInstance *module = nullptr; // Function, Module
  std::shared_ptr<Payload> payload;
};

struct FieldValue {
  std::string name;
  Value value;
};

//===----------------------------------------------------------------------===//
// Integer and float helpers shared by the interpreter and later passes
//===----------------------------------------------------------------------===//

/// `v` resized to the smallest signed width that holds it; comptime_int
/// values are kept in this form.
llvm::APSInt normalizeComptimeInt(const llvm::APSInt &v);
/// Whether the mathematical value of `v` lies in the range of `type`.
bool fitsInType(const llvm::APSInt &v, const IntType *type);
/// Two's-complement wrap of `v` into `type`, as run-time arithmetic does.
llvm::APSInt wrapToType(const llvm::APSInt &v, const IntType *type);
/// `v` rounded to the precision of `type` (a FloatType or comptime_float).
double roundToFloatType(double v, const Type *type);
/// Decimal text of an integer ("-5", "70000").
std::string intToString(const llvm::APSInt &v);
/// Shortest text that reads back as `v` ("1.5", "0.1", "inf", "nan").
std::string formatFloat(double v, bool asFloat32);

} // namespace tessera::frontend::sema

#endif // TESSERA_FRONTEND_SEMA_VALUE_H
