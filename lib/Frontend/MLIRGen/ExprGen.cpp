//===- ExprGen.cpp - Run-time expressions ---------------------------------===//
//
// Expressions to `arith`/`memref`/`func`/`scf`. A subexpression that names
// no local and no run-time global is folded by the comptime interpreter,
// which also gives it CSL's range checks.
//
//===----------------------------------------------------------------------===//

#include "BodyGen.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "llvm/ADT/StringSet.h"

#include "tessera/Dialect/CSL/IR/CSLOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace tessera;
using namespace tessera::frontend;
using namespace tessera::frontend::mlirgen;

bool BodyGen::canFold(const ast::Expr &expr) {
  bool ok = true;
  std::function<void(const ast::Node *)> visit = [&](const ast::Node *n) {
    if (!ok)
      return;
    switch (n->getKind()) {
    case ast::Node::Kind::BuiltinCall: {
      // Array constructors are comptime whenever their operands are.
      llvm::StringRef name =
          llvm::cast<ast::BuiltinCall>(n)->name.text;
      name.consume_front("@");
      if (name == "zeros" || name == "constants" || isComptimeBuiltin(name))
        break;
      ok = false;
      return;
    }
    case ast::Node::Kind::CallExpr:
    case ast::Node::Kind::IfExpr:
    case ast::Node::Kind::SwitchExpr:
    case ast::Node::Kind::BlockExpr:
      ok = false;
      return;
    case ast::Node::Kind::UnaryExpr:
      if (llvm::cast<ast::UnaryExpr>(n)->op == ast::UnaryOp::AddressOf) {
        ok = false;
        return;
      }
      break;
    case ast::Node::Kind::Identifier: {
      llvm::StringRef name = llvm::cast<ast::Identifier>(n)->name.text;
      // Comptime-known locals (and a specialization's comptime params) are
      // bound for the interpreter; others are read at run time.
      if (const Local *local = findLocal(name)) {
        ok = local->constant && local->constant->isComptimeKnown();
        return;
      }
      // A run-time global is read by memref ops, not by the interpreter.
      if (module.findGlobal(name)) {
        std::optional<Value> v = interp.getGlobal(module, name, n->getLoc());
        ok = !v || v->isComptimeKnown();
      }
      return;
    }
    default:
      break;
    }
    ast::forEachChild(n, visit);
  };
  visit(&expr);
  return ok;
}

std::optional<RValue> BodyGen::lowerExpr(const ast::Expr &expr) {
  unsigned errors = diags.getNumErrors();
  // A DSD global is not a comptime value: it is rebuilt here.
  if (const auto *ident = llvm::dyn_cast<ast::Identifier>(&expr)) {
    std::optional<RValue> dsd;
    if (!findLocal(ident->name.text) && lowerGlobalDSD(*ident, dsd))
      return dsd;
  }
  if (canFold(expr)) {
    std::optional<Value> value = evalComptime(expr);
    if (!value)
      return std::nullopt;
    if (value->isComptimeKnown())
      return RValue{value, {}, value->getType()};
  }
  if (diags.getNumErrors() != errors)
    return std::nullopt;
  mlir::Location l = loc(expr.getLoc());
  switch (expr.getKind()) {
  case ast::Node::Kind::ParenExpr:
    return lowerExpr(*llvm::cast<ast::ParenExpr>(expr).inner);
  case ast::Node::Kind::BinaryExpr:
    return lowerBinary(llvm::cast<ast::BinaryExpr>(expr));
  case ast::Node::Kind::CallExpr:
    return lowerCall(llvm::cast<ast::CallExpr>(expr));
  case ast::Node::Kind::BuiltinCall:
    return lowerBuiltin(llvm::cast<ast::BuiltinCall>(expr));
  case ast::Node::Kind::Identifier: {
    const sema::PointerType *pointerType = nullptr;
    if (std::optional<RValue> address = lowerConstantAddress(
            llvm::cast<ast::Identifier>(expr)))
      return address;
    if (const ast::VarDecl *pointer = getPointerGlobal(expr, pointerType)) {
      mlir::Value p = loadPointerGlobal(*pointer, *pointerType, expr.getLoc());
      if (!p)
        return std::nullopt;
      return RValue{std::nullopt, p, pointerType};
    }
    if (const Local *local =
            findLocal(llvm::cast<ast::Identifier>(expr).name.text)) {
      if (local->constant)
        return RValue{local->constant, {}, local->type};
      if (local->value)
        return RValue{std::nullopt, local->value, local->type};
      if (!local->pointerSlot.empty())
        return RValue{std::nullopt,
                      csl::LoadPointerOp::create(
                          builder, l, lowerType(ctx, local->type),
                          mlir::FlatSymbolRefAttr::get(&ctx,
                                                       local->pointerSlot)),
                      local->type};
      if (!local->dsdSlot.empty()) {
        auto slot = mlir::SymbolTable::lookupNearestSymbolFrom<
            csl::DSDGlobalOp>(body.getParentOp(),
                              builder.getStringAttr(local->dsdSlot));
        return RValue{std::nullopt,
                      csl::LoadDSDOp::create(
                          builder, l, slot.getType(),
                          mlir::FlatSymbolRefAttr::get(&ctx, local->dsdSlot)),
                      local->type};
      }
      return RValue{std::nullopt,
                    mlir::memref::LoadOp::create(builder, l, local->storage),
                    local->type};
    }
    [[fallthrough]];
  }
  case ast::Node::Kind::FieldAccess:
  case ast::Node::Kind::DerefExpr:
  case ast::Node::Kind::IndexExpr: {
    mlir::Value memref;
    llvm::SmallVector<mlir::Value> indices;
    const Type *elementType = nullptr;
    if (!lowerAddress(expr, memref, indices, elementType))
      return std::nullopt;
    if (elementType->is(Type::Kind::Array)) {
      unsupported(expr, "an array value");
      return std::nullopt;
    }
    return RValue{std::nullopt,
                  mlir::memref::LoadOp::create(builder, l, memref, indices),
                  elementType};
  }
  case ast::Node::Kind::ComptimeExpr: {
    // `comptime e` in run-time code: evaluated when compiled.
    std::optional<Value> v =
        evalComptime(*llvm::cast<ast::ComptimeExpr>(expr).operand);
    if (!v)
      return std::nullopt;
    if (!v->isComptimeKnown()) {
      diags.error(expr.getLoc(), "the operand of 'comptime' is not "
                                 "comptime-known");
      return std::nullopt;
    }
    return RValue{v, {}, v->getType()};
  }
  case ast::Node::Kind::IfExpr:
    return lowerIfExpr(llvm::cast<ast::IfExpr>(expr));
  case ast::Node::Kind::UnaryExpr: {
    const auto &unary = llvm::cast<ast::UnaryExpr>(expr);
    if (unary.op == ast::UnaryOp::AddressOf)
      return lowerAddressOf(unary);
    std::optional<RValue> operand = lowerExpr(*unary.operand);
    if (!operand)
      return std::nullopt;
    if (unary.op == ast::UnaryOp::Neg) {
      // A float flips its sign bit (-(+0.0) is -0.0); an integer is 0 - x.
      if (operand->type && operand->type->is(Type::Kind::Float) &&
          operand->value)
        return RValue{std::nullopt,
                      mlir::arith::NegFOp::create(builder, loc(expr.getLoc()),
                                                  operand->value),
                      operand->type};
      RValue zero{Value::getComptimeInt(interp.getTypes(), 0), {},
                  interp.getTypes().getComptimeInt()};
      return lowerBinaryOp(ast::BinaryOp::Sub, zero, *operand, expr.getLoc());
    }
    // `!b` is `b ^ true`, `~x` is `x ^ -1`: both flip every bit.
    const Type *t = operand->type;
    if (unary.op == ast::UnaryOp::Not ? !t->is(Type::Kind::Bool)
                                      : !t->is(Type::Kind::Int)) {
      diags.error(expr.getLoc(), "invalid operand type '" + t->str() +
                                     "' for '" +
                                     (unary.op == ast::UnaryOp::Not ? "!" : "~") +
                                     "'");
      return std::nullopt;
    }
    mlir::Value v = materialize(*operand, t, unary.operand->getLoc());
    mlir::Value ones = mlir::arith::ConstantIntOp::create(
        builder, l, v.getType(), -1);
    return RValue{std::nullopt,
                  mlir::arith::XOrIOp::create(builder, l, v, ones), t};
  }
  default:
    break;
  }
  unsupported(expr, describeConstruct(expr.getKind()));
  return std::nullopt;
}

const ast::VarDecl *
BodyGen::getPointerGlobal(const ast::Expr &expr,
                          const sema::PointerType *&type) {
  const auto *ident = llvm::dyn_cast<ast::Identifier>(&expr);
  if (!ident || findLocal(ident->name.text))
    return nullptr;
  const ast::VarDecl *var = getGlobalDecl(module, ident->name.text);
  if (!var || var->varKind != ast::VarKind::Var)
    return nullptr;
  std::optional<Value> value =
      interp.getGlobal(module, ident->name.text, expr.getLoc());
  type = value ? llvm::dyn_cast<sema::PointerType>(value->getType()) : nullptr;
  return type ? var : nullptr;
}

std::optional<RValue>
BodyGen::lowerConstantAddress(const ast::Identifier &ident) {
  // A param or const holding the address of a global (`.X = &buffer`) is a
  // pointer value: that global's memref.
  if (findLocal(ident.name.text))
    return std::nullopt;
  const ast::VarDecl *var = getGlobalDecl(module, ident.name.text);
  if (!var || var->varKind == ast::VarKind::Var)
    return std::nullopt;
  std::optional<Value> value =
      interp.getGlobal(module, ident.name.text, ident.getLoc());
  const auto *pointer =
      value ? llvm::dyn_cast<sema::PointerType>(value->getType()) : nullptr;
  const auto *target =
      value ? llvm::dyn_cast_or_null<ast::VarDecl>(value->getSymbol())
            : nullptr;
  if (!pointer || !target || target->varKind == ast::VarKind::Param)
    return std::nullopt;
  mlir::Value memref;
  const Type *elementType = nullptr;
  if (!lowerGlobalAddress(module, ident.name.text, ident.getLoc(), memref,
                          elementType, /*forWrite=*/false))
    return std::nullopt;
  mlir::Type type = lowerType(ctx, pointer);
  if (type && memref.getType() != type)
    memref = csl::PtrCastOp::create(builder, loc(ident.getLoc()), type, memref);
  return RValue{std::nullopt, memref, pointer};
}

mlir::Value BodyGen::loadPointerGlobal(const ast::VarDecl &var,
                                       const sema::PointerType &type,
                                       llvm::SMLoc at) {
  std::optional<std::string> symbol = symbols.global(module, var, at);
  if (!symbol)
    return {};
  return csl::LoadPointerOp::create(builder, loc(at), lowerType(ctx, &type),
                                    mlir::FlatSymbolRefAttr::get(&ctx, *symbol));
}

std::optional<RValue> BodyGen::lowerAddressOf(const ast::UnaryExpr &expr) {
  const ast::Expr *operand = expr.operand;
  while (const auto *paren = llvm::dyn_cast<ast::ParenExpr>(operand))
    operand = paren->inner;
  const auto *ident = llvm::dyn_cast<ast::Identifier>(operand);
  const Local *local = ident ? findLocal(ident->name.text) : nullptr;
  if (local && !local->storage) {
    diags.error(expr.getLoc(), "cannot take the address of '" +
                                   ident->name.text +
                                   "': it has no storage");
    return std::nullopt;
  }
  mlir::Value memref;
  llvm::SmallVector<mlir::Value> indices;
  const Type *pointee = nullptr;
  if (!lowerAddress(*operand, memref, indices, pointee))
    return std::nullopt;
  bool isConst = local && local->isConst;
  if (!indices.empty()) {
    // `&a[i]`: a single-item pointer to the element.
    mlir::Type element = lowerType(ctx, pointee);
    if (!element) {
      unsupported(expr, "the address of an element of type '" +
                            pointee->str() + "'");
      return std::nullopt;
    }
    auto op = csl::ElementAddressOp::create(
        builder, loc(expr.getLoc()), mlir::MemRefType::get({}, element),
        memref, indices);
    if (!verifyCreated(op, expr.getLoc(), "&"))
      return std::nullopt;
    return RValue{std::nullopt, op,
                  interp.getTypes().getPointer(pointee, /*many=*/false,
                                               isConst)};
  }
  return RValue{std::nullopt, memref,
                interp.getTypes().getPointer(pointee, /*many=*/false, isConst)};
}

std::optional<RValue> BodyGen::lowerExprAs(const ast::Expr &expr,
                                           const Type *type) {
  const Type *saved = expected;
  expected = type;
  std::optional<RValue> v = lowerExpr(expr);
  expected = saved;
  return v;
}

std::optional<RValue> BodyGen::lowerIfExpr(const ast::IfExpr &expr) {
  std::optional<RValue> cond = lowerExpr(*expr.cond);
  if (!cond)
    return std::nullopt;
  const Type *boolType = interp.getTypes().getBool();
  if (cond->constant) {
    // Only the taken branch is analysed.
    std::optional<Value> b =
        interp.coerce(*cond->constant, boolType, expr.cond->getLoc());
    if (!b)
      return std::nullopt;
    if (b->getBool())
      return lowerExpr(*expr.thenExpr);
    if (!expr.elseExpr)
      return RValue{Value::getVoid(interp.getTypes()), {},
                    interp.getTypes().getVoid()};
    return lowerExpr(*expr.elseExpr);
  }
  if (!expr.elseExpr) {
    unsupported(expr, "an 'if' expression without 'else'");
    return std::nullopt;
  }
  mlir::Value c = materialize(*cond, boolType, expr.cond->getLoc());
  if (!c)
    return std::nullopt;
  // Branches in their own blocks; the merge block's argument is the value.
  mlir::Location l = loc(expr.getLoc());
  mlir::Block *current = builder.getInsertionBlock();
  mlir::Block *thenBlock = builder.createBlock(&body);
  mlir::Block *elseBlock = builder.createBlock(&body);
  builder.setInsertionPointToEnd(current);
  mlir::cf::CondBranchOp::create(builder, l, c, thenBlock, elseBlock);
  builder.setInsertionPointToEnd(thenBlock);
  std::optional<RValue> thenValue = lowerExpr(*expr.thenExpr);
  if (!thenValue)
    return std::nullopt;
  mlir::Block *thenEnd = builder.getInsertionBlock();
  builder.setInsertionPointToEnd(elseBlock);
  std::optional<RValue> elseValue = lowerExpr(*expr.elseExpr);
  if (!elseValue)
    return std::nullopt;
  mlir::Block *elseEnd = builder.getInsertionBlock();
  // The type of a run-time branch, which comptime values take; with both
  // comptime, the type the context expects.
  const Type *t = !thenValue->constant   ? thenValue->type
                  : !elseValue->constant ? elseValue->type
                                         : expected;
  if (!t) {
    diags.error(expr.getLoc(), "the branches of this run-time 'if' "
                               "expression are both comptime values and "
                               "nothing gives it a type; use '@as'");
    return std::nullopt;
  }
  mlir::Block *merge = builder.createBlock(&body);
  mlir::Type type = lowerType(ctx, t);
  if (!type) {
    unsupported(expr, "an 'if' expression of type '" + t->str() + "'");
    return std::nullopt;
  }
  mlir::Value result = merge->addArgument(type, l);
  for (auto [end, value, branch] :
       {std::tuple{thenEnd, &*thenValue, expr.thenExpr},
        std::tuple{elseEnd, &*elseValue, expr.elseExpr}}) {
    builder.setInsertionPointToEnd(end);
    mlir::Value v = materialize(*value, t, branch->getLoc());
    if (!v)
      return std::nullopt;
    mlir::cf::BranchOp::create(builder, l, merge, v);
  }
  builder.setInsertionPointToEnd(merge);
  return RValue{std::nullopt, result, t};
}

std::optional<RValue> BodyGen::lowerBinary(const ast::BinaryExpr &expr) {
  std::optional<RValue> lhs = lowerExpr(*expr.lhs);
  if (!lhs)
    return std::nullopt;
  if (expr.op != ast::BinaryOp::And && expr.op != ast::BinaryOp::Or) {
    std::optional<RValue> rhs = lowerExpr(*expr.rhs);
    if (!rhs)
      return std::nullopt;
    return lowerBinaryOp(expr.op, *lhs, *rhs, expr.getLoc());
  }
  // Short-circuit: the right side runs only when the left does not decide.
  const Type *boolType = interp.getTypes().getBool();
  mlir::Value l = materialize(*lhs, boolType, expr.lhs->getLoc());
  if (!l)
    return std::nullopt;
  bool isAnd = expr.op == ast::BinaryOp::And;
  mlir::Location location = loc(expr.getLoc());
  auto ifOp = mlir::scf::IfOp::create(builder, location, builder.getI1Type(),
                                      l, /*withElseRegion=*/true);
  mlir::OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(
      isAnd ? ifOp.thenBlock() : ifOp.elseBlock());
  std::optional<RValue> rhs = lowerExpr(*expr.rhs);
  if (!rhs)
    return std::nullopt;
  mlir::Value r = materialize(*rhs, boolType, expr.rhs->getLoc());
  if (!r)
    return std::nullopt;
  mlir::scf::YieldOp::create(builder, location, r);
  builder.setInsertionPointToStart(
      isAnd ? ifOp.elseBlock() : ifOp.thenBlock());
  mlir::Value decided =
      mlir::arith::ConstantIntOp::create(builder, location, !isAnd, 1);
  mlir::scf::YieldOp::create(builder, location, decided);
  return RValue{std::nullopt, ifOp.getResult(0), boolType};
}

std::optional<RValue> BodyGen::lowerBinaryOp(ast::BinaryOp op, RValue lhs,
                                             RValue rhs, llvm::SMLoc at) {
  using ast::BinaryOp;
  bool isShift = op == BinaryOp::Shl || op == BinaryOp::Shr;
  // The operand type: a comptime operand takes the other's type.
  const Type *t = !lhs.constant ? lhs.type : rhs.type;
  if (!lhs.constant && !rhs.constant && lhs.type != rhs.type && !isShift) {
    diags.error(at, "mismatched types '" + lhs.type->str() + "' and '" +
                        rhs.type->str() + "' in '" + ast::getSpelling(op) +
                        "'");
    return std::nullopt;
  }
  // A shift has its left operand's type; a comptime number there takes
  // its own sized type, else the one the context expects.
  if (isShift) {
    t = lhs.type;
    if (lhs.constant && !rhs.constant && lhs.type->isComptimeOnly())
      t = expected;
  }
  if (!t || t->isComptimeOnly()) {
    diags.error(at, "operands of '" + ast::getSpelling(op) +
                        "' have no run-time type");
    return std::nullopt;
  }
  mlir::Value a = materialize(lhs, t, at);
  mlir::Value b = materialize(rhs, isShift ? (rhs.constant ? t : rhs.type) : t,
                              at);
  if (!a || !b)
    return std::nullopt;
  mlir::Location l = loc(at);
  const auto *intType = llvm::dyn_cast<sema::IntType>(t);
  bool isFloat = t->is(Type::Kind::Float);
  bool isBool = t->is(Type::Kind::Bool);
  bool isSigned = intType && intType->isSigned();
  auto result = [&](mlir::Value v, const Type *rt) {
    return std::optional<RValue>(RValue{std::nullopt, v, rt});
  };
  const Type *boolType = interp.getTypes().getBool();
  // Enums are their tags at run time; only equality is defined on them.
  if (t->is(Type::Kind::Enum)) {
    if (op != BinaryOp::Eq && op != BinaryOp::Ne)
      goto invalid;
    auto pred = op == BinaryOp::Eq ? mlir::arith::CmpIPredicate::eq
                                   : mlir::arith::CmpIPredicate::ne;
    return result(mlir::arith::CmpIOp::create(builder, l, pred, a, b),
                  boolType);
  }
  if (ast::isComparison(op) && (intType || isBool)) {
    using P = mlir::arith::CmpIPredicate;
    P pred = P::eq;
    switch (op) {
    case BinaryOp::Eq: pred = P::eq; break;
    case BinaryOp::Ne: pred = P::ne; break;
    case BinaryOp::Lt: pred = isSigned ? P::slt : P::ult; break;
    case BinaryOp::Le: pred = isSigned ? P::sle : P::ule; break;
    case BinaryOp::Gt: pred = isSigned ? P::sgt : P::ugt; break;
    default: pred = isSigned ? P::sge : P::uge; break;
    }
    if (isBool && pred != P::eq && pred != P::ne)
      goto invalid;
    return result(mlir::arith::CmpIOp::create(builder, l, pred, a, b),
                  boolType);
  }
  if (ast::isComparison(op) && isFloat) {
    using P = mlir::arith::CmpFPredicate;
    P pred = P::OEQ;
    switch (op) {
    case BinaryOp::Eq: pred = P::OEQ; break;
    case BinaryOp::Ne: pred = P::UNE; break;
    case BinaryOp::Lt: pred = P::OLT; break;
    case BinaryOp::Le: pred = P::OLE; break;
    case BinaryOp::Gt: pred = P::OGT; break;
    default: pred = P::OGE; break;
    }
    return result(mlir::arith::CmpFOp::create(builder, l, pred, a, b),
                  boolType);
  }
  if (isShift && intType) {
    // The amount is converted to the left operand's width.
    unsigned width = intType->getBitWidth();
    unsigned amountWidth = b.getType().getIntOrFloatBitWidth();
    if (!mlir::isa<mlir::IntegerType>(b.getType()))
      goto invalid;
    if (amountWidth < width)
      b = mlir::arith::ExtUIOp::create(builder, l, a.getType(), b);
    else if (amountWidth > width)
      b = mlir::arith::TruncIOp::create(builder, l, a.getType(), b);
    if (op == BinaryOp::Shl)
      return result(mlir::arith::ShLIOp::create(builder, l, a, b), t);
    return result(isSigned ? mlir::arith::ShRSIOp::create(builder, l, a, b)
                                 .getResult()
                           : mlir::arith::ShRUIOp::create(builder, l, a, b)
                                 .getResult(),
                  t);
  }
  if (intType) {
    switch (op) {
    case BinaryOp::Add:
      return result(mlir::arith::AddIOp::create(builder, l, a, b), t);
    case BinaryOp::Sub:
      return result(mlir::arith::SubIOp::create(builder, l, a, b), t);
    case BinaryOp::Mul:
      return result(mlir::arith::MulIOp::create(builder, l, a, b), t);
    case BinaryOp::Div:
      return result(isSigned ? mlir::arith::DivSIOp::create(builder, l, a, b)
                                   .getResult()
                             : mlir::arith::DivUIOp::create(builder, l, a, b)
                                   .getResult(),
                    t);
    case BinaryOp::Rem:
      return result(isSigned ? mlir::arith::RemSIOp::create(builder, l, a, b)
                                   .getResult()
                             : mlir::arith::RemUIOp::create(builder, l, a, b)
                                   .getResult(),
                    t);
    default:
      break;
    }
  }
  if (intType || isBool) {
    switch (op) {
    case BinaryOp::BitAnd:
      return result(mlir::arith::AndIOp::create(builder, l, a, b), t);
    case BinaryOp::BitOr:
      return result(mlir::arith::OrIOp::create(builder, l, a, b), t);
    case BinaryOp::BitXor:
      return result(mlir::arith::XOrIOp::create(builder, l, a, b), t);
    default:
      break;
    }
  }
  if (isFloat) {
    switch (op) {
    case BinaryOp::Add:
      return result(mlir::arith::AddFOp::create(builder, l, a, b), t);
    case BinaryOp::Sub:
      return result(mlir::arith::SubFOp::create(builder, l, a, b), t);
    case BinaryOp::Mul:
      return result(mlir::arith::MulFOp::create(builder, l, a, b), t);
    case BinaryOp::Div:
      return result(mlir::arith::DivFOp::create(builder, l, a, b), t);
    default:
      break;
    }
  }
invalid:
  diags.error(at, "invalid operand type '" + t->str() + "' for '" +
                      ast::getSpelling(op) + "'");
  return std::nullopt;
}

namespace {

/// `f` or `m.f`, as written, for messages.
std::string describeCallee(const ast::Expr &callee) {
  if (const auto *ident = llvm::dyn_cast<ast::Identifier>(&callee))
    return ident->name.text.str();
  if (const auto *field = llvm::dyn_cast<ast::FieldAccess>(&callee))
    return describeCallee(*field->base) + "." + field->field.text.str();
  return "callee";
}

} // namespace

std::vector<sema::Interpreter::Binding> BodyGen::getComptimeLocals() const {
  // Outer scopes first, so that inner bindings of a name replace outer ones.
  // Run-time locals bind as run-time values: `@type_of(x)` sees their type,
  // anything needing their value reports that it is not comptime-known.
  std::vector<sema::Interpreter::Binding> locals;
  for (const llvm::StringMap<Local> &scope : scopes)
    for (const auto &entry : scope)
      locals.push_back({entry.getKey(),
                        entry.second.constant
                            ? *entry.second.constant
                            : Value::getRunTime(entry.second.type)});
  return locals;
}

bool BodyGen::isComptimeBuiltin(llvm::StringRef name) {
  name.consume_front("@");
  static const llvm::StringSet<> comptimeBuiltins = {
      "as", "type_of", "is_same_type", "get_array", "strlen", "is_arch",
      "has_field", "field", "dimensions", "element_count", "element_type",
      "rank", "get_int", "concat_structs"};
  return comptimeBuiltins.contains(name);
}

std::optional<Value> BodyGen::evalComptime(const ast::Expr &expr) {
  return interp.evaluate(module, expr, getComptimeLocals());
}

const Type *BodyGen::evalType(const ast::Expr &expr) {
  return interp.evaluateType(module, expr, getComptimeLocals());
}

/// Whether calls of `fn` need a specialization per argument list: it has
/// comptime params or params of comptime-only types (`anytype`, `type`,
/// `comptime_int`, functions, ...).
static bool isGeneric(const ast::FnDecl &fn, const sema::FunctionType &type) {
  for (auto [param, paramType] : llvm::zip(fn.params, type.getParams()))
    if (param->isComptime || paramType->isComptimeOnly())
      return true;
  return false;
}

/// Identifies a comptime argument among the specializations of a function.
static std::string describeArgument(const Value &value) {
  std::string key = value.getType()->str() + "=" + value.str();
  // Functions of different modules may share a name.
  if (value.is(Value::Kind::Function))
    key += "@" + std::to_string(reinterpret_cast<uintptr_t>(
                     value.getFunctionDecl())) +
           "/" + std::to_string(reinterpret_cast<uintptr_t>(value.getModule()));
  return key;
}

std::optional<RValue> BodyGen::lowerGenericCall(const ast::CallExpr &call,
                                                const Value &callee) {
  const auto &declared = *llvm::cast<sema::FunctionType>(callee.getType());
  const ast::FnDecl &fn = *callee.getFunctionDecl();
  if (call.args.size() != fn.params.size()) {
    diags.error(call.getLoc(), "'" + fn.name.text + "' expects " +
                                   llvm::Twine(fn.params.size()) +
                                   " arguments, found " +
                                   llvm::Twine(call.args.size()));
    diags.note(fn.getLoc(), "declared here");
    return std::nullopt;
  }
  // Comptime arguments bind as values, run-time ones as their types. An
  // argument for a `comptime` parameter is evaluated at comptime, as in Zig,
  // even when it calls functions or builds a struct
  // (`reset_routes(addr, .{ .tx = directions.flip(EAST) })`).
  llvm::SmallVector<RValue> lowered;
  llvm::SmallVector<Value> args;
  for (auto [i, arg] : llvm::enumerate(call.args)) {
    if (fn.params[i]->isComptime) {
      std::optional<Value> c = evalComptime(*arg);
      if (!c)
        return std::nullopt;
      args.push_back(*c);
      lowered.push_back(RValue{c, {}, c->getType()});
      continue;
    }
    std::optional<RValue> v = lowerExpr(*arg);
    if (!v)
      return std::nullopt;
    args.push_back(v->constant ? *v->constant : Value::getRunTime(v->type));
    lowered.push_back(*v);
  }
  // With every argument comptime-known, a generic helper (a payload
  // encoder, say) usually folds to a constant; only if it needs run-time
  // state is it specialized.
  if (llvm::all_of(lowered, [](const RValue &v) { return v.constant; }))
    if (std::optional<Value> folded =
            interp.tryCall(callee, args, call.getLoc());
        folded && folded->isComptimeKnown())
      return RValue{folded, {}, folded->getType()};
  const sema::FunctionType *signature =
      interp.instantiateSignature(callee, args, call.getLoc());
  if (!signature)
    return std::nullopt;
  std::vector<std::optional<Value>> comptimeArgs(fn.params.size());
  std::string key;
  llvm::SmallVector<mlir::Value> operands;
  for (auto [i, param] : llvm::enumerate(fn.params)) {
    const Type *paramType = signature->getParams()[i];
    // A param with no run-time representation (void, say) is comptime too,
    // and so is an `anytype` param given a comptime-known value.
    bool anyType = declared.getParams()[i]->is(Type::Kind::AnyType);
    if (param->isComptime || paramType->isComptimeOnly() ||
        !lowerType(ctx, paramType) || (anyType && lowered[i].constant)) {
      if (!lowered[i].constant) {
        diags.error(call.args[i]->getLoc(),
                    "argument for comptime parameter '" + param->name.text +
                        "' is not comptime-known");
        return std::nullopt;
      }
      std::optional<Value> v =
          paramType->is(Type::Kind::AnyType) || paramType->isComptimeOnly()
              ? lowered[i].constant
              : interp.coerce(*lowered[i].constant, paramType,
                              call.args[i]->getLoc());
      if (!v)
        return std::nullopt;
      comptimeArgs[i] = v;
      key += "c:" + describeArgument(*v) + ";";
      continue;
    }
    mlir::Value m = materialize(lowered[i], paramType, call.args[i]->getLoc());
    if (!m)
      return std::nullopt;
    operands.push_back(m);
    key += "t:" + paramType->str() + ";";
  }
  const Type *result = signature->getResult();
  if (!result->is(Type::Kind::Void) && !lowerType(ctx, result)) {
    diags.error(call.getLoc(), "'" + fn.name.text + "' returns '" +
                                   result->str() +
                                   "', which has no run-time representation");
    return std::nullopt;
  }
  std::optional<std::string> symbol =
      symbols.specialization(*callee.getModule(), fn, *signature,
                             comptimeArgs, key, call.getLoc());
  if (!symbol)
    return std::nullopt;
  llvm::SmallVector<mlir::Type> results;
  if (!result->is(Type::Kind::Void))
    results.push_back(lowerType(ctx, result));
  auto op = mlir::func::CallOp::create(builder, loc(call.getLoc()), *symbol,
                                       results, operands);
  if (results.empty())
    return RValue{Value::getVoid(interp.getTypes()), {}, result};
  return RValue{std::nullopt, op.getResult(0), result};
}

std::optional<RValue> BodyGen::lowerCall(const ast::CallExpr &call) {
  // The callee is a comptime function value: `f` or `module.f`.
  const auto *ident = llvm::dyn_cast<ast::Identifier>(call.callee);
  if (ident && findLocal(ident->name.text)) {
    unsupported(call, "calling a local value");
    return std::nullopt;
  }
  if (!ident && !llvm::isa<ast::FieldAccess>(call.callee)) {
    unsupported(call, "calling this kind of callee");
    return std::nullopt;
  }
  std::optional<Value> callee =
      ident ? interp.getGlobal(module, ident->name.text, call.callee->getLoc())
            : evalComptime(*call.callee);
  if (!callee)
    return std::nullopt;
  const auto *fnType = callee->is(Value::Kind::Function)
                           ? llvm::dyn_cast<sema::FunctionType>(callee->getType())
                           : nullptr;
  if (!fnType || fnType->isTask() || !callee->getModule()) {
    diags.error(call.callee->getLoc(),
                fnType && fnType->isTask()
                    ? llvm::Twine("a task cannot be called")
                    : "'" + describeCallee(*call.callee) +
                          "' is not a function");
    return std::nullopt;
  }
  const ast::FnDecl &fn = *callee->getFunctionDecl();
  if (isGeneric(fn, *fnType))
    return lowerGenericCall(call, *callee);
  if (call.args.size() != fnType->getParams().size()) {
    diags.error(call.getLoc(), "'" + fn.name.text + "' expects " +
                                   llvm::Twine(fnType->getParams().size()) +
                                   " arguments, found " +
                                   llvm::Twine(call.args.size()));
    diags.note(fn.getLoc(), "declared here");
    return std::nullopt;
  }
  llvm::SmallVector<mlir::Value> args;
  for (auto [arg, paramType] : llvm::zip(call.args, fnType->getParams())) {
    std::optional<RValue> v = lowerExprAs(*arg, paramType);
    if (!v)
      return std::nullopt;
    mlir::Value m = materialize(*v, paramType, arg->getLoc());
    if (!m)
      return std::nullopt;
    args.push_back(m);
  }
  std::optional<std::string> symbol =
      symbols.function(*callee->getModule(), fn, call.getLoc());
  if (!symbol)
    return std::nullopt;
  llvm::SmallVector<mlir::Type> results;
  if (!fnType->getResult()->is(Type::Kind::Void))
    results.push_back(lowerType(ctx, fnType->getResult()));
  auto op = mlir::func::CallOp::create(builder, loc(call.getLoc()), *symbol,
                                       results, args);
  if (results.empty())
    return RValue{Value::getVoid(interp.getTypes()), {},
                  fnType->getResult()};
  return RValue{std::nullopt, op.getResult(0), fnType->getResult()};
}

std::optional<RValue> BodyGen::lowerBuiltin(const ast::BuiltinCall &call) {
  llvm::StringRef name = call.name.text;
  if (name == "as" || name == "@as")
    return lowerAs(call);
  if (isHandleGetter(name))
    return lowerHandleGetter(call);
  if (isDSDBuiltin(name))
    return lowerDSDBuiltin(call);
  if (isIntrinsic(name))
    return lowerIntrinsic(call);
  // Checks and prints in run-time code happen when it is compiled.
  if (name == "comptime_assert" || name == "@comptime_assert" ||
      name == "comptime_print" || name == "@comptime_print") {
    std::optional<Value> v = evalComptime(call);
    if (!v)
      return std::nullopt;
    return RValue{v, {}, v->getType()};
  }
  bool isActivate = name == "@activate" || name == "activate";
  bool isBlock = name == "@block" || name == "block";
  bool isUnblock = name == "@unblock" || name == "unblock";
  if (!isActivate && !isBlock && !isUnblock) {
    // A comptime builtin over run-time operands (`@type_of(x)`) may still
    // have a comptime-known result.
    if (isComptimeBuiltin(name)) {
      std::optional<Value> v = evalComptime(call);
      if (!v)
        return std::nullopt;
      if (v->isComptimeKnown())
        return RValue{v, {}, v->getType()};
    }
    unsupported(call, "'" + name.str() + "'");
    return std::nullopt;
  }
  if (call.args.size() != 1) {
    diags.error(call.getLoc(), "'" + name + "' expects 1 arguments, found " +
                                   llvm::Twine(call.args.size()));
    return std::nullopt;
  }
  std::optional<RValue> handle = lowerExpr(*call.args[0]);
  if (!handle)
    return std::nullopt;
  const Type *t = handle->type;
  if (!t->isHandle() || t->is(Type::Kind::Direction) ||
      (isActivate && !t->is(Type::Kind::LocalTaskID))) {
    diags.error(call.args[0]->getLoc(),
                llvm::Twine(isActivate ? "expected a local task ID"
                                       : "expected a task ID, color, queue or "
                                         "microthread ID") +
                    ", found '" + t->str() + "'");
    return std::nullopt;
  }
  mlir::Value h = materialize(*handle, t, call.args[0]->getLoc());
  if (!h)
    return std::nullopt;
  mlir::Location l = loc(call.getLoc());
  if (isActivate)
    csl::ActivateOp::create(builder, l, h);
  else if (isBlock)
    csl::BlockOp::create(builder, l, h);
  else
    csl::UnblockOp::create(builder, l, h);
  return RValue{Value::getVoid(interp.getTypes()), {},
                interp.getTypes().getVoid()};
}

mlir::Value BodyGen::materialize(const RValue &value, const Type *to,
                                 llvm::SMLoc at) {
  if (value.constant) {
    std::optional<Value> v =
        to ? interp.coerce(*value.constant, to, at) : value.constant;
    if (!v)
      return {};
    return materializeConstant(*v, at);
  }
  if (!to || to == value.type)
    return value.value;
  mlir::Location l = loc(at);
  const auto *fromPointer = llvm::dyn_cast<sema::PointerType>(value.type);
  const auto *intoPointer = llvm::dyn_cast<sema::PointerType>(to);
  if (fromPointer && intoPointer &&
      (intoPointer->isConst() || !fromPointer->isConst())) {
    if (fromPointer->isMany() == intoPointer->isMany() &&
        fromPointer->getPointee() == intoPointer->getPointee())
      return value.value;
    // `*[N]T` to `[*]T` forgets the length: memref<NxT> to memref<?xT>.
    const auto *array =
        llvm::dyn_cast<sema::ArrayType>(fromPointer->getPointee());
    if (intoPointer->isMany() && !fromPointer->isMany() && array &&
        array->getDims().size() == 1 &&
        array->getElementType() == intoPointer->getPointee())
      return mlir::memref::CastOp::create(builder, l, lowerType(ctx, to),
                                          value.value);
  }
  const auto *from = llvm::dyn_cast<sema::IntType>(value.type);
  const auto *into = llvm::dyn_cast<sema::IntType>(to);
  if (from && into && from->getBitWidth() < into->getBitWidth() &&
      (from->isSigned() == into->isSigned() || !from->isSigned())) {
    mlir::Type target = lowerType(ctx, to);
    if (from->isSigned())
      return mlir::arith::ExtSIOp::create(builder, l, target, value.value);
    return mlir::arith::ExtUIOp::create(builder, l, target, value.value);
  }
  const auto *fromFloat = llvm::dyn_cast<sema::FloatType>(value.type);
  const auto *intoFloat = llvm::dyn_cast<sema::FloatType>(to);
  // An integer coerces to a float whose significand holds every value.
  if (from && intoFloat &&
      from->getBitWidth() < llvm::APFloat::semanticsPrecision(
                                mlir::cast<mlir::FloatType>(lowerType(ctx, to))
                                    .getFloatSemantics())) {
    mlir::Type target = lowerType(ctx, to);
    if (from->isSigned())
      return mlir::arith::SIToFPOp::create(builder, l, target, value.value);
    return mlir::arith::UIToFPOp::create(builder, l, target, value.value);
  }
  if (fromFloat && intoFloat && fromFloat->getBitWidth() == 16 &&
      intoFloat->getBitWidth() == 32)
    return mlir::arith::ExtFOp::create(builder, l, lowerType(ctx, to),
                                       value.value);
  diags.error(at, "expected '" + to->str() + "', found '" +
                      value.type->str() + "'");
  return {};
}

mlir::Value BodyGen::materializeConstant(const Value &value, llvm::SMLoc at) {
  mlir::Location l = loc(at);
  const Type *t = value.getType();
  mlir::Type type = lowerType(ctx, t);
  if (type && (t->is(Type::Kind::Int) || t->is(Type::Kind::Bool) ||
               t->is(Type::Kind::Float) || t->is(Type::Kind::Enum))) {
    mlir::Attribute attr = getInitialValue(
        mlir::MemRefType::get({}, type), value);
    auto dense = mlir::cast<mlir::DenseElementsAttr>(attr);
    return mlir::arith::ConstantOp::create(
        builder, l, mlir::cast<mlir::TypedAttr>(
                        dense.getValues<mlir::Attribute>()[0]));
  }
  if (type && value.is(Value::Kind::Handle)) {
    mlir::IntegerAttr id = builder.getI64IntegerAttr(value.getHandleID());
    switch (t->getKind()) {
    case Type::Kind::Color:
      return csl::GetColorOp::create(builder, l, type, id);
    case Type::Kind::InputQueue:
      return csl::GetInputQueueOp::create(builder, l, type, id);
    case Type::Kind::OutputQueue:
      return csl::GetOutputQueueOp::create(builder, l, type, id);
    case Type::Kind::UtID:
      return csl::GetMicrothreadIDOp::create(builder, l, type, id);
    case Type::Kind::DSR:
      return csl::GetDSROp::create(builder, l, type, id);
    default:
      return csl::GetTaskIDOp::create(builder, l, type, id);
    }
  }
  diags.error(at, "a value of type '" + t->str() +
                      "' cannot be used at run time");
  return {};
}

