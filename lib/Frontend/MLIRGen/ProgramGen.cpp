//===- ProgramGen.cpp - A program instance to a csl.program ---------------===//

#include "tessera/Frontend/MLIRGen/ProgramGen.h"

#include "FunctionGen.h"
#include "TypeLowering.h"
#include "VerifyNewOp.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

#include "llvm/Support/Path.h"
#include <map>
#include <tuple>

using namespace tessera;
using namespace tessera::frontend;
using namespace tessera::frontend::mlirgen;
using sema::Type;
using sema::Value;
using FlatRef = mlir::FlatSymbolRefAttr;

namespace {

class ProgramGenerator {
public:
  ProgramGenerator(sema::Interpreter &interp, ProgramBuiltins &builtins,
                   sema::ModuleInstance &root, csl::ProgramOp program)
      : interp(interp), builtins(builtins), root(root), program(program),
        ctx(*program.getContext()), builder(&ctx),
        diags(interp.getDiagnostics()) {
    builder.setInsertionPointToEnd(&program.getBody().front());
    symbols.function = [this](sema::ModuleInstance &m, const ast::FnDecl &fn,
                              llvm::SMLoc at) {
      return requestFunction(m, fn, at);
    };
    symbols.global = [this](sema::ModuleInstance &m, const ast::VarDecl &var,
                            llvm::SMLoc at) {
      return requestGlobal(m, var, at);
    };
    symbols.fifo = [this](sema::ModuleInstance &m, const ast::VarDecl &var,
                          llvm::SMLoc at) { return requestFifo(m, var, at); };
    symbols.dsdGlobal = [this](sema::ModuleInstance &m, const ast::VarDecl &var,
                               llvm::SMLoc at) {
      return requestDSDGlobal(m, var, at);
    };
    symbols.dsdSlot = [this](sema::ModuleInstance &m, llvm::StringRef name,
                             mlir::Type type, mlir::Location l) {
      std::string symbol = getSlotName(m, name);
      csl::DSDGlobalOp::create(builder, l, symbol, type,
                               /*withInitializer=*/false);
      return symbol;
    };
    symbols.pointerSlot = [this](sema::ModuleInstance &m, llvm::StringRef name,
                                 mlir::Type type, mlir::Location l) {
      std::string symbol = getSlotName(m, name);
      csl::PointerGlobalOp::create(builder, l, builder.getStringAttr(symbol),
                                   mlir::TypeAttr::get(type),
                                   mlir::FlatSymbolRefAttr());
      return symbol;
    };
    symbols.specialization = [this](sema::ModuleInstance &m,
                                    const ast::FnDecl &fn,
                                    const sema::FunctionType &type,
                                    llvm::ArrayRef<std::optional<Value>> args,
                                    llvm::StringRef key, llvm::SMLoc at) {
      return requestSpecialization(m, fn, type, args, key, at);
    };
    symbols.globalByDecl =
        [this](const ast::VarDecl &var,
               llvm::SMLoc at) -> std::optional<std::string> {
      for (sema::ModuleInstance *m : modules)
        if (const sema::GlobalSlot *slot = m->findGlobal(var.name.text);
            slot && slot->decl == &var)
          return requestGlobal(*m, var, at);
      diags.error(at, "'" + var.name.text +
                          "' is not a global of this "
                          "program");
      return std::nullopt;
    };
    symbols.boundTaskID = [this](sema::ModuleInstance &m,
                                 const ast::FnDecl &task, llvm::SMLoc at) {
      return getBoundTaskID(m, task, at);
    };
  }

  bool run();

private:
  /// Runs the comptime blocks of `m`, a module of this program, and emits
  /// what they recorded.
  bool addModule(sema::ModuleInstance &m);
  /// Adds `m` unless it is part of the program already: run-time code may
  /// reach a module (through a call) before its import is noticed, and the
  /// module's task bindings must be known before its code is lowered.
  bool ensureModule(sema::ModuleInstance &m) {
    return llvm::is_contained(modules, &m) || addModule(m);
  }
  /// Modules imported by the program's modules that are not part of it yet.
  std::vector<sema::ModuleInstance *> findNewImports();
  /// The program-level symbol of declaration `name` of module `m`: the
  /// name itself in the root module, prefixed by the module's name in an
  /// imported one.
  std::string getSymbolName(sema::ModuleInstance &m, llvm::StringRef name);
  /// A fresh symbol for a function's local slot `name` ("f.x"); a shadowed
  /// name gets a number.
  std::string getSlotName(sema::ModuleInstance &m, llvm::StringRef name) {
    std::string base = getSymbolName(m, name);
    std::string symbol = base;
    for (unsigned n = 2; program.lookupSymbol(symbol); ++n)
      symbol = base + "_" + std::to_string(n);
    return symbol;
  }
  std::optional<std::string> requestFunction(sema::ModuleInstance &m,
                                             const ast::FnDecl &fn,
                                             llvm::SMLoc at);
  std::optional<std::string> requestGlobal(sema::ModuleInstance &m,
                                           const ast::VarDecl &var,
                                           llvm::SMLoc at);
  /// A `var` of pointer type as a csl.pointer_global.
  std::optional<std::string> requestPointerGlobal(sema::ModuleInstance &m,
                                                  const ast::VarDecl &var,
                                                  const sema::PointerType &type,
                                                  const sema::GlobalSlot &slot);
  /// The specialization of generic `fn` for comptime `args` (see
  /// SymbolRequests::specialization).
  std::optional<std::string>
  requestSpecialization(sema::ModuleInstance &m, const ast::FnDecl &fn,
                        const sema::FunctionType &type,
                        llvm::ArrayRef<std::optional<Value>> args,
                        llvm::StringRef key, llvm::SMLoc at);
  /// The ID `task` of module `m` is bound to, as a handle.
  std::optional<Value> getBoundTaskID(sema::ModuleInstance &m,
                                      const ast::FnDecl &task, llvm::SMLoc at);
  /// A `var` of DSD type as a csl.dsd_global.
  std::optional<std::string> requestDSDGlobal(sema::ModuleInstance &m,
                                              const ast::VarDecl &var,
                                              llvm::SMLoc at);
  /// `const f = @allocate_fifo(buf[, opts])` as csl.allocate_fifo.
  std::optional<std::string>
  requestFifo(sema::ModuleInstance &m, const ast::VarDecl &var, llvm::SMLoc at);
  /// The task an `.activate_push`/`.activate_pop` option names: a task bound
  /// to a local task ID, or that ID; empty after an error.
  std::optional<std::string> getFifoHook(sema::ModuleInstance &m,
                                         const ast::FieldInit &field);
  /// `.priority = .{ .high = true }` and the like; nullopt after an error.
  std::optional<csl::Priority> getFifoPriority(sema::ModuleInstance &m,
                                               const ast::FieldInit &field);
  bool emitTask(const TaskBinding &binding);
  bool emitStartup(const StartupAction &action);
  bool emitExport(const SymbolExport &exported);
  /// The sema function type of `fn` of module `m`, or null after an error.
  const sema::FunctionType *getFunctionType(sema::ModuleInstance &m,
                                            const ast::FnDecl &fn,
                                            llvm::SMLoc at);
  /// Lowers the bodies queued by requestFunction until none is left.
  bool drainFunctions();
  /// Globals first, then FIFOs, start-up state, queues, tasks, functions,
  /// exports.
  void sortBody();
  /// WSE-3: every data task's input queue has a color.
  bool checkDataTaskQueues();
  /// Two tasks bound to one entry of a task table.
  bool checkTaskIDs();
  /// Queues with a `.ctrl_table_id` need `@set_control_task_table`.
  bool checkControlTableIDs();
  mlir::Location loc(llvm::SMLoc l) {
    return getLocation(ctx, diags.getSourceMgr(), l);
  }

  struct PendingBody {
    sema::ModuleInstance *module;
    const ast::FnDecl *fn;
    mlir::func::FuncOp func;
    /// A specialization's signature and comptime arguments; null and empty
    /// for a plain function.
    const sema::FunctionType *type = nullptr;
    std::vector<std::optional<Value>> comptimeArgs;
    llvm::SMLoc specializedAt; // the call that asked for it
  };
  using DeclKey = std::pair<const sema::ModuleInstance *, const ast::Node *>;

  sema::Interpreter &interp;
  ProgramBuiltins &builtins;
  sema::ModuleInstance &root;
  csl::ProgramOp program;
  mlir::MLIRContext &ctx;
  mlir::OpBuilder builder;
  sema::DiagnosticEngine &diags;
  SymbolRequests symbols;
  llvm::DenseMap<DeclKey, std::string> emitted;
  /// Specializations by function and argument key, and how many each
  /// function has.
  std::map<std::tuple<const sema::ModuleInstance *, const ast::FnDecl *,
                      std::string>,
           std::string>
      specializations;
  llvm::DenseMap<DeclKey, unsigned> numSpecializations;
  /// The modules of this program in the order they joined, with the prefix
  /// of their symbols.
  std::vector<sema::ModuleInstance *> modules;
  llvm::DenseMap<const sema::ModuleInstance *, std::string> prefixes;
  llvm::StringSet<> usedPrefixes;
  llvm::StringMap<llvm::SMLoc> exportedNames;
  /// Every task binding of every module, for FIFO hooks.
  std::vector<TaskBinding> tasks;
  std::optional<ControlTaskTable> controlTaskTable;
  /// Where `@initialize_queue` gave a `.ctrl_table_id`.
  std::vector<llvm::SMLoc> ctrlTableQueues;
  std::vector<PendingBody> pending;
};

const sema::FunctionType *
ProgramGenerator::getFunctionType(sema::ModuleInstance &m,
                                  const ast::FnDecl &fn, llvm::SMLoc at) {
  std::optional<Value> value = interp.getGlobal(m, fn.name.text, at);
  if (!value)
    return nullptr;
  return llvm::dyn_cast<sema::FunctionType>(value->getType());
}

std::string ProgramGenerator::getSymbolName(sema::ModuleInstance &m,
                                            llvm::StringRef name) {
  if (&m == &root)
    return name.str();
  auto [it, inserted] = prefixes.try_emplace(&m);
  if (inserted) {
    // "<memcpy/memcpy>" and "lib/util.csl" give "memcpy" and "util"; a
    // second instance of the same file gets a numbered prefix.
    llvm::StringRef spec = m.getName();
    spec.consume_front("<");
    spec.consume_back(">");
    spec = llvm::sys::path::filename(spec);
    spec.consume_back(".csl");
    std::string base;
    for (char c : spec)
      base += llvm::isAlnum(c) ? c : '_';
    if (base.empty() || llvm::isDigit(base.front()))
      base.insert(0, "m");
    std::string prefix = base;
    for (unsigned n = 2; !usedPrefixes.insert(prefix).second; ++n)
      prefix = base + "_" + std::to_string(n);
    it->second = prefix;
  }
  return it->second + "." + name.str();
}

std::optional<std::string>
ProgramGenerator::requestFunction(sema::ModuleInstance &m,
                                  const ast::FnDecl &fn, llvm::SMLoc at) {
  // Adding the module may emit this very declaration.
  if (!ensureModule(m))
    return std::nullopt;
  if (auto it = emitted.find({&m, &fn}); it != emitted.end())
    return it->second;
  const sema::FunctionType *type = getFunctionType(m, fn, at);
  if (!type)
    return std::nullopt;
  if (!fn.body) {
    diags.error(at, "'" + fn.name.text + "' has no body to compile");
    return std::nullopt;
  }
  llvm::SmallVector<mlir::Type> params, results;
  for (const Type *param : type->getParams()) {
    params.push_back(lowerType(ctx, param));
    if (!params.back()) {
      diags.error(fn.getLoc(), "'" + fn.name.text +
                                   "' has a parameter of "
                                   "type '" +
                                   param->str() +
                                   "', which has no run-time representation");
      return std::nullopt;
    }
  }
  if (!type->getResult()->is(Type::Kind::Void)) {
    results.push_back(lowerType(ctx, type->getResult()));
    if (!results.back()) {
      diags.error(fn.getLoc(), "'" + fn.name.text + "' returns '" +
                                   type->getResult()->str() +
                                   "', which has no run-time representation");
      return std::nullopt;
    }
  }
  std::string name = getSymbolName(m, fn.name.text);
  auto func =
      mlir::func::FuncOp::create(builder, loc(fn.getLoc()), name,
                                 builder.getFunctionType(params, results));
  func.addEntryBlock();
  emitted[{&m, &fn}] = name;
  pending.push_back({&m, &fn, func, nullptr, {}, {}});
  return name;
}

std::optional<std::string> ProgramGenerator::requestSpecialization(
    sema::ModuleInstance &m, const ast::FnDecl &fn,
    const sema::FunctionType &type, llvm::ArrayRef<std::optional<Value>> args,
    llvm::StringRef key, llvm::SMLoc at) {
  if (!ensureModule(m))
    return std::nullopt;
  auto [it, inserted] =
      specializations.try_emplace({&m, &fn, key.str()}, std::string());
  if (!inserted)
    return it->second;
  if (!fn.body) {
    diags.error(at, "'" + fn.name.text + "' has no body to compile");
    specializations.erase(it);
    return std::nullopt;
  }
  // Only the run-time params remain parameters.
  llvm::SmallVector<mlir::Type> params, results;
  for (auto [i, param] : llvm::enumerate(type.getParams()))
    if (!args[i])
      params.push_back(lowerType(ctx, param));
  if (!type.getResult()->is(Type::Kind::Void))
    results.push_back(lowerType(ctx, type.getResult()));
  unsigned n = ++numSpecializations[{&m, &fn}];
  std::string name = getSymbolName(m, fn.name.text) + "." + std::to_string(n);
  auto func =
      mlir::func::FuncOp::create(builder, loc(fn.getLoc()), name,
                                 builder.getFunctionType(params, results));
  func.addEntryBlock();
  it->second = name;
  pending.push_back(
      {&m, &fn, func, &type,
       std::vector<std::optional<Value>>(args.begin(), args.end()), at});
  return name;
}

std::optional<std::string>
ProgramGenerator::requestGlobal(sema::ModuleInstance &m,
                                const ast::VarDecl &var, llvm::SMLoc at) {
  // Adding the module may emit this very declaration.
  if (!ensureModule(m))
    return std::nullopt;
  if (auto it = emitted.find({&m, &var}); it != emitted.end())
    return it->second;
  sema::GlobalSlot *slot = m.findGlobal(var.name.text);
  std::optional<Value> value = interp.getGlobal(m, var.name.text, at);
  if (!value || !slot)
    return std::nullopt;
  if (const auto *pointer = llvm::dyn_cast<sema::PointerType>(value->getType()))
    return requestPointerGlobal(m, var, *pointer, *slot);
  mlir::MemRefType storage = getStorageType(ctx, value->getType());
  if (!storage) {
    diags.error(var.getLoc(), "global '" + var.name.text + "' of type '" +
                                  value->getType()->str() +
                                  "' has no run-time representation");
    return std::nullopt;
  }
  mlir::Attribute initial;
  if (slot->initialValue.isValid()) {
    initial = getInitialValue(storage, slot->initialValue);
    if (!initial) {
      diags.error(var.init->getLoc(), "the initializer of '" + var.name.text +
                                          "' is not supported in a global yet");
      return std::nullopt;
    }
  }
  std::string name = getSymbolName(m, var.name.text);
  // A `const` reaches here only as an array read at run time.
  bool isConst = var.varKind != ast::VarKind::Var;
  if (isConst) {
    initial = getInitialValue(storage, *value);
    if (!initial) {
      diags.error(var.init->getLoc(), "the value of '" + var.name.text +
                                          "' cannot be stored in memory yet");
      return std::nullopt;
    }
  }
  // `align(N)`: the byte alignment of the storage, a power of two.
  mlir::IntegerAttr alignment;
  if (var.align) {
    std::optional<Value> a = interp.evaluate(m, *var.align);
    if (!a)
      return std::nullopt;
    if (!a->is(Value::Kind::Int) || a->getInt().isNegative() ||
        a->getInt().getActiveBits() > 16 || !a->getInt().isPowerOf2()) {
      diags.error(var.align->getLoc(),
                  "'align' expects a power of two up to 32768, found " +
                      a->str());
      return std::nullopt;
    }
    alignment = builder.getI64IntegerAttr(a->getInt().getZExtValue());
  }
  mlir::memref::GlobalOp::create(builder, loc(var.getLoc()), name,
                                 /*sym_visibility=*/mlir::StringAttr(), storage,
                                 initial, isConst, alignment);
  emitted[{&m, &var}] = name;
  return name;
}

std::optional<std::string> ProgramGenerator::requestPointerGlobal(
    sema::ModuleInstance &m, const ast::VarDecl &var,
    const sema::PointerType &type, const sema::GlobalSlot &slot) {
  mlir::Type pointer = lowerType(ctx, &type);
  if (!pointer) {
    diags.error(var.getLoc(), "global '" + var.name.text + "' of type '" +
                                  type.str() +
                                  "' has no run-time representation");
    return std::nullopt;
  }
  // The initializer is the address of a global (checked by Sema), which
  // needs storage of its own.
  FlatRef target;
  if (slot.initialValue.isValid()) {
    const auto *pointee =
        llvm::dyn_cast_or_null<ast::VarDecl>(slot.initialValue.getSymbol());
    if (!pointee) {
      diags.error(var.init->getLoc(),
                  "the initializer of pointer '" + var.name.text +
                      "' must be the address of a global 'var'");
      return std::nullopt;
    }
    sema::ModuleInstance &owner =
        slot.initialValue.getModule() ? *slot.initialValue.getModule() : m;
    std::optional<std::string> symbol =
        requestGlobal(owner, *pointee, var.init->getLoc());
    if (!symbol)
      return std::nullopt;
    target = FlatRef::get(&ctx, *symbol);
  }
  std::string name = getSymbolName(m, var.name.text);
  auto op = csl::PointerGlobalOp::create(builder, loc(var.getLoc()),
                                         builder.getStringAttr(name),
                                         mlir::TypeAttr::get(pointer), target);
  if (std::optional<std::string> message = verifyNewOp(op)) {
    diags.error(var.getLoc(),
                "invalid pointer '" + var.name.text + "': " + *message);
    op.erase();
    return std::nullopt;
  }
  emitted[{&m, &var}] = name;
  return name;
}

std::optional<Value> ProgramGenerator::getBoundTaskID(sema::ModuleInstance &m,
                                                      const ast::FnDecl &task,
                                                      llvm::SMLoc at) {
  if (!ensureModule(m))
    return std::nullopt;
  for (const TaskBinding &binding : tasks) {
    if (binding.task != &task || binding.module != &m)
      continue;
    Type::Kind kind = binding.kind == TaskKind::Data ? Type::Kind::DataTaskID
                      : binding.kind == TaskKind::Local
                          ? Type::Kind::LocalTaskID
                          : Type::Kind::ControlTaskID;
    return Value::getHandle(interp.getTypes().get(kind), binding.id);
  }
  diags.error(at, "task '" + task.name.text + "' is not bound to a task ID");
  return std::nullopt;
}

std::optional<std::string>
ProgramGenerator::requestDSDGlobal(sema::ModuleInstance &m,
                                   const ast::VarDecl &var, llvm::SMLoc at) {
  // Adding the module may emit this very declaration.
  if (!ensureModule(m))
    return std::nullopt;
  if (auto it = emitted.find({&m, &var}); it != emitted.end())
    return it->second;
  const Type *type = getDSDVarType(interp, m, var);
  if (!type)
    return std::nullopt;
  if (!var.init) {
    diags.error(var.getLoc(),
                "DSD variable '" + var.name.text + "' needs an initializer");
    return std::nullopt;
  }
  std::string name = getSymbolName(m, var.name.text);
  // The DSD's element type is known once the initializer is lowered.
  auto op = csl::DSDGlobalOp::create(
      builder, loc(var.getLoc()), name,
      csl::DSDType::get(&ctx, csl::DSDKind::Mem1d, builder.getF32Type()),
      /*withInitializer=*/true);
  emitted[{&m, &var}] = name;
  if (!lowerInitializer(interp, m, symbols, *var.init, type,
                        op.getInitializer())) {
    emitted.erase({&m, &var});
    op.erase();
    return std::nullopt;
  }
  mlir::Operation *yield = op.getInitializer().front().getTerminator();
  op.setType(mlir::cast<csl::DSDType>(yield->getOperand(0).getType()));
  return name;
}

std::optional<std::string>
ProgramGenerator::getFifoHook(sema::ModuleInstance &m,
                              const ast::FieldInit &field) {
  std::optional<Value> v = interp.evaluate(m, *field.value);
  if (!v)
    return std::nullopt;
  // The task itself, or the local task ID it is bound to.
  for (const TaskBinding &binding : tasks) {
    if (binding.kind != TaskKind::Local)
      continue;
    bool named = v->is(Value::Kind::Function)
                     ? v->getFunctionDecl() == binding.task
                     : v->is(Value::Kind::Handle) &&
                           v->getType()->is(Type::Kind::LocalTaskID) &&
                           v->getHandleID() == binding.id;
    if (named)
      return getSymbolName(*binding.module, binding.task->name.text);
  }
  diags.error(field.value->getLoc(),
              "'." + field.name.text +
                  "' expects a task bound to a local task ID, or that ID");
  return std::nullopt;
}

std::optional<csl::Priority>
ProgramGenerator::getFifoPriority(sema::ModuleInstance &m,
                                  const ast::FieldInit &field) {
  // Exactly one of .low, .medium, .high set to true.
  const auto *lit = llvm::dyn_cast<ast::StructLiteral>(field.value);
  std::optional<csl::Priority> priority;
  if (lit && lit->fields.size() == 1) {
    const ast::FieldInit &level = *lit->fields.front();
    std::optional<Value> on = interp.evaluate(m, *level.value);
    if (!on)
      return std::nullopt;
    if (on->is(Value::Kind::Bool) && on->getBool())
      priority = csl::symbolizePriority(level.name.text);
  }
  if (!priority)
    diags.error(field.value->getLoc(), "'.priority' expects one of "
                                       "'.{ .low = true }', "
                                       "'.{ .medium = true }' or "
                                       "'.{ .high = true }'");
  return priority;
}

std::optional<std::string>
ProgramGenerator::requestFifo(sema::ModuleInstance &m, const ast::VarDecl &var,
                              llvm::SMLoc at) {
  if (auto it = emitted.find({&m, &var}); it != emitted.end())
    return it->second;
  const auto &call = *llvm::cast<ast::BuiltinCall>(var.init);
  if (call.args.empty() || call.args.size() > 2) {
    diags.error(call.getLoc(), "'@allocate_fifo' expects 1 or 2 arguments, "
                               "found " +
                                   llvm::Twine(call.args.size()));
    return std::nullopt;
  }
  // The buffer is named, not evaluated: it must be a top-level `var`.
  const auto *ident = llvm::dyn_cast<ast::Identifier>(call.args[0]);
  sema::GlobalSlot *slot = ident ? m.findGlobal(ident->name.text) : nullptr;
  const auto *buffer =
      slot ? llvm::dyn_cast_or_null<ast::VarDecl>(slot->decl) : nullptr;
  if (!buffer || buffer->varKind != ast::VarKind::Var) {
    diags.error(call.args[0]->getLoc(),
                "'@allocate_fifo' expects the name of a top-level array 'var'");
    return std::nullopt;
  }
  std::optional<std::string> bufferSymbol = requestGlobal(m, *buffer, at);
  if (!bufferSymbol)
    return std::nullopt;
  auto global =
      mlir::cast<mlir::memref::GlobalOp>(program.lookupSymbol(*bufferSymbol));
  FlatRef push, pop;
  std::optional<csl::Priority> priority;
  if (call.args.size() == 2) {
    const auto *opts = llvm::dyn_cast<ast::StructLiteral>(call.args[1]);
    if (!opts) {
      diags.error(call.args[1]->getLoc(), "'@allocate_fifo' expects its "
                                          "options as a struct literal "
                                          "'.{ ... }'");
      return std::nullopt;
    }
    for (const ast::FieldInit *f : opts->fields) {
      llvm::StringRef name = f->name.text;
      if (name == "activate_push" || name == "activate_pop") {
        std::optional<std::string> task = getFifoHook(m, *f);
        if (!task)
          return std::nullopt;
        (name == "activate_push" ? push : pop) =
            mlir::FlatSymbolRefAttr::get(&ctx, *task);
      } else if (name == "priority") {
        if (!(priority = getFifoPriority(m, *f)))
          return std::nullopt;
      } else {
        diags.error(f->name.loc(),
                    "'@allocate_fifo' has no option '" + name + "'");
        return std::nullopt;
      }
    }
  }
  auto type = csl::DSDType::get(&ctx, csl::DSDKind::Fifo,
                                global.getType().getElementType());
  std::string name = getSymbolName(m, var.name.text);
  auto op = csl::AllocateFifoOp::create(
      builder, loc(call.getLoc()), name, *bufferSymbol, type,
      /*activate_push=*/FlatRef(), /*activate_pop=*/FlatRef(),
      priority ? csl::PriorityAttr::get(&ctx, *priority) : csl::PriorityAttr());
  // The buffer and priority rules live in the op's verifier. The hooks are
  // set after it ran: their tasks may not be emitted yet, and the record
  // already showed they are local tasks.
  if (std::optional<std::string> message = verifyNewOp(op)) {
    diags.error(call.getLoc(), "invalid '@allocate_fifo': " + *message);
    op.erase();
    return std::nullopt;
  }
  if (push)
    op.setActivatePushAttr(push);
  if (pop)
    op.setActivatePopAttr(pop);
  emitted[{&m, &var}] = name;
  return name;
}

csl::TaskKind getCSLKind(TaskKind kind) {
  switch (kind) {
  case TaskKind::Data:
    return csl::TaskKind::Data;
  case TaskKind::Local:
    return csl::TaskKind::Local;
  case TaskKind::Control:
    return csl::TaskKind::Control;
  }
  return csl::TaskKind::Local;
}

bool ProgramGenerator::emitTask(const TaskBinding &binding) {
  const ast::FnDecl &task = *binding.task;
  sema::ModuleInstance &m = *binding.module;
  const sema::FunctionType *type = getFunctionType(m, task, binding.loc);
  if (!type)
    return false;
  llvm::SmallVector<mlir::Type> params;
  for (const Type *param : type->getParams()) {
    params.push_back(lowerType(ctx, param));
    if (!params.back()) {
      diags.error(task.getLoc(),
                  "task '" + task.name.text + "' has a parameter of type '" +
                      param->str() + "', which has no run-time representation");
      return false;
    }
  }
  std::string name = getSymbolName(m, task.name.text);
  auto op = csl::TaskOp::create(builder, loc(task.getLoc()), name,
                                getCSLKind(binding.kind), params,
                                static_cast<int64_t>(binding.id));
  emitted[{&m, &task}] = name;
  mlir::OpBuilder::InsertionGuard guard(builder);
  return lowerBody(interp, m, symbols, task, *type, op.getBody());
}

bool ProgramGenerator::emitStartup(const StartupAction &action) {
  const Value &handle = action.handle;
  mlir::Type type = lowerType(ctx, handle.getType());
  mlir::Location l = mlir::UnknownLoc::get(&ctx);
  mlir::IntegerAttr id = builder.getI64IntegerAttr(handle.getHandleID());
  mlir::Value h;
  switch (handle.getType()->getKind()) {
  case Type::Kind::Color:
    h = csl::GetColorOp::create(builder, l, type, id);
    break;
  case Type::Kind::InputQueue:
    h = csl::GetInputQueueOp::create(builder, l, type, id);
    break;
  case Type::Kind::OutputQueue:
    h = csl::GetOutputQueueOp::create(builder, l, type, id);
    break;
  case Type::Kind::UtID:
    h = csl::GetMicrothreadIDOp::create(builder, l, type, id);
    break;
  default:
    h = csl::GetTaskIDOp::create(builder, l, type, id);
    break;
  }
  switch (action.kind) {
  case StartupAction::Kind::Activate:
    csl::ActivateOp::create(builder, l, h);
    break;
  case StartupAction::Kind::Block:
    csl::BlockOp::create(builder, l, h);
    break;
  case StartupAction::Kind::Unblock:
    csl::UnblockOp::create(builder, l, h);
    break;
  }
  return true;
}

bool ProgramGenerator::emitExport(const SymbolExport &exported) {
  // Modules of one program share the host's name space.
  auto [first, inserted] =
      exportedNames.try_emplace(exported.name, exported.loc);
  if (!inserted) {
    diags.error(exported.loc, "'" + exported.name + "' is exported twice");
    diags.note(first->second, "first exported here");
    return false;
  }
  mlir::Type type;
  bool isMutable = false;
  std::optional<std::string> symbol;
  if (const auto *fn = llvm::dyn_cast<ast::FnDecl>(exported.decl)) {
    if (!(symbol = requestFunction(*exported.module, *fn, exported.loc)))
      return false;
    type = mlir::cast<mlir::func::FuncOp>(program.lookupSymbol(*symbol))
               .getFunctionType();
  } else {
    const auto &var = *llvm::cast<ast::VarDecl>(exported.decl);
    if (!(symbol = requestGlobal(*exported.module, var, exported.loc)))
      return false;
    mlir::Operation *global = program.lookupSymbol(*symbol);
    if (auto pointer = mlir::dyn_cast<csl::PointerGlobalOp>(global)) {
      // The host reaches the data the pointer points to, and may write it
      // unless the pointer is to const.
      type = pointer.getType();
      std::optional<Value> value =
          interp.getGlobal(*exported.module, var.name.text, exported.loc);
      if (!value)
        return false;
      isMutable = !llvm::cast<sema::PointerType>(value->getType())->isConst();
    } else {
      type = mlir::cast<mlir::memref::GlobalOp>(global).getType();
      isMutable = var.varKind == ast::VarKind::Var;
    }
  }
  auto op = csl::ExportOp::create(
      builder, loc(exported.loc), mlir::FlatSymbolRefAttr::get(&ctx, *symbol),
      builder.getStringAttr(exported.name), mlir::TypeAttr::get(type),
      isMutable ? builder.getUnitAttr() : mlir::UnitAttr());
  // The export rules (16/32-bit data and arguments, no result, ...) live in
  // the op's verifier; run it now so a violation is reported at the
  // @export_symbol as a user error, not later as an internal one.
  std::optional<std::string> message = verifyNewOp(op);
  if (!message)
    return true;
  diags.error(exported.loc,
              "cannot export '" + exported.name + "': " + *message);
  op.erase();
  return false;
}

bool ProgramGenerator::drainFunctions() {
  while (!pending.empty()) {
    PendingBody next = pending.back();
    pending.pop_back();
    const sema::FunctionType *type =
        next.type ? next.type
                  : getFunctionType(*next.module, *next.fn, next.fn->getLoc());
    if (!type || !lowerBody(interp, *next.module, symbols, *next.fn, *type,
                            next.func.getBody(), next.comptimeArgs)) {
      if (next.specializedAt.isValid())
        diags.note(next.specializedAt,
                   "in '" + next.fn->name.text + "' specialized for this call");
      return false;
    }
  }
  return true;
}

unsigned getRank(mlir::Operation &op) {
  if (mlir::isa<mlir::memref::GlobalOp, csl::PointerGlobalOp>(op))
    return 0;
  if (mlir::isa<csl::AllocateFifoOp, csl::DSDGlobalOp>(op))
    return 1;
  if (mlir::isa<csl::InitializeQueueOp, csl::ControlTaskTableOp>(op))
    return 3;
  if (mlir::isa<csl::TaskOp>(op))
    return 4;
  if (mlir::isa<mlir::func::FuncOp>(op))
    return 5;
  if (mlir::isa<csl::ExportOp>(op))
    return 6;
  return 2; // start-up handles and actions
}

void ProgramGenerator::sortBody() {
  // Bucket by rank, keeping creation order within a rank (std::stable_sort
  // would do the same but trips a libstdc++ deprecation warning with clang).
  mlir::Block &body = program.getBody().front();
  llvm::SmallVector<mlir::Operation *> buckets[7];
  for (mlir::Operation &op : body)
    buckets[getRank(op)].push_back(&op);
  for (const auto &bucket : buckets)
    for (mlir::Operation *op : bucket)
      op->moveBefore(&body, body.end());
}

bool ProgramGenerator::addModule(sema::ModuleInstance &m) {
  modules.push_back(&m);
  ProgramRecord record;
  builtins.setRecord(&record, &m);
  unsigned errors = diags.getNumErrors();
  bool ran = interp.runComptimeBlocks(m, /*inProgram=*/true);
  builtins.setRecord(nullptr);
  if (!ran || diags.getNumErrors() != errors)
    return false;
  // Globals the comptime code referenced need storage even when no
  // run-time code names them (a `var` a comptime block took the address of).
  for (const ast::VarDecl *var : m.getReferencedVars())
    if (!requestGlobal(m, *var, var->getLoc()))
      return false;
  // An `export var` is the host's even when no code names it: the host
  // may set it (SdkLayout's set_symbol_all) or read it.
  for (const ast::Node *decl : m.getFile().decls)
    if (const auto *var = llvm::dyn_cast<ast::VarDecl>(decl))
      if (var->isExport && var->varKind == ast::VarKind::Var &&
          !requestGlobal(m, *var, var->getLoc()))
        return false;
  for (const StartupAction &action : record.startup)
    if (!emitStartup(action))
      return false;
  if (const std::optional<ControlTaskTable> &table = record.controlTaskTable) {
    // Modules of one program share its task tables: one call in all.
    if (controlTaskTable) {
      diags.error(table->loc, "the separate control task table is set twice");
      diags.note(controlTaskTable->loc, "first set here");
      return false;
    }
    controlTaskTable = table;
    csl::ControlTaskTableOp::create(builder, loc(table->loc),
                                    table->instructions, table->stride);
  }
  for (const QueueBinding &queue : record.queues) {
    auto init = csl::InitializeQueueOp::create(
        builder, loc(queue.loc),
        csl::QueueKindAttr::get(&ctx, queue.isInput ? csl::QueueKind::Input
                                                    : csl::QueueKind::Output),
        builder.getI64IntegerAttr(queue.queue),
        builder.getI64IntegerAttr(queue.color), nullptr);
    if (queue.ctrlTableID) {
      init.setCtrlTableIdAttr(builder.getI64IntegerAttr(*queue.ctrlTableID));
      ctrlTableQueues.push_back(queue.loc);
    }
  }
  // Bodies may name any bound task (FIFO hooks), so all are known first.
  tasks.insert(tasks.end(), record.tasks.begin(), record.tasks.end());
  for (const TaskBinding &task : record.tasks)
    if (!emitTask(task))
      return false;
  for (const SymbolExport &exported : record.exports)
    if (!emitExport(exported))
      return false;
  for (const TeardownHandler &handler : record.teardownHandlers) {
    std::optional<std::string> symbol =
        requestFunction(*handler.module, *handler.handler, handler.loc);
    if (!symbol)
      return false;
    auto op = csl::SetTeardownHandlerOp::create(
        builder, loc(handler.loc), FlatRef::get(&ctx, *symbol),
        builder.getI64IntegerAttr(static_cast<int64_t>(handler.color)));
    if (std::optional<std::string> message = verifyNewOp(op)) {
      diags.error(handler.loc, "invalid '@set_teardown_handler': " + *message);
      op.erase();
      return false;
    }
  }
  return true;
}

std::vector<sema::ModuleInstance *> ProgramGenerator::findNewImports() {
  std::vector<sema::ModuleInstance *> found;
  for (sema::ModuleInstance *m : modules)
    for (sema::ModuleInstance *imported : m->getImportedModules())
      if (!llvm::is_contained(modules, imported) &&
          !llvm::is_contained(found, imported))
        found.push_back(imported);
  return found;
}

bool ProgramGenerator::run() {
  // Diagnostics about the whole program (its memory) point at its file.
  if (unsigned buffer = root.getFile().bufferID)
    program->setLoc(mlir::FileLineColLoc::get(
        &ctx,
        diags.getSourceMgr().getMemoryBuffer(buffer)->getBufferIdentifier(), 1,
        1));
  if (!addModule(root) || !drainFunctions())
    return false;
  // Lowering code may import more modules; each brings its comptime blocks.
  for (std::vector<sema::ModuleInstance *> next = findNewImports();
       !next.empty(); next = findNewImports())
    for (sema::ModuleInstance *m : next)
      if (!ensureModule(*m) || !drainFunctions())
        return false;
  sortBody();
  return checkTaskIDs() && checkDataTaskQueues() && checkControlTableIDs();
}

bool ProgramGenerator::checkTaskIDs() {
  // One task per entry of a task table; control tasks have a table of
  // their own once @set_control_task_table (in any module) asks for it.
  llvm::DenseMap<std::pair<unsigned, uint64_t>, const TaskBinding *> owners;
  for (const TaskBinding &task : tasks) {
    unsigned table = controlTaskTable && task.kind == TaskKind::Control;
    auto [it, inserted] = owners.try_emplace({table, task.id}, &task);
    if (inserted)
      continue;
    // A control task meeting a data or local one could move out of the way.
    bool oneIsControl = (task.kind == TaskKind::Control) !=
                        (it->second->kind == TaskKind::Control);
    bool canSeparate = target::TargetModel::get(interp.getOptions().arch)
                           .hasSeparateControlTaskTable();
    diags.error(task.loc,
                "task ID " + llvm::Twine(task.id) + " is already bound to '" +
                    it->second->task->name.text + "'" +
                    (oneIsControl && canSeparate
                         ? " (control tasks share the task table unless "
                           "'@set_control_task_table' gives them their own)"
                         : ""));
    diags.note(it->second->loc, "first bound here");
    return false;
  }
  return true;
}

bool ProgramGenerator::checkControlTableIDs() {
  // The table may be set in another module, or after the queue.
  if (controlTaskTable || ctrlTableQueues.empty())
    return true;
  for (llvm::SMLoc at : ctrlTableQueues)
    diags.error(at, "'.ctrl_table_id' needs a separate control task table "
                    "(call '@set_control_task_table')");
  return false;
}

bool ProgramGenerator::checkDataTaskQueues() {
  // On WSE-3 a data task drains an input queue, which @initialize_queue
  // must give a color; the program is complete only now, since the binding
  // and the queue's initialisation may sit in different modules.
  if (interp.getOptions().arch != target::Arch::WSE3)
    return true;
  llvm::SmallDenseSet<int64_t> inputQueues;
  for (auto init : program.getBody().front().getOps<csl::InitializeQueueOp>())
    if (init.getQueueKind() == csl::QueueKind::Input)
      inputQueues.insert(init.getQueue());
  bool ok = true;
  for (const TaskBinding &task : tasks) {
    if (task.kind != TaskKind::Data ||
        inputQueues.contains(static_cast<int64_t>(task.id)))
      continue;
    diags.error(task.loc, "data task '" + task.task->name.text +
                              "' is bound to input queue " +
                              llvm::Twine(task.id) +
                              ", which no '@initialize_queue' binds to a "
                              "color (WSE-3 data tasks drain input queues)");
    ok = false;
  }
  return ok;
}

} // namespace

mlir::FailureOr<csl::ProgramOp>
mlirgen::generateProgram(mlir::OpBuilder &builder, sema::Interpreter &interp,
                         ProgramBuiltins &builtins,
                         sema::ModuleInstance &module, llvm::StringRef symbol,
                         mlir::StringAttr file, mlir::DictionaryAttr params) {
  csl::Arch arch = interp.getOptions().arch == target::Arch::WSE3
                       ? csl::Arch::WSE3
                       : csl::Arch::WSE2;
  auto program =
      csl::ProgramOp::create(builder, builder.getUnknownLoc(), symbol, arch);
  program.setFileAttr(file);
  if (params && !params.empty())
    program.setParamsAttr(params);
  if (!ProgramGenerator(interp, builtins, module, program).run()) {
    program->erase();
    return mlir::failure();
  }
  return program;
}
