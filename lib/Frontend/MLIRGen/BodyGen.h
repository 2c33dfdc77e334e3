//===- BodyGen.h - Shared state of function body lowering -------*- C++ -*-===//
//
// The lowering of one body is split by purpose: statements in
// FunctionGen.cpp, expressions in ExprGen.cpp, casts in CastGen.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_FRONTEND_MLIRGEN_BODYGEN_H
#define TESSERA_LIB_FRONTEND_MLIRGEN_BODYGEN_H

#include "FunctionGen.h"
#include "TypeLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/StringMap.h"

namespace tessera::frontend::mlirgen {

using sema::Type;
using sema::Value;

/// A lowered expression: a comptime value not yet given a run-time type,
/// or an SSA value of a CSL type.
struct RValue {
  std::optional<Value> constant;
  mlir::Value value;
  const Type *type = nullptr;
};

struct Local {
  mlir::Value storage; // rank-0 memref of a `var`
  mlir::Value value;   // a parameter or a run-time `const`
  std::optional<Value> constant;
  const Type *type = nullptr;
  bool isConst = false; // a `const` array has storage but no stores
  std::string dsdSlot{}; // a DSD `var`: its csl.dsd_global
  std::string pointerSlot{}; // a pointer `var`: its csl.pointer_global
};

struct Loop {
  llvm::StringRef label;
  mlir::Block *continueBlock;
  mlir::Block *breakBlock;
};

class BodyGen {
public:
  /// Lowers into `body`; `decl` and `type` describe the function or task
  /// whose body it is, and are null for a global's initializer.
  /// `comptimeArgs` gives the values of a specialization's comptime params
  /// (empty, or one entry per param: nullopt for a run-time one).
  BodyGen(sema::Interpreter &interp, sema::ModuleInstance &module,
          const SymbolRequests &symbols, const ast::FnDecl *decl,
          const sema::FunctionType *type, mlir::Region &body,
          llvm::ArrayRef<std::optional<Value>> comptimeArgs = {})
      : interp(interp), module(module), symbols(symbols), decl(decl),
        type(type), body(body), ctx(*body.getContext()),
        builder(&ctx), diags(interp.getDiagnostics()),
        comptimeArgs(comptimeArgs) {}

  /// The function or task body.
  bool run();
  /// A global's initializer `init` of type `t`, ended by csl.yield.
  bool runInitializer(const ast::Expr &init, const Type *t);

private:
  // Statements.
  bool lowerBlock(const ast::BlockStmt &block);
  bool lowerStmt(const ast::Stmt &stmt);
  bool lowerVarDecl(const ast::VarDecl &var);
  /// A local array: an alloca filled from `init`, a comptime array value.
  bool lowerLocalArray(const ast::VarDecl &var, const Type *arrayType);
  /// `var x: T;` without an initializer.
  bool lowerUninitializedVar(const ast::VarDecl &var, const Type *type);
  bool lowerAssign(const ast::AssignStmt &assign);
  /// `slot = value` for a pointer variable in csl.pointer_global `slot`.
  bool storePointer(const ast::AssignStmt &assign, llvm::StringRef slot,
                    const sema::PointerType *pointerType);
  /// `slot = value` for a DSD variable in csl.dsd_global `slot`.
  bool storeDSD(const ast::AssignStmt &assign, llvm::StringRef slot,
                const Type *dsdType);
  bool lowerIf(const ast::IfStmt &stmt);
  bool lowerWhile(const ast::WhileStmt &stmt);
  bool lowerFor(const ast::ForStmt &stmt);
  bool lowerRangeFor(const ast::ForStmt &stmt, const ast::BuiltinCall &range);
  bool lowerSwitch(const ast::SwitchExpr &stmt);
  /// A switch whose subject is comptime-known: only the matching prong.
  bool lowerComptimeSwitch(const ast::SwitchExpr &stmt,
                           const sema::Value &subject);
  /// A loop of a u16 or range counter from `start` while `pred(i, stop)`;
  /// `bind` declares the captures in the body's scope.
  bool lowerCountedLoop(const ast::ForStmt &stmt, const Type *counterType,
                        mlir::Value start, mlir::Value stop, mlir::Value step,
                        mlir::arith::CmpIPredicate pred,
                        llvm::function_ref<void(mlir::Value)> bind);
  void bindCapture(const ast::ForStmt &stmt, unsigned i, mlir::Value value,
                   const Type *t);
  bool lowerReturn(const ast::ReturnStmt &stmt);
  bool lowerJump(const ast::Node &stmt, llvm::StringRef label, bool isBreak);
  /// Continues in a fresh block after a jump; it has no predecessors and is
  /// erased at the end.
  void startDeadBlock();
  /// Branches to `dest` unless the current block is dead.
  void branchUnlessDead(mlir::Location l, mlir::Block *dest);

  // Expressions.
  std::optional<RValue> lowerExpr(const ast::Expr &expr);
  /// lowerExpr where the context expects a value of `type` (null: none),
  /// which a run-time `if` of two comptime values takes.
  std::optional<RValue> lowerExprAs(const ast::Expr &expr, const Type *type);
  std::optional<RValue> lowerBinary(const ast::BinaryExpr &expr);
  /// A run-time `if` expression: the value reaches a merge block argument.
  std::optional<RValue> lowerIfExpr(const ast::IfExpr &expr);
  std::optional<RValue> lowerBinaryOp(ast::BinaryOp op, RValue lhs, RValue rhs,
                                      llvm::SMLoc loc);
  std::optional<RValue> lowerCall(const ast::CallExpr &call);
  std::optional<RValue> lowerBuiltin(const ast::BuiltinCall &call);
  /// Run-time `@as(T, x)` between numbers and bool (CastGen.cpp).
  std::optional<RValue> lowerAs(const ast::BuiltinCall &call);
  /// The memref and indices an lvalue or indexed rvalue names.
  bool lowerAddress(const ast::Expr &expr, mlir::Value &memref,
                    llvm::SmallVectorImpl<mlir::Value> &indices,
                    const Type *&elementType, bool forWrite = false);
  /// If `expr` names a top-level pointer `var` of this module, its
  /// declaration and pointer type; else null.
  const ast::VarDecl *getPointerGlobal(const ast::Expr &expr,
                                       const sema::PointerType *&type);
  /// A param or const holding the address of a global, as a pointer value;
  /// nullopt for any other name.
  std::optional<RValue> lowerConstantAddress(const ast::Identifier &ident);
  /// The current value of a pointer global (csl.load_pointer).
  mlir::Value loadPointerGlobal(const ast::VarDecl &var,
                                const sema::PointerType &type, llvm::SMLoc at);
  /// The memref of top-level `name` of module `owner`: a `var`, or a
  /// `const` array when only read.
  bool lowerGlobalAddress(sema::ModuleInstance &owner, llvm::StringRef name,
                          llvm::SMLoc at, mlir::Value &memref,
                          const Type *&elementType, bool forWrite);
  /// `&x`: the memref of `x` as a pointer.
  std::optional<RValue> lowerAddressOf(const ast::UnaryExpr &expr);
  /// `value` as an SSA value of type `to` (null: its own type).
  // Config words, the PRNG and bit casts (IntrinsicGen.cpp).
  static bool isIntrinsic(llvm::StringRef name);
  std::optional<RValue> lowerIntrinsic(const ast::BuiltinCall &call);
  /// `@map(f, args..., dest)` as csl.map.
  std::optional<RValue> lowerMap(const ast::BuiltinCall &call);
  // Handles and DSDs (DSDGen.cpp).
  static bool isHandleGetter(llvm::StringRef name);
  std::optional<RValue> lowerHandleGetter(const ast::BuiltinCall &call);
  bool isDSDBuiltin(llvm::StringRef name);
  std::optional<RValue> lowerDSDBuiltin(const ast::BuiltinCall &call);
  /// A top-level DSD `const` is rebuilt at each use; true if `ident` names
  /// a top-level DSD, with `out` its value or nullopt after an error.
  bool lowerGlobalDSD(const ast::Identifier &ident,
                      std::optional<RValue> &out);
  std::optional<RValue> lowerGetDSD(const ast::BuiltinCall &call);
  std::optional<RValue> lowerTensorAccess(const ast::TensorAccess &access,
                                          sema::DSDKind kind,
                                          bool waveletIndexOffset = false);
  mlir::AffineExpr lowerAffine(const ast::Expr &expr,
                               llvm::ArrayRef<ast::Capture *> dims);
  std::optional<RValue> lowerDSDMutator(const ast::BuiltinCall &call);
  std::optional<RValue> lowerDSDOperation(const ast::BuiltinCall &call);
  /// The value of a name bound to a comptime struct (DSD operation options
  /// kept in a `const`); nullopt for anything else.
  std::optional<Value> getStructConstant(const ast::Expr &expr);
  mlir::Value lowerIntOperand(const ast::Expr &expr, unsigned bits,
                              bool isSigned);
  mlir::Value lowerHandleOperand(const ast::Expr &expr, Type::Kind kind,
                                 llvm::StringRef what);
  std::optional<RValue> lowerDSDOperand(const ast::Expr &expr);
  /// The memref of `A` or `&A`.
  mlir::Value lowerBaseAddress(const ast::Expr &expr);
  /// Runs the verifier on a new op; a failure is a user error at `at` and
  /// erases the op.
  bool verifyCreated(mlir::Operation *op, llvm::SMLoc at,
                     llvm::StringRef builtin);

  /// A call of a function with comptime or `anytype` params: a
  /// specialization for these arguments.
  std::optional<RValue> lowerGenericCall(const ast::CallExpr &call,
                                         const Value &callee);
  /// Comptime evaluation that sees the comptime-known locals.
  std::optional<Value> evalComptime(const ast::Expr &expr);
  /// Builtins with comptime results whose operands may be run-time values
  /// (`@type_of(x)`).
  static bool isComptimeBuiltin(llvm::StringRef name);
  const Type *evalType(const ast::Expr &expr);
  std::vector<sema::Interpreter::Binding> getComptimeLocals() const;

  mlir::Value materialize(const RValue &value, const Type *to,
                          llvm::SMLoc loc);
  mlir::Value materializeConstant(const Value &value, llvm::SMLoc loc);
  bool canFold(const ast::Expr &expr);
  const Local *findLocal(llvm::StringRef name) const;
  bool unsupported(const ast::Node &node, llvm::StringRef what);

  mlir::Location loc(llvm::SMLoc l) {
    return getLocation(ctx, diags.getSourceMgr(), l);
  }

  sema::Interpreter &interp;
  sema::ModuleInstance &module;
  const SymbolRequests &symbols;
  const ast::FnDecl *decl;
  const sema::FunctionType *type;
  mlir::Region &body;
  mlir::MLIRContext &ctx;
  mlir::OpBuilder builder;
  sema::DiagnosticEngine &diags;
  std::vector<llvm::StringMap<Local>> scopes;
  std::vector<Loop> loops;
  llvm::ArrayRef<std::optional<Value>> comptimeArgs;
  const Type *expected = nullptr;
};

/// How users call a construct, for "... is not supported" messages.
std::string describeConstruct(ast::Node::Kind kind);

} // namespace tessera::frontend::mlirgen

#endif // TESSERA_LIB_FRONTEND_MLIRGEN_BODYGEN_H
