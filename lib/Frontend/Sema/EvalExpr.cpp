//===- EvalExpr.cpp - Comptime evaluation of expressions ------------------===//

#include "Evaluator.h"

#include "llvm/ADT/ScopeExit.h"

using namespace tessera::frontend;
using namespace tessera::frontend::sema;

using K = Type::Kind;

namespace {
/// The predeclared direction constants, in the order of their handle IDs.
const char *const kDirections[] = {"RAMP", "EAST", "WEST", "SOUTH", "NORTH"};
} // namespace

Scope::Binding *Scope::find(llvm::StringRef name) {
  if (!index.empty()) {
    auto it = index.find(name);
    return it == index.end() ? nullptr : &names[it->second].second;
  }
  // Comparing the first character first skips most memcmp calls.
  for (auto &[n, binding] : names)
    if (n.size() == name.size() && (n.empty() || n[0] == name[0]) && n == name)
      return &binding;
  return nullptr;
}

void Scope::bind(llvm::StringRef name, Binding binding) {
  if (Binding *existing = find(name)) {
    *existing = std::move(binding);
    return;
  }
  names.emplace_back(name, std::move(binding));
  if (names.size() == kIndexFrom)
    for (unsigned i = 0; i < names.size(); ++i)
      index[names[i].first] = i;
  else if (names.size() > kIndexFrom)
    index[name] = names.size() - 1;
}

std::optional<Value> Evaluator::lookup(Env &env, const ast::Name &name) {
  for (Scope *s = env.scope; s; s = s->parent)
    if (Scope::Binding *binding = s->find(name.text))
      return binding->value;
  if (GlobalSlot *slot = env.module->findGlobal(name.text)) {
    // getGlobal without looking the name up again.
    slot->referenced = true;
    if (!evaluateGlobal(*env.module, *slot, name.loc())) {
      flow = Flow::Error;
      return std::nullopt;
    }
    return slot->value;
  }
  if (const Type *t = types.lookupBuiltinTypeName(name.text))
    return Value::getType(types, t);
  for (unsigned i = 0; i < 5; ++i)
    if (name.text == kDirections[i])
      return Value::getHandle(types.get(K::Direction), i);
  diags.error(name.loc(), "use of undeclared identifier '" + name.text + "'");
  flow = Flow::Error;
  return std::nullopt;
}

std::optional<Value> Evaluator::evalComptime(Env &env, const ast::Expr &e,
                                             const llvm::Twine &what) {
  std::optional<Value> v = eval(env, e);
  if (v && !v->isComptimeKnown()) {
    diags.error(e.getLoc(), what + " is not comptime-known");
    flow = Flow::Error;
    return std::nullopt;
  }
  return v;
}

const Type *Evaluator::evalType(Env &env, const ast::Expr &e) {
  std::optional<Value> v = evalComptime(env, e, "type");
  if (!v)
    return nullptr;
  if (!v->is(Value::Kind::Type)) {
    diags.error(e.getLoc(),
                "expected 'type', found '" + v->getType()->str() + "'");
    flow = Flow::Error;
    return nullptr;
  }
  return v->getTypeValue();
}

std::optional<Value> Evaluator::evalCoerced(Env &env, const ast::Expr &e,
                                            const Type *to) {
  std::optional<Value> v = eval(env, e);
  if (!v)
    return std::nullopt;
  std::optional<Value> c = coerce(*v, to, e.getLoc());
  if (!c)
    flow = Flow::Error;
  return c;
}

std::optional<bool> Evaluator::evalCondition(Env &env, const ast::Expr &e) {
  std::optional<Value> v = eval(env, e);
  if (!v)
    return std::nullopt;
  if (!v->getType()->is(K::Bool)) {
    diags.error(e.getLoc(),
                "expected 'bool', found '" + v->getType()->str() + "'");
    flow = Flow::Error;
    return std::nullopt;
  }
  if (!v->isComptimeKnown()) {
    diags.error(e.getLoc(), "condition is not comptime-known");
    flow = Flow::Error;
    return std::nullopt;
  }
  return v->getBool();
}

std::optional<uint64_t> Evaluator::evalIndex(Env &env, const ast::Expr &e,
                                             llvm::StringRef what) {
  std::optional<Value> v = evalComptime(env, e, what);
  if (!v)
    return std::nullopt;
  if (!v->is(Value::Kind::Int)) {
    diags.error(e.getLoc(), "expected an integer " + what + ", found '" +
                                v->getType()->str() + "'");
    flow = Flow::Error;
    return std::nullopt;
  }
  const llvm::APSInt &i = v->getInt();
  if (i.isNegative() || i.getActiveBits() > 63) {
    diags.error(e.getLoc(), what + " " + intToString(i) + " is out of range");
    flow = Flow::Error;
    return std::nullopt;
  }
  return i.getZExtValue();
}

/// The value of an integer literal, including those beyond 64 bits.
static llvm::APSInt integerLiteralValue(const ast::IntegerLiteral &lit) {
  // 64 bits hold most literals without APInt's heap storage.
  if (!lit.overflows && lit.value <= uint64_t(INT64_MAX))
    return llvm::APSInt(llvm::APInt(64, lit.value), false);
  if (!lit.overflows)
    return llvm::APSInt(llvm::APInt(65, lit.value), false);
  llvm::StringRef s = lit.spelling;
  unsigned radix = 10;
  if (s.starts_with("0x") || s.starts_with("0X"))
    radix = 16;
  else if (s.starts_with("0o"))
    radix = 8;
  else if (s.starts_with("0b"))
    radix = 2;
  if (radix != 10)
    s = s.drop_front(2);
  std::string digits;
  for (char c : s)
    if (c != '_')
      digits += c;
  unsigned bits = digits.size() * 4 + 2;
  llvm::APInt v(bits, digits, radix);
  return llvm::APSInt(v, false);
}

namespace {
/// Lets a registered builtin evaluate its arguments in the caller's scope.
class EvaluatorBuiltinArgs : public BuiltinArgs {
public:
  EvaluatorBuiltinArgs(Evaluator &ev, Env &env, const ast::BuiltinCall &call)
      : BuiltinArgs(call), ev(ev), env(env) {}
  std::optional<Value> evaluate(unsigned i) override {
    return ev.eval(env, *call.args[i]);
  }
  const Type *evaluateType(unsigned i) override {
    return ev.evalType(env, *call.args[i]);
  }
  Interpreter &getInterpreter() override { return ev.facade; }

private:
  Evaluator &ev;
  Env &env;
};

} // namespace

static std::optional<Value> typeExpr(Evaluator &ev, Env &env,
                                     const ast::Expr &e);

std::optional<Value> Evaluator::eval(Env &env, const ast::Expr &e) {
  auto fail = [&]() -> std::optional<Value> {
    flow = Flow::Error;
    return std::nullopt;
  };
  switch (e.getKind()) {
  case ast::Node::Kind::IntegerLiteral:
    return Value::getComptimeInt(
        types, integerLiteralValue(llvm::cast<ast::IntegerLiteral>(e)));
  case ast::Node::Kind::FloatLiteral:
    return Value::getFloat(types.getComptimeFloat(),
                           llvm::cast<ast::FloatLiteral>(e).value);
  case ast::Node::Kind::CharLiteral:
    return Value::getComptimeInt(types, llvm::cast<ast::CharLiteral>(e).value);
  case ast::Node::Kind::StringLiteral:
    return Value::getString(types, llvm::cast<ast::StringLiteral>(e).value);
  case ast::Node::Kind::BoolLiteral:
    return Value::getBool(types, llvm::cast<ast::BoolLiteral>(e).value);
  case ast::Node::Kind::VoidLiteral:
    return Value::getVoid(types);
  case ast::Node::Kind::Identifier:
    return lookup(env, llvm::cast<ast::Identifier>(e).name);
  case ast::Node::Kind::EnumLiteral:
    return Value::getEnumLiteral(types,
                                 llvm::cast<ast::EnumLiteral>(e).name.text);
  case ast::Node::Kind::BuiltinCall: {
    auto &call = llvm::cast<ast::BuiltinCall>(e);
    auto it = userBuiltins.find(call.name.text);
    if (it != userBuiltins.end()) {
      EvaluatorBuiltinArgs args(*this, env, call);
      std::optional<Value> v = it->second(args);
      if (!v && flow == Flow::Normal)
        flow = Flow::Error;
      return v;
    }
    return evalBuiltin(env, call);
  }
  case ast::Node::Kind::CallExpr: {
    auto &call = llvm::cast<ast::CallExpr>(e);
    std::optional<Value> callee = eval(env, *call.callee);
    if (!callee)
      return std::nullopt;
    llvm::SmallVector<Value, 4> args;
    for (const ast::Expr *a : call.args) {
      std::optional<Value> v = eval(env, *a);
      if (!v)
        return std::nullopt;
      args.push_back(*v);
    }
    return callFunction(*callee, args, call.getLoc());
  }
  case ast::Node::Kind::FieldAccess: {
    auto &fa = llvm::cast<ast::FieldAccess>(e);
    std::optional<Value> base = eval(env, *fa.base);
    if (!base)
      return std::nullopt;
    llvm::StringRef field = fa.field.text;
    if (base->is(Value::Kind::Module))
      return getGlobal(*base->getModule(), field, fa.field.loc());
    if (base->is(Value::Kind::Type)) {
      if (auto *et = llvm::dyn_cast<EnumType>(base->getTypeValue()))
        if (std::optional<unsigned> m = et->findMember(field))
          return Value::getEnumValue(et, *m);
      diags.error(fa.field.loc(), "type '" + base->getTypeValue()->str() +
                                      "' has no member named '" + field + "'");
      return fail();
    }
    if (base->is(Value::Kind::Struct)) {
      if (const Value *v = base->findField(field))
        return *v;
      diags.error(fa.field.loc(), "no field named '" + field + "' in '" +
                                      base->getType()->str() + "'");
      return fail();
    }
    if (!base->isComptimeKnown())
      if (auto *st = llvm::dyn_cast<StructType>(base->getType()))
        if (std::optional<unsigned> i = st->findField(field))
          return Value::getRunTime(st->getFields()[*i].type, base->getSymbol());
    diags.error(fa.field.loc(), "no field named '" + field + "' in '" +
                                    base->getType()->str() + "'");
    return fail();
  }
  case ast::Node::Kind::DerefExpr: {
    auto &d = llvm::cast<ast::DerefExpr>(e);
    std::optional<Value> base = eval(env, *d.base);
    if (!base)
      return std::nullopt;
    if (auto *pt = llvm::dyn_cast<PointerType>(base->getType()))
      return Value::getRunTime(pt->getPointee(), base->getSymbol());
    diags.error(d.getLoc(),
                "expected a pointer, found '" + base->getType()->str() + "'");
    return fail();
  }
  case ast::Node::Kind::IndexExpr: {
    auto &ix = llvm::cast<ast::IndexExpr>(e);
    std::optional<Value> base = eval(env, *ix.base);
    if (!base)
      return std::nullopt;
    std::vector<Value> indices;
    for (const ast::Expr *i : ix.indices) {
      std::optional<Value> v = eval(env, *i);
      if (!v)
        return std::nullopt;
      if (!v->getType()->isInteger()) {
        diags.error(i->getLoc(), "expected an integer index, found '" +
                                     v->getType()->str() + "'");
        return fail();
      }
      indices.push_back(*v);
    }
    const Type *bt = base->getType();
    if (base->isTuple() ||
        (base->is(Value::Kind::Struct) && base->getFields().empty())) {
      if (indices.size() != 1 || !indices[0].isComptimeKnown()) {
        diags.error(ix.getLoc(), "a tuple needs one comptime-known index");
        return fail();
      }
      const llvm::APSInt &i = indices[0].getInt();
      size_t n = base->getFields().size();
      if (i.isNegative() || i.getActiveBits() > 63 || i.getZExtValue() >= n) {
        diags.error(ix.indices[0]->getLoc(),
                    "index " + intToString(i) +
                        " is out of bounds for a tuple of " + llvm::Twine(n) +
                        " element" + (n == 1 ? "" : "s"));
        return fail();
      }
      return base->getFields()[i.getZExtValue()].value;
    }
    const Type *element = nullptr;
    auto *at = llvm::dyn_cast<ArrayType>(bt);
    if (auto *pt = llvm::dyn_cast<PointerType>(bt)) {
      auto *pointeeArray = llvm::dyn_cast<ArrayType>(pt->getPointee());
      element = pt->isMany()   ? pt->getPointee()
                : pointeeArray ? pointeeArray->getElementType()
                               : nullptr;
      at = pointeeArray;
    } else if (at) {
      element = at->getElementType();
    }
    if (!element) {
      diags.error(ix.getLoc(),
                  "cannot index a value of type '" + bt->str() + "'");
      return fail();
    }
    if (at && indices.size() != at->getDims().size()) {
      diags.error(ix.getLoc(), "expected " + llvm::Twine(at->getDims().size()) +
                                   " indices for '" + at->str() + "', found " +
                                   llvm::Twine(indices.size()));
      return fail();
    }
    bool known = base->isComptimeKnown();
    for (const Value &v : indices)
      known &= v.isComptimeKnown();
    if (!known || !at || !base->is(Value::Kind::Array))
      return Value::getRunTime(element, base->getSymbol());
    uint64_t flat = 0;
    for (size_t d = 0; d < indices.size(); ++d) {
      const llvm::APSInt &i = indices[d].getInt();
      uint64_t dim = at->getDims()[d];
      if (i.isNegative() || i.getActiveBits() > 63 || i.getZExtValue() >= dim) {
        diags.error(ix.indices[d]->getLoc(), "index " + intToString(i) +
                                                 " is out of bounds for '" +
                                                 at->str() + "'");
        return fail();
      }
      flat = flat * dim + i.getZExtValue();
    }
    return base->getElements()[flat];
  }
  case ast::Node::Kind::UnaryExpr: {
    auto &u = llvm::cast<ast::UnaryExpr>(e);
    std::optional<Value> v = eval(env, *u.operand);
    if (!v)
      return std::nullopt;
    if (u.op == ast::UnaryOp::AddressOf) {
      const ast::Node *sym = v->getSymbol();
      // `&table` of a comptime-known global const: the address of its
      // storage, which run-time code reads as a constant global.
      if (const auto *id = llvm::dyn_cast<ast::Identifier>(u.operand);
          !sym && id) {
        bool isLocal = false;
        for (Scope *s = env.scope; s && !isLocal; s = s->parent)
          isLocal = s->find(id->name.text) != nullptr;
        if (const GlobalSlot *slot =
                isLocal ? nullptr : env.module->findGlobal(id->name.text))
          sym = llvm::dyn_cast_or_null<ast::VarDecl>(slot->decl);
      }
      auto *var = llvm::dyn_cast_or_null<ast::VarDecl>(sym);
      bool isConst = !var || var->varKind != ast::VarKind::Var;
      return Value::getRunTime(
          types.getPointer(v->getType(), /*many=*/false, isConst), sym);
    }
    std::optional<Value> r = unary(u.op, *v, u.getLoc());
    return r ? r : fail();
  }
  case ast::Node::Kind::BinaryExpr: {
    auto &b = llvm::cast<ast::BinaryExpr>(e);
    std::optional<Value> lhs = eval(env, *b.lhs);
    if (!lhs)
      return std::nullopt;
    bool isAnd = b.op == ast::BinaryOp::And, isOr = b.op == ast::BinaryOp::Or;
    if ((isAnd || isOr) && lhs->is(Value::Kind::Bool) && lhs->getBool() == isOr)
      return lhs; // short-circuit: the right side is not analysed
    std::optional<Value> rhs = eval(env, *b.rhs);
    if (!rhs)
      return std::nullopt;
    // `x.* == y` style checks are fine; everything else is in binary().
    std::optional<Value> r = binary(b.op, *lhs, *rhs, b.getLoc());
    return r ? r : fail();
  }
  case ast::Node::Kind::ParenExpr:
    return eval(env, *llvm::cast<ast::ParenExpr>(e).inner);
  case ast::Node::Kind::IfExpr: {
    auto &i = llvm::cast<ast::IfExpr>(e);
    std::optional<bool> c = evalCondition(env, *i.cond);
    if (!c)
      return std::nullopt;
    if (*c)
      return eval(env, *i.thenExpr);
    if (i.elseExpr)
      return eval(env, *i.elseExpr);
    return Value::getVoid(types);
  }
  case ast::Node::Kind::SwitchExpr: {
    auto &sw = llvm::cast<ast::SwitchExpr>(e);
    std::optional<Value> subject =
        evalComptime(env, *sw.subject, "switch subject");
    if (!subject)
      return std::nullopt;
    const ast::SwitchProng *chosen = nullptr, *elseProng = nullptr;
    for (const ast::SwitchProng *p : sw.prongs) {
      if (p->isElse) {
        elseProng = p;
        continue;
      }
      for (const ast::Expr *pv : p->values) {
        std::optional<Value> v = evalComptime(env, *pv, "switch prong value");
        if (!v)
          return std::nullopt;
        std::optional<Value> same =
            binary(ast::BinaryOp::Eq, *subject, *v, pv->getLoc());
        if (!same)
          return fail();
        if (same->getBool()) {
          chosen = p;
          break;
        }
      }
      if (chosen)
        break;
    }
    if (!chosen)
      chosen = elseProng;
    if (!chosen) {
      diags.error(sw.getLoc(), "no switch prong matches " + subject->str());
      return fail();
    }
    if (auto *es = llvm::dyn_cast<ast::ExprStmt>(chosen->body))
      return eval(env, *es->expr);
    if (!exec(env, *chosen->body))
      return std::nullopt;
    return Value::getVoid(types);
  }
  case ast::Node::Kind::StructLiteral: {
    auto &sl = llvm::cast<ast::StructLiteral>(e);
    std::vector<FieldValue> fields;
    fields.reserve(sl.fields.size());
    for (const ast::FieldInit *fi : sl.fields) {
      for (size_t i = 0; i < fields.size(); ++i)
        if (fields[i].name == fi->name.text) {
          diags.error(fi->name.loc(), "duplicate field '" + fi->name.text +
                                          "' in struct literal");
          diags.note(sl.fields[i]->name.loc(), "first given here");
          return fail();
        }
      std::optional<Value> v = eval(env, *fi->value);
      if (!v)
        return std::nullopt;
      fields.push_back({fi->name.text.str(), std::move(*v)});
    }
    return Value::getStruct(types.getComptimeStruct(), std::move(fields));
  }
  case ast::Node::Kind::TupleLiteral: {
    auto &tuple = llvm::cast<ast::TupleLiteral>(e);
    std::vector<FieldValue> fields;
    fields.reserve(tuple.elements.size());
    for (const ast::Expr *el : tuple.elements) {
      std::optional<Value> v = eval(env, *el);
      if (!v)
        return std::nullopt;
      fields.push_back({"", std::move(*v)});
    }
    return Value::getStruct(types.getComptimeStruct(), std::move(fields));
  }
  case ast::Node::Kind::ArrayLiteral: {
    auto &al = llvm::cast<ast::ArrayLiteral>(e);
    auto *atExpr = llvm::dyn_cast<ast::ArrayType>(al.type);
    const Type *arrayType = nullptr;
    if (atExpr && atExpr->dims.size() == 1) {
      auto *id = llvm::dyn_cast<ast::Identifier>(atExpr->dims[0]);
      if (id && id->name.text == "_") {
        const Type *element = evalType(env, *atExpr->element);
        if (!element)
          return std::nullopt;
        arrayType = types.getArray({al.elements.size()}, element);
      }
    }
    if (!arrayType && !(arrayType = evalType(env, *al.type)))
      return std::nullopt;
    auto *at = llvm::dyn_cast<ArrayType>(arrayType);
    if (!at) {
      diags.error(al.type->getLoc(),
                  "expected an array type, found '" + arrayType->str() + "'");
      return fail();
    }
    if (al.elements.size() != at->getNumElements()) {
      diags.error(al.getLoc(), "expected " + llvm::Twine(at->getNumElements()) +
                                   " elements for '" + at->str() + "', found " +
                                   llvm::Twine(al.elements.size()));
      return fail();
    }
    std::vector<Value> elements;
    bool known = true;
    for (const ast::Expr *el : al.elements) {
      std::optional<Value> v = evalCoerced(env, *el, at->getElementType());
      if (!v)
        return std::nullopt;
      known &= v->isComptimeKnown();
      elements.push_back(*v);
    }
    if (!known)
      return Value::getRunTime(at);
    return Value::getArray(at, std::move(elements));
  }
  case ast::Node::Kind::TensorAccess:
    diags.error(e.getLoc(),
                "a tensor access is only allowed as a DSD's '.tensor_access'");
    return fail();
  case ast::Node::Kind::ComptimeExpr:
    return evalComptime(env, *llvm::cast<ast::ComptimeExpr>(e).operand,
                        "expression");
  case ast::Node::Kind::BlockExpr: {
    Value result = Value::getVoid(types);
    if (!execBlock(env, *llvm::cast<ast::BlockExpr>(e).block, &result))
      return std::nullopt;
    return result;
  }
  default:
    return typeExpr(*this, env, e);
  }
}

/// Type constructors: `*T`, `[N]T`, `fn(...) T`, `struct {...}`, `enum {...}`.
static std::optional<Value> typeExpr(Evaluator &ev, Env &env,
                                     const ast::Expr &e) {
  TypeContext &types = ev.types;
  auto fail = [&]() -> std::optional<Value> {
    ev.flow = Flow::Error;
    return std::nullopt;
  };
  auto typeValue = [&](const Type *t) -> std::optional<Value> {
    if (!t)
      return std::nullopt;
    return Value::getType(types, t);
  };
  switch (e.getKind()) {
  case ast::Node::Kind::PointerType: {
    auto &p = llvm::cast<ast::PointerType>(e);
    const Type *pointee = ev.evalType(env, *p.pointee);
    if (!pointee)
      return std::nullopt;
    return typeValue(types.getPointer(pointee, p.isMany, p.isConst));
  }
  case ast::Node::Kind::ArrayType: {
    auto &a = llvm::cast<ast::ArrayType>(e);
    llvm::SmallVector<uint64_t, 2> dims;
    for (const ast::Expr *d : a.dims) {
      auto *id = llvm::dyn_cast<ast::Identifier>(d);
      if (id && id->name.text == "_") {
        ev.diags.error(d->getLoc(),
                       "array length '_' is only allowed in an array literal");
        return fail();
      }
      std::optional<uint64_t> n = ev.evalIndex(env, *d, "array length");
      if (!n)
        return std::nullopt;
      dims.push_back(*n);
    }
    const Type *element = ev.evalType(env, *a.element);
    if (!element)
      return std::nullopt;
    return typeValue(types.getArray(dims, element));
  }
  case ast::Node::Kind::FnType: {
    auto &f = llvm::cast<ast::FnType>(e);
    std::vector<const Type *> params;
    for (const ast::ParamDecl *p : f.params) {
      const Type *t =
          p->isComptime ? types.get(K::AnyType) : ev.evalType(env, *p->type);
      if (!t)
        return std::nullopt;
      params.push_back(t);
    }
    const Type *result = ev.evalType(env, *f.returnType);
    if (!result)
      return std::nullopt;
    return typeValue(types.getFunction(params, result, f.isTask));
  }
  case ast::Node::Kind::ContainerType: {
    auto &c = llvm::cast<ast::ContainerType>(e);
    if (c.isUnion) {
      ev.diags.error(e.getLoc(), "union types are not supported yet");
      return fail();
    }
    std::vector<StructType::Field> fields;
    for (const ast::FieldDecl *f : c.fields) {
      for (const StructType::Field &prev : fields)
        if (prev.name == f->name.text) {
          ev.diags.error(f->name.loc(),
                         "duplicate field '" + f->name.text + "' in struct");
          return fail();
        }
      const Type *t = ev.evalType(env, *f->type);
      if (!t)
        return std::nullopt;
      fields.push_back({f->name.text.str(), t});
    }
    std::string name = env.declName.empty() ? "struct" : env.declName.str();
    return typeValue(types.createStruct(name, std::move(fields), &c));
  }
  case ast::Node::Kind::EnumType: {
    auto &en = llvm::cast<ast::EnumType>(e);
    // Without an explicit tag type the tag is u16, the machine word.
    const Type *tag = types.getInt(16, false);
    if (en.tagType && !(tag = ev.evalType(env, *en.tagType)))
      return std::nullopt;
    auto *tagInt = llvm::dyn_cast<IntType>(tag);
    if (!tagInt) {
      ev.diags.error(en.tagType->getLoc(), "enum tag type must be an integer "
                                           "type, found '" +
                                               tag->str() + "'");
      return fail();
    }
    std::vector<EnumType::Member> members;
    llvm::APSInt next = llvm::APSInt::get(0);
    for (const ast::EnumMember *m : en.members) {
      for (const EnumType::Member &prev : members)
        if (prev.name == m->name.text) {
          ev.diags.error(m->name.loc(),
                         "duplicate enum member '" + m->name.text + "'");
          return fail();
        }
      llvm::APSInt value = next;
      if (m->value) {
        std::optional<Value> v = ev.evalCoerced(env, *m->value, tagInt);
        if (!v)
          return std::nullopt;
        value = v->getInt();
      } else if (!fitsInType(value, tagInt)) {
        ev.diags.error(m->name.loc(), "value " + intToString(value) +
                                          " of enum member '" + m->name.text +
                                          "' does not fit in '" + tag->str() +
                                          "'");
        return fail();
      }
      llvm::APSInt tagValue = wrapToType(value, tagInt);
      members.push_back({m->name.text.str(), tagValue});
      next = normalizeComptimeInt(tagValue);
      next = llvm::APSInt(next.sext(next.getBitWidth() + 1) + 1, false);
    }
    std::string name = env.declName.empty() ? "enum" : env.declName.str();
    return typeValue(types.createEnum(name, tagInt, std::move(members)));
  }
  case ast::Node::Kind::OptionalType:
    ev.diags.error(e.getLoc(), "optional types are not supported");
    return fail();
  default:
    ev.diags.error(e.getLoc(), "cannot evaluate this expression at comptime");
    return fail();
  }
}
