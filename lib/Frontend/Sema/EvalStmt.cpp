//===- EvalStmt.cpp - Comptime execution of statements --------------------===//

#include "Evaluator.h"

#include "llvm/ADT/ScopeExit.h"

using namespace tessera::frontend;
using namespace tessera::frontend::sema;

using K = Type::Kind;

static std::optional<ast::BinaryOp> compoundOp(ast::AssignOp op) {
  switch (op) {
  case ast::AssignOp::Assign:
    return std::nullopt;
  case ast::AssignOp::Add:
    return ast::BinaryOp::Add;
  case ast::AssignOp::Sub:
    return ast::BinaryOp::Sub;
  case ast::AssignOp::Mul:
    return ast::BinaryOp::Mul;
  case ast::AssignOp::Div:
    return ast::BinaryOp::Div;
  case ast::AssignOp::Rem:
    return ast::BinaryOp::Rem;
  case ast::AssignOp::Shl:
    return ast::BinaryOp::Shl;
  case ast::AssignOp::Shr:
    return ast::BinaryOp::Shr;
  case ast::AssignOp::And:
    return ast::BinaryOp::BitAnd;
  case ast::AssignOp::Or:
    return ast::BinaryOp::BitOr;
  case ast::AssignOp::Xor:
    return ast::BinaryOp::BitXor;
  }
  return std::nullopt;
}

Value *Evaluator::lvalue(Env &env, const ast::Expr &e) {
  auto fail = [&]() -> Value * {
    flow = Flow::Error;
    return nullptr;
  };
  switch (e.getKind()) {
  case ast::Node::Kind::ParenExpr:
    return lvalue(env, *llvm::cast<ast::ParenExpr>(e).inner);
  case ast::Node::Kind::Identifier: {
    const ast::Name &name = llvm::cast<ast::Identifier>(e).name;
    for (Scope *s = env.scope; s; s = s->parent) {
      Scope::Binding *binding = s->find(name.text);
      if (!binding)
        continue;
      if (!binding->isMutable) {
        diags.error(name.loc(),
                    "cannot assign to constant '" + name.text + "'");
        return fail();
      }
      return &binding->value;
    }
    if (GlobalSlot *g = env.module->findGlobal(name.text)) {
      auto *v = llvm::dyn_cast<ast::VarDecl>(g->decl);
      if (v && v->varKind == ast::VarKind::Var)
        diags.error(name.loc(), "cannot assign to run-time variable '" +
                                    name.text + "' at comptime");
      else
        diags.error(name.loc(),
                    "cannot assign to constant '" + name.text + "'");
      return fail();
    }
    diags.error(name.loc(), "use of undeclared identifier '" + name.text + "'");
    return fail();
  }
  case ast::Node::Kind::IndexExpr: {
    auto &ix = llvm::cast<ast::IndexExpr>(e);
    std::vector<uint64_t> indices;
    for (const ast::Expr *i : ix.indices) {
      std::optional<uint64_t> n = evalIndex(env, *i, "index");
      if (!n)
        return nullptr;
      indices.push_back(*n);
    }
    Value *base = lvalue(env, *ix.base);
    if (!base)
      return nullptr;
    if (base->is(Value::Kind::Struct) && base->isTuple() &&
        indices.size() == 1) {
      auto &fields = base->getMutableFields();
      if (indices[0] >= fields.size()) {
        diags.error(ix.indices[0]->getLoc(),
                    "index " + llvm::Twine(indices[0]) +
                        " is out of bounds for a tuple of " +
                        llvm::Twine(fields.size()) + " elements");
        return fail();
      }
      return &fields[indices[0]].value;
    }
    auto *at = llvm::dyn_cast<ArrayType>(base->getType());
    if (!at || !base->is(Value::Kind::Array)) {
      diags.error(ix.getLoc(), "cannot assign to an element of '" +
                                   base->getType()->str() + "' at comptime");
      return fail();
    }
    if (indices.size() != at->getDims().size()) {
      diags.error(ix.getLoc(), "expected " + llvm::Twine(at->getDims().size()) +
                                   " indices for '" + at->str() + "', found " +
                                   llvm::Twine(indices.size()));
      return fail();
    }
    uint64_t flat = 0;
    for (size_t d = 0; d < indices.size(); ++d) {
      if (indices[d] >= at->getDims()[d]) {
        diags.error(ix.indices[d]->getLoc(),
                    "index " + llvm::Twine(indices[d]) +
                        " is out of bounds for '" + at->str() + "'");
        return fail();
      }
      flat = flat * at->getDims()[d] + indices[d];
    }
    return &base->getMutableElements()[flat];
  }
  case ast::Node::Kind::FieldAccess: {
    auto &fa = llvm::cast<ast::FieldAccess>(e);
    Value *base = lvalue(env, *fa.base);
    if (!base)
      return nullptr;
    if (base->is(Value::Kind::Struct))
      for (FieldValue &f : base->getMutableFields())
        if (f.name == fa.field.text)
          return &f.value;
    diags.error(fa.field.loc(), "no field named '" + fa.field.text + "' in '" +
                                    base->getType()->str() + "'");
    return fail();
  }
  default:
    diags.error(e.getLoc(), "cannot assign to this expression at comptime");
    return fail();
  }
}

bool Evaluator::execBlock(Env &env, const ast::BlockStmt &b,
                          Value *breakValue) {
  Scope scope;
  scope.parent = env.scope;
  Env inner = env;
  inner.scope = &scope;
  inner.declName = {};
  Frame &frame = frames.back();
  if (!b.label.empty())
    frame.labels.push_back({b.label.text, false});
  llvm::scope_exit popLabel([&, n = frame.labels.size()] {
    if (!b.label.empty())
      frames.back().labels.resize(n - 1);
  });
  for (const ast::Stmt *s : b.stmts) {
    if (exec(inner, *s))
      continue;
    if (flow == Flow::Break && !b.label.empty() && flowLabel == b.label.text) {
      flow = Flow::Normal;
      if (breakValue)
        *breakValue = flowValue;
      return true;
    }
    return false;
  }
  return true;
}

/// Whether an abrupt completion is a break/continue aimed at this loop.
static bool targets(Flow flow, Flow kind, llvm::StringRef flowLabel,
                    const ast::Name &loopLabel) {
  return flow == kind && (flowLabel.empty() ||
                          (!loopLabel.empty() && flowLabel == loopLabel.text));
}

bool Evaluator::exec(Env &env, const ast::Stmt &s) {
  auto fail = [&]() {
    flow = Flow::Error;
    return false;
  };
  switch (s.getKind()) {
  case ast::Node::Kind::VarDecl: {
    auto &d = llvm::cast<ast::VarDecl>(s);
    if (d.varKind == ast::VarKind::Param) {
      diags.error(d.getLoc(), "param declarations are only allowed at the "
                              "top level of a file");
      return fail();
    }
    if (Scope::Binding *existing = env.scope->find(d.name.text)) {
      diags.error(d.name.loc(), "redefinition of '" + d.name.text + "'");
      diags.note(existing->decl->getLoc(),
                 "'" + d.name.text + "' first defined here");
      return fail();
    }
    const Type *type = nullptr;
    if (d.type && !(type = evalType(env, *d.type)))
      return false;
    std::optional<Value> value;
    if (d.init) {
      Env initEnv = env;
      initEnv.declName = d.name.text;
      value =
          type ? evalCoerced(initEnv, *d.init, type) : eval(initEnv, *d.init);
      if (!value)
        return false;
    } else if (d.varKind == ast::VarKind::Const) {
      diags.error(d.name.loc(),
                  "const '" + d.name.text + "' needs an initializer");
      return fail();
    } else if (!type) {
      diags.error(d.name.loc(),
                  "var '" + d.name.text + "' needs a type or an initializer");
      return fail();
    } else if (type->isNumeric() || type->is(K::Bool) || type->is(K::Array) ||
               type->is(K::Struct)) {
      // A var without an initializer is zero-filled.
      if (!(value = zeroValue(type, d.name.loc())))
        return fail();
    } else {
      value = Value::getRunTime(type, &d);
    }
    env.scope->bind(d.name.text, {std::move(*value), &d,
                                  d.varKind == ast::VarKind::Var});
    return true;
  }
  case ast::Node::Kind::ComptimeBlock:
    return execBlock(env, *llvm::cast<ast::ComptimeBlock>(s).body);
  case ast::Node::Kind::BlockStmt:
    return execBlock(env, llvm::cast<ast::BlockStmt>(s));
  case ast::Node::Kind::ExprStmt:
    return eval(env, *llvm::cast<ast::ExprStmt>(s).expr).has_value();
  case ast::Node::Kind::AssignStmt: {
    auto &a = llvm::cast<ast::AssignStmt>(s);
    std::optional<Value> rhs = eval(env, *a.value);
    if (!rhs)
      return false;
    Value *target = lvalue(env, *a.target);
    if (!target)
      return false;
    std::optional<Value> result = rhs;
    if (std::optional<ast::BinaryOp> op = compoundOp(a.op))
      result = binary(*op, *target, *rhs, a.getLoc());
    if (!result)
      return fail();
    // A comptime var keeps its type; `var x = 0` stays a comptime_int.
    std::optional<Value> stored =
        coerce(*result, target->getType(), a.value->getLoc());
    if (!stored)
      return fail();
    *target = *stored;
    return true;
  }
  case ast::Node::Kind::IfStmt: {
    auto &i = llvm::cast<ast::IfStmt>(s);
    std::optional<bool> c = evalCondition(env, *i.cond);
    if (!c)
      return false;
    // The untaken branch is never analysed.
    if (*c)
      return exec(env, *i.thenStmt);
    if (i.elseStmt)
      return exec(env, *i.elseStmt);
    return true;
  }
  case ast::Node::Kind::WhileStmt: {
    auto &w = llvm::cast<ast::WhileStmt>(s);
    Frame &frame = frames.back();
    ++frame.loopDepth;
    if (!w.label.empty())
      frame.labels.push_back({w.label.text, true});
    llvm::scope_exit restore([&, n = frame.labels.size()] {
      --frames.back().loopDepth;
      if (!w.label.empty())
        frames.back().labels.resize(n - 1);
    });
    while (true) {
      std::optional<bool> c = evalCondition(env, *w.cond);
      if (!c)
        return false;
      if (!*c)
        return true;
      if (!step(w.getLoc()))
        return false;
      if (!exec(env, *w.body)) {
        if (targets(flow, Flow::Break, flowLabel, w.label)) {
          flow = Flow::Normal;
          return true;
        }
        if (!targets(flow, Flow::Continue, flowLabel, w.label))
          return false;
        flow = Flow::Normal;
      }
      if (w.continueStmt && !exec(env, *w.continueStmt))
        return false;
    }
  }
  case ast::Node::Kind::ForStmt: {
    auto &f = llvm::cast<ast::ForStmt>(s);
    for (const ast::Capture *c : f.captures)
      if (c->isPointer) {
        diags.error(c->getLoc(),
                    "pointer captures are not supported at comptime");
        return fail();
      }
    std::optional<RangeSpec> range;
    std::optional<Value> iterable;
    uint64_t count = 0;
    auto *bc = llvm::dyn_cast<ast::BuiltinCall>(f.iterable);
    if (bc && bc->name.text == "range") {
      if (!(range = evalRange(env, *bc)))
        return false;
      count = range->count;
    } else {
      if (!(iterable = evalComptime(env, *f.iterable, "loop iterable")))
        return false;
      if (iterable->is(Value::Kind::Array)) {
        count = iterable->getElements().size();
      } else if (iterable->is(Value::Kind::Struct) &&
                 (iterable->isTuple() || iterable->getFields().empty())) {
        count = iterable->getFields().size();
      } else {
        diags.error(f.iterable->getLoc(), "cannot iterate over a value of "
                                          "type '" +
                                              iterable->getType()->str() + "'");
        return fail();
      }
    }
    Frame &frame = frames.back();
    ++frame.loopDepth;
    if (!f.label.empty())
      frame.labels.push_back({f.label.text, true});
    llvm::scope_exit restore([&, n = frame.labels.size()] {
      --frames.back().loopDepth;
      if (!f.label.empty())
        frames.back().labels.resize(n - 1);
    });
    for (uint64_t i = 0; i < count; ++i) {
      if (!step(f.getLoc()))
        return false;
      Scope scope;
      scope.parent = env.scope;
      Env inner = env;
      inner.scope = &scope;
      Value element = range ? rangeElement(*range, i)
                      : iterable->is(Value::Kind::Array)
                          ? iterable->getElements()[i]
                          : iterable->getFields()[i].value;
      Value index = Value::getComptimeInt(types, static_cast<int64_t>(i));
      for (size_t c = 0; c < f.captures.size() && c < 2; ++c) {
        llvm::StringRef name = f.captures[c]->name.text;
        if (name != "_")
          scope.bind(name, {c == 0 ? element : index, f.captures[c], false});
      }
      if (!exec(inner, *f.body)) {
        if (targets(flow, Flow::Break, flowLabel, f.label)) {
          flow = Flow::Normal;
          return true;
        }
        if (!targets(flow, Flow::Continue, flowLabel, f.label))
          return false;
        flow = Flow::Normal;
      }
    }
    return true;
  }
  case ast::Node::Kind::ReturnStmt: {
    auto &r = llvm::cast<ast::ReturnStmt>(s);
    if (!frames.back().fn) {
      diags.error(r.getLoc(), "'return' outside of a function");
      return fail();
    }
    Value v = Value::getVoid(types);
    if (r.value) {
      std::optional<Value> rv = eval(env, *r.value);
      if (!rv)
        return false;
      v = *rv;
    }
    flowValue = v;
    flowLabel = {};
    flow = Flow::Return;
    return false;
  }
  case ast::Node::Kind::BreakStmt:
  case ast::Node::Kind::ContinueStmt: {
    bool isBreak = s.getKind() == ast::Node::Kind::BreakStmt;
    const ast::Name &label = isBreak ? llvm::cast<ast::BreakStmt>(s).label
                                     : llvm::cast<ast::ContinueStmt>(s).label;
    llvm::StringRef keyword = isBreak ? "break" : "continue";
    Frame &frame = frames.back();
    if (!label.empty()) {
      auto it = llvm::find_if(llvm::reverse(frame.labels),
                              [&](auto &l) { return l.first == label.text; });
      if (it == frame.labels.rend()) {
        diags.error(label.loc(),
                    "use of undeclared label '" + label.text + "'");
        return fail();
      }
      if (!isBreak && !it->second) {
        diags.error(label.loc(), "'continue' needs a loop label, but '" +
                                     label.text + "' labels a block");
        return fail();
      }
    } else if (frame.loopDepth == 0) {
      diags.error(s.getLoc(), "'" + keyword + "' outside of a loop");
      return fail();
    }
    Value v = Value::getVoid(types);
    if (isBreak)
      if (const ast::Expr *e = llvm::cast<ast::BreakStmt>(s).value) {
        std::optional<Value> bv = eval(env, *e);
        if (!bv)
          return false;
        v = *bv;
      }
    flowValue = v;
    flowLabel = label.text;
    flow = isBreak ? Flow::Break : Flow::Continue;
    return false;
  }
  default:
    diags.error(s.getLoc(), "cannot execute this statement at comptime");
    return fail();
  }
}
