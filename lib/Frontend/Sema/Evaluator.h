//===- Evaluator.h - The comptime interpreter's machinery -------*- C++ -*-===//
//
// Internal to TesseraSema. Evaluation returns std::nullopt (or false) for an
// abrupt completion; `flow` says whether that was an error (already
// reported) or a break, continue or return on its way to its target.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_FRONTEND_SEMA_EVALUATOR_H
#define TESSERA_LIB_FRONTEND_SEMA_EVALUATOR_H

#include "tessera/Frontend/Sema/Interpreter.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

#include <deque>
#include <string>
#include <vector>

namespace tessera::frontend::sema {

/// Names declared in one block, function or loop body.
struct Scope {
  struct Binding {
    Value value;
    const ast::Node *decl = nullptr;
    bool isMutable = false;
  };
  Scope *parent = nullptr;

  /// The binding of `name` in this scope (not its parents), or null. The
  /// pointer is valid until the next bind().
  Binding *find(llvm::StringRef name);
  /// Binds `name`, replacing a binding of the same name.
  void bind(llvm::StringRef name, Binding binding);

private:
  // Most scopes hold a few names (a loop capture, a function's params), so
  // a linear search beats hashing; a large block gets an index.
  static constexpr unsigned kIndexFrom = 16;
  llvm::SmallVector<std::pair<llvm::StringRef, Binding>, 2> names;
  llvm::StringMap<unsigned> index;
};

/// Where an expression is evaluated.
struct Env {
  ModuleInstance *module = nullptr;
  Scope *scope = nullptr; // innermost; null at module scope
  /// Name given to a struct or enum type defined by the declaration being
  /// evaluated.
  llvm::StringRef declName;
};

enum class Flow : uint8_t { Normal, Error, Break, Continue, Return };

class Evaluator {
public:
  Evaluator(Interpreter &facade, TypeContext &types, DiagnosticEngine &diags,
            llvm::raw_ostream &printOS, InterpreterOptions options);

  // Modules and globals (Evaluator.cpp).
  ModuleInstance &createModule(const ast::SourceFile &file,
                               llvm::StringRef name, ParamMap params);
  std::optional<Value> getGlobal(ModuleInstance &m, llvm::StringRef name,
                                 llvm::SMLoc useLoc);
  bool runComptimeBlocks(ModuleInstance &m, bool inProgram);
  bool runBlock(ModuleInstance &m, const ast::BlockStmt &block);
  std::optional<Value> evaluateRoot(ModuleInstance &m, const ast::Expr &e);
  const Type *evaluateTypeRoot(ModuleInstance &m, const ast::Expr &e);
  std::optional<Value> evaluateWithLocals(ModuleInstance &m, const ast::Expr &e,
                                          llvm::ArrayRef<Interpreter::Binding>
                                              locals);
  const Type *evaluateTypeWithLocals(ModuleInstance &m, const ast::Expr &e,
                                     llvm::ArrayRef<Interpreter::Binding>
                                         locals);
  /// Binds `fn`'s params to `args` in `scope` as a call does: `anytype`
  /// takes the argument's type, others coerce it (run-time arguments only
  /// with `coerceRunTime`); `paramTypes` receives the types. False after an
  /// error.
  bool bindParams(Env &env, Scope &scope, const ast::FnDecl &fn,
                  llvm::ArrayRef<Value> args, llvm::SMLoc loc,
                  bool coerceRunTime,
                  llvm::SmallVectorImpl<const Type *> *paramTypes);
  /// A scope holding `locals` (bound read-only, no declarations).
  static Scope bindLocals(llvm::ArrayRef<Interpreter::Binding> locals);
  const FunctionType *instantiateSignature(const Value &callee,
                                           llvm::ArrayRef<Value> args,
                                           llvm::SMLoc loc);
  /// Nonzero during Interpreter::tryCall: failed globals stay unevaluated.
  unsigned trials = 0;
  ModuleInstance *getCurrentModule() const {
    return moduleStack.empty() ? nullptr : moduleStack.back();
  }
  std::optional<Value> callFunction(const Value &callee,
                                    llvm::ArrayRef<Value> args, llvm::SMLoc loc,
                                    const ast::Node *calleeNode = nullptr);

  // Expressions (EvalExpr.cpp).
  std::optional<Value> eval(Env &env, const ast::Expr &e);
  /// Evaluates `e` and requires a comptime-known value.
  std::optional<Value> evalComptime(Env &env, const ast::Expr &e,
                                    const llvm::Twine &what);
  const Type *evalType(Env &env, const ast::Expr &e);
  std::optional<Value> evalCoerced(Env &env, const ast::Expr &e,
                                   const Type *to);
  std::optional<bool> evalCondition(Env &env, const ast::Expr &e);
  std::optional<uint64_t> evalIndex(Env &env, const ast::Expr &e,
                                    llvm::StringRef what);

  // Statements (EvalStmt.cpp).
  bool exec(Env &env, const ast::Stmt &s);
  /// Runs a block in a new scope; a `break` to its label ends it normally
  /// and its value goes to `breakValue`.
  bool execBlock(Env &env, const ast::BlockStmt &b,
                 Value *breakValue = nullptr);
  /// The storage an assignment target names.
  Value *lvalue(Env &env, const ast::Expr &e);
  std::optional<Value> lookup(Env &env, const ast::Name &name);

  // Operators (Operators.cpp).
  std::optional<Value> binary(ast::BinaryOp op, const Value &lhs,
                              const Value &rhs, llvm::SMLoc loc);
  std::optional<Value> unary(ast::UnaryOp op, const Value &operand,
                             llvm::SMLoc loc);

  /// Reports a comptime_int that would need more than the allowed bits.
  bool checkComptimeIntBits(uint64_t bits, llvm::SMLoc loc);

  // Coercions (Coercion.cpp).
  std::optional<Value> coerce(const Value &v, const Type *to, llvm::SMLoc loc);
  std::optional<Value> convert(const Value &v, const Type *to, llvm::SMLoc loc);
  bool isImplicitlyCoercible(const Type *from, const Type *to) const;
  /// The type both operands of a binary operator take, or null.
  const Type *peerType(const Value &a, const Value &b);
  /// Reports an array too large to build at comptime.
  bool checkArraySize(const ArrayType *type, llvm::SMLoc loc);
  /// The zero value of `t` (`var x: T;`, @zeros).
  std::optional<Value> zeroValue(const Type *t, llvm::SMLoc loc);

  // Builtins (Builtins.cpp).
  std::optional<Value> evalBuiltin(Env &env, const ast::BuiltinCall &call);
  void registerBuiltin(llvm::StringRef name, BuiltinHandler handler) {
    userBuiltins[name] = std::move(handler);
  }
  /// Bounds of `@range(...)` for a for loop, without building an array.
  struct RangeSpec {
    const Type *type;
    llvm::APSInt start, stop, step;
    uint64_t count;
  };
  std::optional<RangeSpec> evalRange(Env &env, const ast::BuiltinCall &call);
  Value rangeElement(const RangeSpec &r, uint64_t i);

  /// Counts a loop iteration or call against the step limit.
  bool step(llvm::SMLoc loc);

  Interpreter &facade;
  TypeContext &types;
  DiagnosticEngine &diags;
  llvm::raw_ostream &printOS;
  InterpreterOptions options;

  // Abrupt completion in flight.
  Flow flow = Flow::Normal;
  llvm::StringRef flowLabel;
  Value flowValue;

  /// Per-function state: loops and labels for break/continue checks.
  struct Frame {
    const ast::FnDecl *fn = nullptr;
    const Type *returnType = nullptr;
    unsigned loopDepth = 0;
    /// Labels in scope, innermost last, with whether each names a loop.
    std::vector<std::pair<llvm::StringRef, bool>> labels;
  };
  std::vector<Frame> frames;
  /// Globals being evaluated, for the cycle chain.
  std::vector<std::pair<ModuleInstance *, GlobalSlot *>> globalStack;
  /// The modules whose code is being evaluated, innermost last (for
  /// diagnostics that name the import of the right instance).
  std::vector<ModuleInstance *> moduleStack;
  struct ModuleScope {
    ModuleScope(Evaluator &ev, ModuleInstance &m) : ev(ev) {
      ev.moduleStack.push_back(&m);
    }
    ~ModuleScope() { ev.moduleStack.pop_back(); }
    Evaluator &ev;
  };
  unsigned depth = 0; // calls plus lazily evaluated globals
  uint64_t steps = 0;
  bool stepLimitReported = false;

  std::deque<ModuleInstance> modules;
  llvm::StringMap<BuiltinHandler> userBuiltins;

  /// Resets the step budget when a top-level evaluation starts.
  void beginRoot();

private:
  bool evaluateGlobal(ModuleInstance &m, GlobalSlot &slot, llvm::SMLoc useLoc);
  std::optional<Value> evalVarDeclGlobal(ModuleInstance &m, GlobalSlot &slot,
                                         llvm::SMLoc useLoc);
  std::optional<Value> functionValue(ModuleInstance &m, const ast::FnDecl &fn);
};

/// A top-level evaluation: resets the step budget (unless nested inside
/// another evaluation) and runs in a frame of its own.
class RootGuard {
public:
  explicit RootGuard(Evaluator &ev) : ev(ev) {
    ev.beginRoot();
    ev.frames.push_back(Evaluator::Frame{});
  }
  ~RootGuard() {
    ev.frames.pop_back();
    ev.flow = Flow::Normal;
  }
  RootGuard(const RootGuard &) = delete;
  RootGuard &operator=(const RootGuard &) = delete;

private:
  Evaluator &ev;
};

/// Name of a global for diagnostics.
llvm::StringRef getDeclName(const ast::Node *decl);

} // namespace tessera::frontend::sema

#endif // TESSERA_LIB_FRONTEND_SEMA_EVALUATOR_H
