//===- Interpreter.h - CSL comptime interpreter -----------------*- C++ -*-===//
//
// Evaluates CSL at compile time over the AST: params, const initialisers,
// `comptime` and `layout` blocks and comptime function calls. Top-level
// declarations are evaluated lazily on first reference, so unreferenced
// declarations and the untaken branches of comptime `if`s are never
// analysed. Errors are reported through the DiagnosticEngine; a failed
// evaluation returns std::nullopt (or false / null) after reporting.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_FRONTEND_SEMA_INTERPRETER_H
#define TESSERA_FRONTEND_SEMA_INTERPRETER_H

#include "tessera/Frontend/AST.h"
#include "tessera/Frontend/Sema/Diagnostics.h"
#include "tessera/Frontend/Sema/ModuleInstance.h"
#include "tessera/Frontend/Sema/Types.h"
#include "tessera/Frontend/Sema/Value.h"
#include "tessera/Target/TargetModel.h"

#include <functional>
#include <memory>
#include <optional>

namespace tessera::frontend::sema {

struct InterpreterOptions {
  target::Arch arch = target::Arch::WSE2;
  /// The program runs with the memcpy infrastructure (cslc --memcpy), whose
  /// reserved colors and task IDs user code must not take.
  bool memcpy = false;
  /// The type `@fp16()` returns (cslc --fp16-format).
  FloatFormat fp16Format = FloatFormat::F16;
  /// Loop iterations plus calls allowed in one top-level evaluation
  /// (cslc --max-inlined-iterations).
  uint64_t maxSteps = 10'000'000;
  /// Nesting of comptime calls and lazily evaluated globals
  /// (cslc --comptime-func-depth-limit).
  unsigned maxCallDepth = 256;
  /// Elements of one array value built at comptime (@zeros, @constants,
  /// @range outside a loop); bounds the interpreter's memory.
  uint64_t maxArrayElements = 1u << 20;
  /// Significant bits of a comptime_int; bounds runaway `x * x` loops.
  unsigned maxComptimeIntBits = 65535;
};

class Interpreter;

/// What a builtin handler sees: the call, with its arguments evaluated on
/// demand in the caller's scope (a DSD builtin may look at a tensor access
/// without evaluating it).
class BuiltinArgs {
public:
  virtual ~BuiltinArgs() = default;
  const ast::BuiltinCall &getCall() const { return call; }
  unsigned size() const { return call.args.size(); }
  const ast::Expr &getArg(unsigned i) const { return *call.args[i]; }
  virtual std::optional<Value> evaluate(unsigned i) = 0;
  /// Evaluates argument i as a type; null after reporting an error.
  virtual const Type *evaluateType(unsigned i) = 0;
  virtual Interpreter &getInterpreter() = 0;

protected:
  explicit BuiltinArgs(const ast::BuiltinCall &call) : call(call) {}
  const ast::BuiltinCall &call;
};

using BuiltinHandler = std::function<std::optional<Value>(BuiltinArgs &)>;

class Evaluator;

class Interpreter {
public:
  /// `printOS` receives @comptime_print output.
  Interpreter(TypeContext &types, DiagnosticEngine &diags,
              llvm::raw_ostream &printOS, InterpreterOptions options = {});
  ~Interpreter();

  /// Registers the top-level declarations of `file` (reporting
  /// redefinitions) without evaluating any of them. The instance lives as
  /// long as the interpreter.
  ModuleInstance &createModule(const ast::SourceFile &file,
                               llvm::StringRef name, ParamMap params = {});

  /// The value of top-level declaration `name`, evaluating it on first use;
  /// `useLoc` is where errors about it point.
  std::optional<Value> getGlobal(ModuleInstance &module, llvm::StringRef name,
                                 llvm::SMLoc useLoc);
  /// Runs the top-level `comptime` blocks in source order. With
  /// `inProgram` (a tile program or a module it imports), first evaluates
  /// every `const X = @import_module(...)`, named or not, since an import
  /// runs its module's comptime blocks; the layout's imports stay lazy.
  bool runComptimeBlocks(ModuleInstance &module, bool inProgram = false);
  /// Runs a block (a layout body, say) at comptime in the module's scope.
  bool runBlock(ModuleInstance &module, const ast::BlockStmt &block);
  /// Evaluates an expression at comptime in the module's scope.
  std::optional<Value> evaluate(ModuleInstance &module, const ast::Expr &expr);
  /// Evaluates a type expression; null after reporting an error.
  const Type *evaluateType(ModuleInstance &module, const ast::Expr &expr);
  /// A name bound for evaluate/evaluateType, shadowing module globals (a
  /// run-time function's comptime-known locals and params).
  struct Binding {
    llvm::StringRef name;
    Value value;
  };
  /// Evaluates an expression at comptime with `locals` in scope.
  std::optional<Value> evaluate(ModuleInstance &module, const ast::Expr &expr,
                                llvm::ArrayRef<Binding> locals);
  /// Evaluates a type expression with `locals` in scope.
  const Type *evaluateType(ModuleInstance &module, const ast::Expr &expr,
                           llvm::ArrayRef<Binding> locals);
  /// The parameter and result types of function value `callee` called with
  /// `args` (comptime values, or run-time values of their types), as a call
  /// binds them: `anytype` takes the argument's type and later types may
  /// depend on earlier params. Null after reporting an error.
  const FunctionType *instantiateSignature(const Value &callee,
                                           llvm::ArrayRef<Value> args,
                                           llvm::SMLoc loc);
  /// Calls a function value at comptime if it can be, without reporting
  /// anything: nullopt when the call needs run-time state or its result is
  /// not comptime-known. Failures leave
  /// no trace (globals that failed to evaluate are evaluated again later).
  std::optional<Value> tryCall(const Value &callee, llvm::ArrayRef<Value> args,
                               llvm::SMLoc loc);
  /// Calls a function value at comptime.
  std::optional<Value> call(const Value &callee, llvm::ArrayRef<Value> args,
                            llvm::SMLoc loc);
  /// Implicit coercion, with CSL's range checks.
  std::optional<Value> coerce(const Value &value, const Type *to,
                              llvm::SMLoc loc);
  /// `@as(to, value)`.
  std::optional<Value> convert(const Value &value, const Type *to,
                               llvm::SMLoc loc);

  /// Adds or replaces a builtin (layout, DSD and task builtins live in
  /// later stages); `name` excludes the '@'.
  void registerBuiltin(llvm::StringRef name, BuiltinHandler handler);

  /// The module whose code is being evaluated, or null between
  /// evaluations.
  ModuleInstance *getCurrentModule() const;

  TypeContext &getTypes();
  DiagnosticEngine &getDiagnostics();
  const InterpreterOptions &getOptions() const;

private:
  std::unique_ptr<Evaluator> impl;
};

} // namespace tessera::frontend::sema

#endif // TESSERA_FRONTEND_SEMA_INTERPRETER_H
