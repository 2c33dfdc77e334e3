//===- ProgramBuiltins.cpp - Comptime builtins of a tile program ----------===//

#include "tessera/Frontend/MLIRGen/ProgramBuiltins.h"

#include "tessera/Target/TargetModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

using namespace tessera::frontend;
using namespace tessera::frontend::mlirgen;
using sema::Type;
using sema::Value;

namespace {

llvm::StringRef getTaskKindName(TaskKind kind) {
  switch (kind) {
  case TaskKind::Data:
    return "data";
  case TaskKind::Local:
    return "local";
  case TaskKind::Control:
    return "control";
  }
  return "";
}

Type::Kind getTaskIDKind(TaskKind kind) {
  switch (kind) {
  case TaskKind::Data:
    return Type::Kind::DataTaskID;
  case TaskKind::Local:
    return Type::Kind::LocalTaskID;
  case TaskKind::Control:
    return Type::Kind::ControlTaskID;
  }
  return Type::Kind::LocalTaskID;
}

} // namespace

void ProgramBuiltins::install() {
  interp.registerBuiltin("bind_data_task", [this](sema::BuiltinArgs &args) {
    return bindTask(args, TaskKind::Data);
  });
  interp.registerBuiltin("bind_local_task", [this](sema::BuiltinArgs &args) {
    return bindTask(args, TaskKind::Local);
  });
  interp.registerBuiltin("bind_control_task", [this](sema::BuiltinArgs &args) {
    return bindTask(args, TaskKind::Control);
  });
  interp.registerBuiltin("activate", [this](sema::BuiltinArgs &args) {
    return startup(args, StartupAction::Kind::Activate);
  });
  interp.registerBuiltin("block", [this](sema::BuiltinArgs &args) {
    return startup(args, StartupAction::Kind::Block);
  });
  interp.registerBuiltin("unblock", [this](sema::BuiltinArgs &args) {
    return startup(args, StartupAction::Kind::Unblock);
  });
  interp.registerBuiltin("export_symbol", [this](sema::BuiltinArgs &args) {
    return exportSymbol(args);
  });
  interp.registerBuiltin("initialize_queue", [this](sema::BuiltinArgs &args) {
    return initializeQueue(args);
  });
  interp.registerBuiltin(
      "set_control_task_table",
      [this](sema::BuiltinArgs &args) { return setControlTaskTable(args); });
  interp.registerBuiltin(
      "set_teardown_handler",
      [this](sema::BuiltinArgs &args) { return setTeardownHandler(args); });
}

bool ProgramBuiltins::check(sema::BuiltinArgs &args, unsigned minArgs,
                            unsigned maxArgs) {
  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  const ast::BuiltinCall &call = args.getCall();
  llvm::StringRef name = call.name.text;
  if (!record) {
    diags.error(call.getLoc(), "'@" + name +
                                   "' is only allowed in the comptime code of "
                                   "a program given to '@set_tile_code'");
    return false;
  }
  if (args.size() < minArgs || args.size() > maxArgs) {
    std::string expected = std::to_string(minArgs);
    if (maxArgs != minArgs)
      expected += " or " + std::to_string(maxArgs);
    diags.error(call.getLoc(), "'@" + name + "' expects " + expected +
                                   " arguments, found " +
                                   llvm::Twine(args.size()));
    return false;
  }
  return true;
}

std::optional<Value> ProgramBuiltins::bindTask(sema::BuiltinArgs &args,
                                               TaskKind kind) {
  if (!check(args, 2))
    return std::nullopt;
  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  std::optional<Value> task = args.evaluate(0);
  if (!task)
    return std::nullopt;
  const auto *fnType = task->is(Value::Kind::Function)
                           ? llvm::dyn_cast<sema::FunctionType>(task->getType())
                           : nullptr;
  if (!fnType || !fnType->isTask()) {
    diags.error(args.getArg(0).getLoc(),
                "expected a task, found '" + task->getType()->str() + "'");
    return std::nullopt;
  }
  std::optional<Value> id = args.evaluate(1);
  if (!id)
    return std::nullopt;
  if (!id->is(Value::Kind::Handle) ||
      id->getType()->getKind() != getTaskIDKind(kind)) {
    diags.error(args.getArg(1).getLoc(), "expected a " + getTaskKindName(kind) +
                                             " task ID, found '" +
                                             id->getType()->str() + "'");
    return std::nullopt;
  }
  // Only <memcpy/memcpy> itself may take the IDs memcpy reserves.
  const sema::InterpreterOptions &options = interp.getOptions();
  sema::ModuleInstance *owner = task->getModule();
  bool isMemcpy = owner && owner->getName().starts_with("<memcpy/");
  if (options.memcpy && !isMemcpy &&
      llvm::is_contained(
          target::TargetModel::get(options.arch).getMemcpyReservedTaskIDs(),
          static_cast<unsigned>(id->getHandleID()))) {
    diags.error(args.getArg(1).getLoc(),
                "task ID " + llvm::Twine(id->getHandleID()) +
                    " is reserved by the memcpy infrastructure (--memcpy)");
    return std::nullopt;
  }
  for (const TaskBinding &binding : record->tasks) {
    if (binding.task == task->getFunctionDecl()) {
      diags.error(args.getCall().getLoc(),
                  "task '" + binding.task->name.text + "' is bound twice");
      diags.note(binding.loc, "first bound here");
      return std::nullopt;
    }
  }
  record->tasks.push_back({task->getFunctionDecl(), task->getModule(), kind,
                           id->getHandleID(), args.getCall().getLoc()});
  return Value::getVoid(interp.getTypes());
}

std::optional<Value> ProgramBuiltins::startup(sema::BuiltinArgs &args,
                                              StartupAction::Kind kind) {
  // At run time these are statements of a function or task, which
  // ProgramGen lowers; here only comptime calls arrive.
  if (!check(args, 1))
    return std::nullopt;
  std::optional<Value> handle = args.evaluate(0);
  if (!handle)
    return std::nullopt;
  Type::Kind handleKind = handle->getType()->getKind();
  bool ok = handle->is(Value::Kind::Handle) &&
            (kind == StartupAction::Kind::Activate
                 ? handleKind == Type::Kind::LocalTaskID
                 : handleKind != Type::Kind::Direction);
  if (!ok) {
    interp.getDiagnostics().error(
        args.getArg(0).getLoc(),
        llvm::Twine(kind == StartupAction::Kind::Activate
                        ? "expected a local task ID"
                        : "expected a task ID, color, queue or microthread "
                          "ID") +
            ", found '" + handle->getType()->str() + "'");
    return std::nullopt;
  }
  record->startup.push_back({kind, *handle});
  return Value::getVoid(interp.getTypes());
}

std::optional<Value> ProgramBuiltins::exportSymbol(sema::BuiltinArgs &args) {
  // @export_symbol(f) exports under the declaration's own name.
  if (!check(args, 1, 2))
    return std::nullopt;
  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  // The symbol is named, not evaluated: a `const` would fold to its value.
  const auto *ident = llvm::dyn_cast<ast::Identifier>(&args.getArg(0));
  const ast::Node *decl = nullptr;
  sema::ModuleInstance *module = current;
  if (ident) {
    std::optional<Value> symbol = args.evaluate(0);
    if (!symbol)
      return std::nullopt;
    if (symbol->is(Value::Kind::Function)) {
      decl = symbol->getFunctionDecl();
      module = symbol->getModule();
    } else if (symbol->getSymbol() &&
               llvm::isa<ast::VarDecl>(symbol->getSymbol()))
      decl = symbol->getSymbol();
  }
  if (!decl) {
    diags.error(args.getArg(0).getLoc(), "'@export_symbol' expects the name "
                                         "of a top-level 'var' or 'fn'");
    return std::nullopt;
  }
  if (const auto *fn = llvm::dyn_cast<ast::FnDecl>(decl); fn && fn->isTask) {
    diags.error(args.getArg(0).getLoc(), "a task cannot be exported");
    return std::nullopt;
  }
  std::string hostName = ident->name.text.str();
  if (args.size() == 2) {
    std::optional<Value> name = args.evaluate(1);
    if (!name)
      return std::nullopt;
    if (!name->is(Value::Kind::String)) {
      diags.error(args.getArg(1).getLoc(),
                  "expected a string, found '" + name->getType()->str() + "'");
      return std::nullopt;
    }
    hostName = name->getString().str();
  }
  // Names exported twice, also across modules, are ProgramGen's check.
  record->exports.push_back({decl, module, hostName, args.getCall().getLoc()});
  return Value::getVoid(interp.getTypes());
}

std::optional<Value> ProgramBuiltins::initializeQueue(sema::BuiltinArgs &args) {
  if (!check(args, 2))
    return std::nullopt;
  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  std::optional<Value> queue = args.evaluate(0);
  if (!queue)
    return std::nullopt;
  Type::Kind kind = queue->getType()->getKind();
  if (!queue->is(Value::Kind::Handle) ||
      (kind != Type::Kind::InputQueue && kind != Type::Kind::OutputQueue)) {
    diags.error(args.getArg(0).getLoc(),
                "expected a queue, found '" + queue->getType()->str() + "'");
    return std::nullopt;
  }
  std::optional<Value> config = args.evaluate(1);
  if (!config)
    return std::nullopt;
  const Value *color =
      config->is(Value::Kind::Struct) ? config->findField("color") : nullptr;
  if (!color || !color->is(Value::Kind::Handle) ||
      !color->getType()->is(Type::Kind::Color)) {
    diags.error(args.getArg(1).getLoc(),
                "expected '.{ .color = c }' with a color c");
    return std::nullopt;
  }
  std::optional<uint64_t> ctrlTableID;
  if (const Value *table = config->findField("ctrl_table_id")) {
    constexpr target::IDRange range =
        target::TargetModel::getControlTableIDRange();
    if (kind != Type::Kind::InputQueue) {
      diags.error(args.getArg(1).getLoc(),
                  "'.ctrl_table_id' is only for input queues");
      return std::nullopt;
    }
    if (!table->is(Value::Kind::Int) || table->getInt().isNegative() ||
        !range.contains(table->getInt().getExtValue())) {
      diags.error(args.getArg(1).getLoc(),
                  "'.ctrl_table_id' must be an integer in " +
                      llvm::Twine(range.first) + ".." +
                      llvm::Twine(range.last) + ", found '" + table->str() +
                      "'");
      return std::nullopt;
    }
    ctrlTableID = table->getInt().getZExtValue();
  }
  record->queues.push_back({kind == Type::Kind::InputQueue,
                            queue->getHandleID(), color->getHandleID(),
                            ctrlTableID, args.getCall().getLoc()});
  return Value::getVoid(interp.getTypes());
}

std::optional<Value>
ProgramBuiltins::setControlTaskTable(sema::BuiltinArgs &args) {
  if (!check(args, 0, 1))
    return std::nullopt;
  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  const ast::BuiltinCall &call = args.getCall();
  const target::TargetModel &model =
      target::TargetModel::get(interp.getOptions().arch);
  if (!model.hasSeparateControlTaskTable()) {
    diags.error(call.getLoc(), "'@set_control_task_table' is not available "
                               "on " +
                                   llvm::Twine(model.getName()));
    return std::nullopt;
  }
  ControlTaskTable table{
      target::TargetModel::getDefaultControlTableInstructions(),
      target::TargetModel::getDefaultControlTableStride(), call.getLoc()};
  if (args.size() == 1) {
    std::optional<Value> config = args.evaluate(0);
    if (!config)
      return std::nullopt;
    llvm::SMLoc at = args.getArg(0).getLoc();
    if (!config->is(Value::Kind::Struct) || config->isTuple()) {
      diags.error(at, "expected '.{ .instructions = n, .stride = s }', "
                      "found '" +
                          config->getType()->str() + "'");
      return std::nullopt;
    }
    for (const sema::FieldValue &field : config->getFields()) {
      bool isInstructions = field.name == "instructions";
      if (!isInstructions && field.name != "stride") {
        diags.error(at, "unknown field '." + field.name +
                            "' (expected '.instructions' or '.stride')");
        return std::nullopt;
      }
      const Value &v = field.value;
      int64_t n =
          v.is(Value::Kind::Int) && v.getInt().getSignificantBits() <= 64
              ? v.getInt().getExtValue()
              : -1;
      constexpr target::IDRange strides =
          target::TargetModel::getControlTableStrideRange();
      bool ok =
          isInstructions
              ? llvm::is_contained(
                    target::TargetModel::getControlTableInstructionChoices(), n)
              : strides.contains(n);
      if (!ok) {
        diags.error(at, isInstructions
                            ? "'.instructions' must be 2, 4 or 8, found '" +
                                  v.str() + "'"
                            : "'.stride' must be an integer in " +
                                  llvm::Twine(strides.first) + ".." +
                                  llvm::Twine(strides.last) + ", found '" +
                                  v.str() + "'");
        return std::nullopt;
      }
      (isInstructions ? table.instructions : table.stride) =
          static_cast<uint64_t>(n);
    }
  }
  if (record->controlTaskTable) {
    diags.error(call.getLoc(), "the separate control task table is set twice");
    diags.note(record->controlTaskTable->loc, "first set here");
    return std::nullopt;
  }
  record->controlTaskTable = table;
  return Value::getVoid(interp.getTypes());
}

std::optional<Value>
ProgramBuiltins::setTeardownHandler(sema::BuiltinArgs &args) {
  if (!check(args, 2))
    return std::nullopt;
  sema::DiagnosticEngine &diags = interp.getDiagnostics();
  std::optional<Value> fn = args.evaluate(0);
  if (!fn)
    return std::nullopt;
  const auto *fnType = fn->is(Value::Kind::Function)
                           ? llvm::dyn_cast<sema::FunctionType>(fn->getType())
                           : nullptr;
  if (!fnType || fnType->isTask() || !fnType->getParams().empty() ||
      !fnType->getResult()->is(Type::Kind::Void)) {
    diags.error(args.getArg(0).getLoc(),
                "expected a function without parameters returning void, "
                "found '" +
                    fn->getType()->str() + "'");
    return std::nullopt;
  }
  std::optional<Value> color = args.evaluate(1);
  if (!color)
    return std::nullopt;
  if (!color->is(Value::Kind::Handle) ||
      !color->getType()->is(Type::Kind::Color)) {
    diags.error(args.getArg(1).getLoc(),
                "expected a color, found '" + color->getType()->str() + "'");
    return std::nullopt;
  }
  record->teardownHandlers.push_back({fn->getFunctionDecl(), fn->getModule(),
                                      color->getHandleID(),
                                      args.getCall().getLoc()});
  return Value::getVoid(interp.getTypes());
}
