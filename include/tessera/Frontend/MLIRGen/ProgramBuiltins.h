//===- ProgramBuiltins.h - Comptime builtins of a tile program --*- C++ -*-===//
//
// The builtins a tile file's `comptime` blocks call to set up its PE:
// task bindings, start-up activations and blocks, exported symbols and
// queue bindings. They run in the comptime interpreter and only record what
// they were asked; ProgramGen turns the record into `csl` operations.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_FRONTEND_MLIRGEN_PROGRAMBUILTINS_H
#define TESSERA_FRONTEND_MLIRGEN_PROGRAMBUILTINS_H

#include "tessera/Frontend/Sema/Interpreter.h"

#include "llvm/Support/SMLoc.h"

#include <string>
#include <vector>

namespace tessera::frontend::mlirgen {

enum class TaskKind : uint8_t { Data, Local, Control };

struct TaskBinding {
  const ast::FnDecl *task = nullptr;
  sema::ModuleInstance *module = nullptr; // the task's module

  TaskKind kind = TaskKind::Local;
  uint64_t id = 0;
  llvm::SMLoc loc;
};

/// `@activate`, `@block` or `@unblock` at comptime: the state at load time.
struct StartupAction {
  enum class Kind : uint8_t { Activate, Block, Unblock };
  Kind kind = Kind::Activate;
  sema::Value handle;
};

/// `@export_symbol(symbol, "name")`: a top-level `var`/`const` or a `fn`.
struct SymbolExport {
  const ast::Node *decl = nullptr;        // VarDecl or FnDecl
  sema::ModuleInstance *module = nullptr; // the declaration's module
  std::string name;
  llvm::SMLoc loc;
};

struct QueueBinding {
  bool isInput = true;
  uint64_t queue = 0;
  uint64_t color = 0;
  /// `.ctrl_table_id`: offsets the control task entries of the queue.
  std::optional<uint64_t> ctrlTableID;
  llvm::SMLoc loc;
};

/// `@set_control_task_table(.{ .instructions = n, .stride = s })` (WSE-3).
struct ControlTaskTable {
  uint64_t instructions = 0;
  uint64_t stride = 0;
  llvm::SMLoc loc;
};

/// `@set_teardown_handler(f, color)`.
struct TeardownHandler {
  const ast::FnDecl *handler = nullptr;
  sema::ModuleInstance *module = nullptr;
  uint64_t color = 0;
  llvm::SMLoc loc;
};

/// What one program instance's comptime blocks recorded.
struct ProgramRecord {
  std::vector<TaskBinding> tasks;
  std::vector<StartupAction> startup;
  std::vector<SymbolExport> exports;
  std::vector<QueueBinding> queues;
  std::vector<TeardownHandler> teardownHandlers;
  std::optional<ControlTaskTable> controlTaskTable;
};

class ProgramBuiltins {
public:
  explicit ProgramBuiltins(sema::Interpreter &interp) : interp(interp) {}

  /// Registers the builtins with the interpreter.
  void install();
  /// Where the builtins record while `module`'s comptime blocks run; null
  /// outside a tile program's comptime blocks, where they are errors.
  void setRecord(ProgramRecord *r, sema::ModuleInstance *module = nullptr) {
    record = r;
    current = module;
  }

private:
  std::optional<sema::Value> bindTask(sema::BuiltinArgs &args, TaskKind kind);
  std::optional<sema::Value> startup(sema::BuiltinArgs &args,
                                     StartupAction::Kind kind);
  std::optional<sema::Value> exportSymbol(sema::BuiltinArgs &args);
  std::optional<sema::Value> initializeQueue(sema::BuiltinArgs &args);
  std::optional<sema::Value> setTeardownHandler(sema::BuiltinArgs &args);
  std::optional<sema::Value> setControlTaskTable(sema::BuiltinArgs &args);
  /// Reports a builtin used outside a tile program or with the wrong number
  /// of arguments; true when the call may proceed.
  bool check(sema::BuiltinArgs &args, unsigned minArgs, unsigned maxArgs);
  bool check(sema::BuiltinArgs &args, unsigned numArgs) {
    return check(args, numArgs, numArgs);
  }

  sema::Interpreter &interp;
  ProgramRecord *record = nullptr;
  sema::ModuleInstance *current = nullptr;
};

} // namespace tessera::frontend::mlirgen

#endif // TESSERA_FRONTEND_MLIRGEN_PROGRAMBUILTINS_H
