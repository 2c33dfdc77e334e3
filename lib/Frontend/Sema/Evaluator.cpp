//===- Evaluator.cpp - Modules, lazy globals and calls --------------------===//

#include "Evaluator.h"

#include "llvm/ADT/ScopeExit.h"

using namespace tessera::frontend;
using namespace tessera::frontend::sema;

llvm::StringRef sema::getDeclName(const ast::Node *decl) {
  if (auto *v = llvm::dyn_cast<ast::VarDecl>(decl))
    return v->name.text;
  if (auto *f = llvm::dyn_cast<ast::FnDecl>(decl))
    return f->name.text;
  return "";
}

static llvm::SMLoc getNameLoc(const ast::Node *decl) {
  if (auto *v = llvm::dyn_cast<ast::VarDecl>(decl))
    return v->name.loc();
  if (auto *f = llvm::dyn_cast<ast::FnDecl>(decl))
    return f->name.loc();
  return decl->getLoc();
}

GlobalSlot *ModuleInstance::findGlobal(llvm::StringRef n) {
  auto it = globals.find(n);
  return it == globals.end() ? nullptr : &it->second;
}

const GlobalSlot *ModuleInstance::findGlobal(llvm::StringRef n) const {
  auto it = globals.find(n);
  return it == globals.end() ? nullptr : &it->second;
}

bool ModuleInstance::isReferenced(const ast::Node *decl) const {
  const GlobalSlot *slot = findGlobal(getDeclName(decl));
  return slot && slot->decl == decl && slot->referenced;
}

std::vector<const ast::VarDecl *> ModuleInstance::getReferencedVars() const {
  std::vector<const ast::VarDecl *> vars;
  for (const GlobalSlot *slot : order)
    if (auto *v = llvm::dyn_cast<ast::VarDecl>(slot->decl))
      if (slot->referenced && v->varKind == ast::VarKind::Var)
        vars.push_back(v);
  return vars;
}

std::vector<ModuleInstance *> ModuleInstance::getImportedModules() const {
  std::vector<ModuleInstance *> imported;
  for (const GlobalSlot *slot : order) {
    const auto *var = llvm::dyn_cast<ast::VarDecl>(slot->decl);
    if (!var || var->varKind == ast::VarKind::Param ||
        slot->state != GlobalSlot::State::Done ||
        !slot->value.is(Value::Kind::Module))
      continue;
    if (!llvm::is_contained(imported, slot->value.getModule()))
      imported.push_back(slot->value.getModule());
  }
  return imported;
}

Evaluator::Evaluator(Interpreter &facade, TypeContext &types,
                     DiagnosticEngine &diags, llvm::raw_ostream &printOS,
                     InterpreterOptions options)
    : facade(facade), types(types), diags(diags), printOS(printOS),
      options(options) {}

ModuleInstance &Evaluator::createModule(const ast::SourceFile &file,
                                        llvm::StringRef name, ParamMap params) {
  ModuleInstance &m = modules.emplace_back(file, name.str(), std::move(params));
  for (const ast::Node *decl : file.decls) {
    if (auto *cb = llvm::dyn_cast<ast::ComptimeBlock>(decl)) {
      m.comptimeBlocks.push_back(cb);
      continue;
    }
    if (auto *lb = llvm::dyn_cast<ast::LayoutBlock>(decl)) {
      if (m.layout) {
        diags.error(lb->getLoc(), "more than one layout block");
        diags.note(m.layout->getLoc(), "first layout block is here");
        continue;
      }
      m.layout = lb;
      continue;
    }
    llvm::StringRef n = getDeclName(decl);
    if (n.empty())
      continue;
    auto [it, inserted] = m.globals.try_emplace(n);
    if (!inserted) {
      diags.error(getNameLoc(decl), "redefinition of '" + n + "'");
      diags.note(getNameLoc(it->second.decl), "'" + n + "' first defined here");
      continue;
    }
    it->second.decl = decl;
    m.order.push_back(&it->second);
  }
  return m;
}

void Evaluator::beginRoot() {
  if (depth == 0 && globalStack.empty() && frames.empty()) {
    steps = 0;
    stepLimitReported = false;
  }
  flow = Flow::Normal;
}

bool Evaluator::step(llvm::SMLoc loc) {
  if (++steps <= options.maxSteps)
    return true;
  if (!stepLimitReported) {
    diags.error(loc, "comptime evaluation exceeded " +
                         llvm::Twine(options.maxSteps) +
                         " steps (loop iterations and calls); raise the "
                         "limit with --max-inlined-iterations");
    stepLimitReported = true;
  }
  flow = Flow::Error;
  return false;
}

std::optional<Value> Evaluator::getGlobal(ModuleInstance &m,
                                          llvm::StringRef name,
                                          llvm::SMLoc useLoc) {
  GlobalSlot *slot = m.findGlobal(name);
  if (!slot) {
    diags.error(useLoc, "use of undeclared identifier '" + name + "'");
    flow = Flow::Error;
    return std::nullopt;
  }
  slot->referenced = true;
  if (!evaluateGlobal(m, *slot, useLoc)) {
    flow = Flow::Error;
    return std::nullopt;
  }
  return slot->value;
}

bool Evaluator::evaluateGlobal(ModuleInstance &m, GlobalSlot &slot,
                               llvm::SMLoc useLoc) {
  using State = GlobalSlot::State;
  switch (slot.state) {
  case State::Done:
    return true;
  case State::Failed:
    return false;
  case State::InProgress: {
    std::string chain;
    bool inCycle = false;
    for (auto &[mod, s] : globalStack) {
      if (s == &slot)
        inCycle = true;
      if (inCycle) {
        chain += getDeclName(s->decl).str() + " -> ";
        s->state = State::Failed;
      }
    }
    chain += getDeclName(slot.decl).str();
    diags.error(useLoc, "dependency cycle: " + chain);
    diags.note(getNameLoc(slot.decl),
               "'" + getDeclName(slot.decl) + "' declared here");
    return false;
  }
  case State::Unevaluated:
    break;
  }
  if (depth >= options.maxCallDepth) {
    diags.error(useLoc, "comptime evaluation nested deeper than " +
                            llvm::Twine(options.maxCallDepth) +
                            " calls; raise the limit with "
                            "--comptime-func-depth-limit");
    return false;
  }
  slot.state = State::InProgress;
  ModuleScope inModule(*this, m);
  globalStack.push_back({&m, &slot});
  ++depth;
  // Evaluation of a global starts fresh: it is not inside the caller's loops.
  std::vector<Frame> savedFrames;
  savedFrames.swap(frames);
  frames.push_back(Frame{});
  llvm::scope_exit restore([&] {
    --depth;
    globalStack.pop_back();
    frames.swap(savedFrames);
  });

  std::optional<Value> v;
  if (auto *fn = llvm::dyn_cast<ast::FnDecl>(slot.decl))
    v = functionValue(m, *fn);
  else
    v = evalVarDeclGlobal(m, slot, useLoc);
  if (slot.state == State::Failed || !v) {
    // A failure during a trial call is not final: its errors were silenced.
    slot.state = trials ? State::Unevaluated : State::Failed;
    return false;
  }
  slot.value = *v;
  slot.state = State::Done;
  return true;
}

std::optional<Value> Evaluator::evalVarDeclGlobal(ModuleInstance &m,
                                                  GlobalSlot &slot,
                                                  llvm::SMLoc useLoc) {
  auto &decl = *llvm::cast<ast::VarDecl>(slot.decl);
  Env env{&m, nullptr, decl.name.text};
  const Type *declType = nullptr;
  if (decl.type && !(declType = evalType(env, *decl.type)))
    return std::nullopt;

  if (decl.varKind == ast::VarKind::Param) {
    auto it = m.params.find(decl.name.text);
    if (it != m.params.end()) {
      if (!declType)
        return it->second;
      return coerce(it->second, declType, useLoc);
    }
    if (!decl.init) {
      diags.error(useLoc, "param '" + decl.name.text +
                              "' is used but was given no value");
      diags.note(decl.name.loc(), "'" + decl.name.text + "' declared here");
      if (m.getOriginLoc().isValid())
        diags.note(m.getOriginLoc(),
                   "instantiated by this '@" + m.getOriginBuiltin() + "'");
      return std::nullopt;
    }
  }

  if (decl.varKind != ast::VarKind::Var) {
    if (!decl.init) {
      diags.error(decl.name.loc(),
                  "const '" + decl.name.text + "' needs an initializer");
      return std::nullopt;
    }
    return declType ? evalCoerced(env, *decl.init, declType)
                    : eval(env, *decl.init);
  }

  // A top-level `var` is run-time storage; its initializer is its initial
  // value and must be comptime-known.
  std::optional<Value> init;
  if (decl.init) {
    init = declType ? evalCoerced(env, *decl.init, declType)
                    : eval(env, *decl.init);
    if (!init)
      return std::nullopt;
    // The address of a global is a link-time constant, also fine.
    bool isAddress = llvm::isa<PointerType>(init->getType()) &&
                     llvm::isa_and_nonnull<ast::VarDecl>(init->getSymbol());
    if (!init->isComptimeKnown() && !isAddress) {
      diags.error(decl.init->getLoc(), "initializer of global var '" +
                                           decl.name.text +
                                           "' is not comptime-known");
      return std::nullopt;
    }
    slot.initialValue = *init;
  }
  const Type *type = declType ? declType : init ? init->getType() : nullptr;
  if (!type) {
    diags.error(decl.name.loc(),
                "var '" + decl.name.text + "' needs a type or an initializer");
    return std::nullopt;
  }
  if (type->isComptimeOnly()) {
    diags.error(decl.name.loc(), "global var '" + decl.name.text +
                                     "' cannot have comptime-only type '" +
                                     type->str() + "'");
    return std::nullopt;
  }
  return Value::getRunTime(type, &decl);
}

std::optional<Value> Evaluator::functionValue(ModuleInstance &m,
                                              const ast::FnDecl &fn) {
  // Generic functions (comptime or anytype params) get anytype in their
  // signature; their real types exist per call.
  Env env{&m, nullptr, {}};
  std::vector<const Type *> params;
  bool generic = false;
  for (const ast::ParamDecl *p : fn.params) {
    if (p->isComptime)
      generic = true;
    if (generic) {
      params.push_back(types.get(Type::Kind::AnyType));
      continue;
    }
    const Type *t = evalType(env, *p->type);
    if (!t)
      return std::nullopt;
    if (t->is(Type::Kind::AnyType))
      generic = true;
    params.push_back(t);
  }
  const Type *result = types.get(Type::Kind::AnyType);
  if (!generic && !(result = evalType(env, *fn.returnType)))
    return std::nullopt;
  return Value::getFunction(types.getFunction(params, result, fn.isTask), &fn,
                            &m);
}

bool Evaluator::bindParams(Env &env, Scope &scope, const ast::FnDecl &fn,
                           llvm::ArrayRef<Value> args, llvm::SMLoc loc,
                           bool coerceRunTime,
                           llvm::SmallVectorImpl<const Type *> *paramTypes) {
  // Params bind in order, so a later param's type may use an earlier one.
  for (auto [p, arg] : llvm::zip(fn.params, args)) {
    const Type *t = evalType(env, *p->type);
    if (!t)
      return false;
    Value bound = arg;
    if (t->is(Type::Kind::AnyType)) {
      t = arg.getType();
    } else if (coerceRunTime || arg.isComptimeKnown()) {
      std::optional<Value> coerced = coerce(arg, t, loc);
      if (!coerced) {
        diags.note(p->getLoc(),
                   "parameter '" + p->name.text + "' declared here");
        return false;
      }
      bound = *coerced;
    }
    if (p->isComptime && !arg.isComptimeKnown()) {
      diags.error(loc, "argument for comptime parameter '" + p->name.text +
                           "' is not comptime-known");
      return false;
    }
    if (paramTypes)
      paramTypes->push_back(t);
    if (!p->name.empty() && p->name.text != "_")
      scope.bind(p->name.text, {std::move(bound), p, false});
  }
  return true;
}

std::optional<Value> Evaluator::callFunction(const Value &callee,
                                             llvm::ArrayRef<Value> args,
                                             llvm::SMLoc loc,
                                             const ast::Node *) {
  if (!callee.is(Value::Kind::Function)) {
    diags.error(loc, "cannot call a value of type '" + callee.getType()->str() +
                         "'");
    flow = Flow::Error;
    return std::nullopt;
  }
  const ast::FnDecl &fn = *callee.getFunctionDecl();
  ModuleInstance &m = *callee.getModule();
  ModuleScope inModule(*this, m);
  auto fail = [&]() -> std::optional<Value> {
    flow = Flow::Error;
    return std::nullopt;
  };
  if (fn.isTask) {
    diags.error(loc, "task '" + fn.name.text + "' cannot be called");
    diags.note(fn.name.loc(), "'" + fn.name.text + "' declared here");
    return fail();
  }
  if (args.size() != fn.params.size()) {
    diags.error(loc, "'" + fn.name.text + "' expects " +
                         llvm::Twine(fn.params.size()) + " argument" +
                         (fn.params.size() == 1 ? "" : "s") + ", found " +
                         llvm::Twine(args.size()));
    diags.note(fn.name.loc(), "'" + fn.name.text + "' declared here");
    return fail();
  }
  if (!fn.body) {
    diags.error(loc,
                "cannot call extern fn '" + fn.name.text + "' at comptime");
    return fail();
  }
  if (depth >= options.maxCallDepth) {
    diags.error(loc, "comptime evaluation nested deeper than " +
                         llvm::Twine(options.maxCallDepth) +
                         " calls; raise the limit with "
                         "--comptime-func-depth-limit");
    return fail();
  }
  if (!step(loc))
    return std::nullopt;

  ++depth;
  llvm::scope_exit restoreDepth([&] { --depth; });
  Scope scope;
  Env env{&m, &scope, {}};
  if (!bindParams(env, scope, fn, args, loc, /*coerceRunTime=*/true,
                  /*paramTypes=*/nullptr))
    return fail();
  const Type *resultType = evalType(env, *fn.returnType);
  if (!resultType)
    return fail();

  frames.push_back(Frame{&fn, resultType, 0, {}});
  llvm::scope_exit popFrame([&] { frames.pop_back(); });
  unsigned errors = diags.getNumErrors();
  bool ok = execBlock(env, *fn.body);
  Value result = Value::getVoid(types);
  if (!ok) {
    if (flow != Flow::Return) {
      // Point at the outermost call too: the error may be deep in a
      // library the caller never sees.
      if (depth == 1 && diags.getNumErrors() != errors && loc.isValid())
        diags.note(loc, "in the call of '" + fn.name.text + "' here");
      return std::nullopt;
    }
    flow = Flow::Normal;
    result = flowValue;
  } else if (!resultType->is(Type::Kind::Void)) {
    diags.error(fn.body->getRange().End.getPointer()
                    ? llvm::SMLoc::getFromPointer(
                          fn.body->getRange().End.getPointer() - 1)
                    : loc,
                "'" + fn.name.text + "' must return a value of type '" +
                    resultType->str() + "'");
    return fail();
  }
  if (resultType->is(Type::Kind::AnyType))
    return result;
  std::optional<Value> coerced = coerce(result, resultType, loc);
  if (!coerced)
    return fail();
  return coerced;
}

bool Evaluator::runComptimeBlocks(ModuleInstance &m, bool inProgram) {
  bool ok = true;
  // In a program, an import runs the imported module's comptime blocks even
  // when nothing names the constant it is bound to (pipeline-03's
  // memcpy_edge binds its start-up task that way), so such constants are
  // evaluated first.
  for (GlobalSlot *slot : m.order) {
    const auto *var = llvm::dyn_cast<ast::VarDecl>(slot->decl);
    const auto *call =
        inProgram && var && var->varKind == ast::VarKind::Const
            ? llvm::dyn_cast_or_null<ast::BuiltinCall>(var->init)
            : nullptr;
    if (call && call->name.text == "import_module")
      ok &= evaluateGlobal(m, *slot, var->name.loc());
  }
  if (!ok)
    return false;
  for (const ast::ComptimeBlock *cb : m.comptimeBlocks)
    ok &= runBlock(m, *cb->body);
  return ok;
}

bool Evaluator::runBlock(ModuleInstance &m, const ast::BlockStmt &block) {
  RootGuard root(*this);
  ModuleScope inModule(*this, m);
  Env env{&m, nullptr, {}};
  return execBlock(env, block);
}

std::optional<Value> Evaluator::evaluateRoot(ModuleInstance &m,
                                             const ast::Expr &e) {
  RootGuard root(*this);
  ModuleScope inModule(*this, m);
  Env env{&m, nullptr, {}};
  return eval(env, e);
}

const Type *Evaluator::evaluateTypeRoot(ModuleInstance &m, const ast::Expr &e) {
  RootGuard root(*this);
  ModuleScope inModule(*this, m);
  Env env{&m, nullptr, {}};
  return evalType(env, e);
}

std::optional<Value>
Evaluator::evaluateWithLocals(ModuleInstance &m, const ast::Expr &e,
                              llvm::ArrayRef<Interpreter::Binding> locals) {
  RootGuard root(*this);
  ModuleScope inModule(*this, m);
  Scope scope = bindLocals(locals);
  Env env{&m, &scope, {}};
  return eval(env, e);
}

const Type *
Evaluator::evaluateTypeWithLocals(ModuleInstance &m, const ast::Expr &e,
                                  llvm::ArrayRef<Interpreter::Binding> locals) {
  RootGuard root(*this);
  ModuleScope inModule(*this, m);
  Scope scope = bindLocals(locals);
  Env env{&m, &scope, {}};
  return evalType(env, e);
}

Scope Evaluator::bindLocals(llvm::ArrayRef<Interpreter::Binding> locals) {
  Scope scope;
  for (const Interpreter::Binding &b : locals)
    scope.bind(b.name, {b.value, nullptr, false});
  return scope;
}

const FunctionType *Evaluator::instantiateSignature(const Value &callee,
                                                    llvm::ArrayRef<Value> args,
                                                    llvm::SMLoc loc) {
  RootGuard root(*this);
  const ast::FnDecl &fn = *callee.getFunctionDecl();
  ModuleInstance &m = *callee.getModule();
  if (args.size() != fn.params.size()) {
    diags.error(loc, "'" + fn.name.text + "' expects " +
                         llvm::Twine(fn.params.size()) + " argument" +
                         (fn.params.size() == 1 ? "" : "s") + ", found " +
                         llvm::Twine(args.size()));
    diags.note(fn.name.loc(), "'" + fn.name.text + "' declared here");
    return nullptr;
  }
  // Bind the params as callFunction does, so that later types can use them.
  Scope scope;
  Env env{&m, &scope, {}};
  llvm::SmallVector<const Type *, 4> params;
  if (!bindParams(env, scope, fn, args, loc, /*coerceRunTime=*/false,
                  &params))
    return nullptr;
  const Type *result = evalType(env, *fn.returnType);
  if (!result)
    return nullptr;
  return types.getFunction(params, result, /*isTask=*/false);
}

//===----------------------------------------------------------------------===//
// The public facade
//===----------------------------------------------------------------------===//

Interpreter::Interpreter(TypeContext &types, DiagnosticEngine &diags,
                         llvm::raw_ostream &printOS, InterpreterOptions options)
    : impl(std::make_unique<Evaluator>(*this, types, diags, printOS, options)) {
}

Interpreter::~Interpreter() = default;

ModuleInstance &Interpreter::createModule(const ast::SourceFile &file,
                                          llvm::StringRef name,
                                          ParamMap params) {
  return impl->createModule(file, name, std::move(params));
}

std::optional<Value> Interpreter::getGlobal(ModuleInstance &module,
                                            llvm::StringRef name,
                                            llvm::SMLoc useLoc) {
  RootGuard root(*impl);
  return impl->getGlobal(module, name, useLoc);
}

bool Interpreter::runComptimeBlocks(ModuleInstance &module, bool inProgram) {
  return impl->runComptimeBlocks(module, inProgram);
}

bool Interpreter::runBlock(ModuleInstance &module, const ast::BlockStmt &b) {
  return impl->runBlock(module, b);
}

std::optional<Value> Interpreter::evaluate(ModuleInstance &module,
                                           const ast::Expr &expr) {
  return impl->evaluateRoot(module, expr);
}

const Type *Interpreter::evaluateType(ModuleInstance &module,
                                      const ast::Expr &expr) {
  return impl->evaluateTypeRoot(module, expr);
}

std::optional<Value> Interpreter::evaluate(ModuleInstance &module,
                                           const ast::Expr &expr,
                                           llvm::ArrayRef<Binding> locals) {
  return impl->evaluateWithLocals(module, expr, locals);
}

const Type *Interpreter::evaluateType(ModuleInstance &module,
                                      const ast::Expr &expr,
                                      llvm::ArrayRef<Binding> locals) {
  return impl->evaluateTypeWithLocals(module, expr, locals);
}

const FunctionType *Interpreter::instantiateSignature(
    const Value &callee, llvm::ArrayRef<Value> args, llvm::SMLoc loc) {
  return impl->instantiateSignature(callee, args, loc);
}

std::optional<Value> Interpreter::tryCall(const Value &callee,
                                          llvm::ArrayRef<Value> args,
                                          llvm::SMLoc loc) {
  RootGuard root(*impl);
  DiagnosticEngine::Silence silence(impl->diags);
  unsigned silencedBefore = impl->diags.getNumSilencedErrors();
  ++impl->trials;
  std::optional<Value> result = impl->callFunction(callee, args, loc);
  --impl->trials;
  if (impl->diags.getNumSilencedErrors() != silencedBefore ||
      (result && !result->isComptimeKnown()))
    return std::nullopt;
  return result;
}

ModuleInstance *Interpreter::getCurrentModule() const {
  return impl->getCurrentModule();
}

std::optional<Value> Interpreter::call(const Value &callee,
                                       llvm::ArrayRef<Value> args,
                                       llvm::SMLoc loc) {
  RootGuard root(*impl);
  return impl->callFunction(callee, args, loc);
}

std::optional<Value> Interpreter::coerce(const Value &value, const Type *to,
                                         llvm::SMLoc loc) {
  return impl->coerce(value, to, loc);
}

std::optional<Value> Interpreter::convert(const Value &value, const Type *to,
                                          llvm::SMLoc loc) {
  return impl->convert(value, to, loc);
}

void Interpreter::registerBuiltin(llvm::StringRef name,
                                  BuiltinHandler handler) {
  impl->registerBuiltin(name, std::move(handler));
}

TypeContext &Interpreter::getTypes() { return impl->types; }
DiagnosticEngine &Interpreter::getDiagnostics() { return impl->diags; }
const InterpreterOptions &Interpreter::getOptions() const {
  return impl->options;
}
