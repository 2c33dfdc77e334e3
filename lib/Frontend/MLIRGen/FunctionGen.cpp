//===- FunctionGen.cpp - Run-time function and task bodies ----------------===//
//
// Lowers statements to `cf` blocks (so break, continue and return are plain
// branches) and expressions to `arith`/`memref`/`func`. A subexpression
// that names no local and no run-time global is folded by the comptime
// interpreter, which also gives it CSL's range checks.
//
//===----------------------------------------------------------------------===//

#include "FunctionGen.h"
#include "TypeLowering.h"

#include "tessera/Dialect/CSL/IR/CSLOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringMap.h"

using namespace tessera;
using namespace tessera::frontend;
using namespace tessera::frontend::mlirgen;
using sema::Type;
using sema::Value;

namespace {

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
};

struct Loop {
  llvm::StringRef label;
  mlir::Block *continueBlock;
  mlir::Block *breakBlock;
};

class BodyGen {
public:
  BodyGen(sema::Interpreter &interp, sema::ModuleInstance &module,
          const SymbolRequests &symbols, const ast::FnDecl &decl,
          const sema::FunctionType &type, mlir::Region &body)
      : interp(interp), module(module), symbols(symbols), decl(decl),
        type(type), body(body), ctx(*body.getContext()),
        builder(&ctx), diags(interp.getDiagnostics()) {}

  bool run();

private:
  // Statements.
  bool lowerBlock(const ast::BlockStmt &block);
  bool lowerStmt(const ast::Stmt &stmt);
  bool lowerVarDecl(const ast::VarDecl &var);
  bool lowerAssign(const ast::AssignStmt &assign);
  bool lowerIf(const ast::IfStmt &stmt);
  bool lowerWhile(const ast::WhileStmt &stmt);
  bool lowerReturn(const ast::ReturnStmt &stmt);
  bool lowerJump(const ast::Node &stmt, llvm::StringRef label, bool isBreak);
  /// Continues in a fresh block after a jump; it has no predecessors and is
  /// erased at the end.
  void startDeadBlock();

  // Expressions.
  std::optional<RValue> lowerExpr(const ast::Expr &expr);
  std::optional<RValue> lowerBinary(const ast::BinaryExpr &expr);
  std::optional<RValue> lowerBinaryOp(ast::BinaryOp op, RValue lhs, RValue rhs,
                                      llvm::SMLoc loc);
  std::optional<RValue> lowerCall(const ast::CallExpr &call);
  std::optional<RValue> lowerBuiltin(const ast::BuiltinCall &call);
  /// The memref and indices an lvalue or indexed rvalue names.
  bool lowerAddress(const ast::Expr &expr, mlir::Value &memref,
                    llvm::SmallVectorImpl<mlir::Value> &indices,
                    const Type *&elementType);
  /// `value` as an SSA value of type `to` (null: its own type).
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
  const ast::FnDecl &decl;
  const sema::FunctionType &type;
  mlir::Region &body;
  mlir::MLIRContext &ctx;
  mlir::OpBuilder builder;
  sema::DiagnosticEngine &diags;
  std::vector<llvm::StringMap<Local>> scopes;
  std::vector<Loop> loops;
};

/// How users call a construct, for "... is not supported" messages.
static std::string describeConstruct(ast::Node::Kind kind) {
  using Kind = ast::Node::Kind;
  switch (kind) {
  case Kind::ForStmt:
    return "a 'for' loop";
  case Kind::SwitchExpr:
    return "a 'switch'";
  case Kind::IfExpr:
    return "an 'if' expression";
  case Kind::BlockExpr:
    return "a block expression";
  case Kind::StructLiteral:
  case Kind::TupleLiteral:
    return "a struct literal";
  case Kind::ArrayLiteral:
    return "an array literal";
  case Kind::TensorAccess:
    return "a tensor access";
  case Kind::DerefExpr:
    return "a pointer dereference";
  case Kind::ComptimeBlock:
    return "a 'comptime' block";
  default:
    return "'" + ast::getKindName(kind).str() + "'";
  }
}

bool BodyGen::unsupported(const ast::Node &node, llvm::StringRef what) {
  diags.error(node.getLoc(), what + " is not supported in run-time code yet");
  return false;
}

const Local *BodyGen::findLocal(llvm::StringRef name) const {
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it)
    if (auto found = it->find(name); found != it->end())
      return &found->second;
  return nullptr;
}

bool BodyGen::run() {
  mlir::Block &entry = body.front();
  builder.setInsertionPointToEnd(&entry);
  scopes.emplace_back();
  for (auto [i, param] : llvm::enumerate(decl.params)) {
    if (param->isComptime || !lowerType(ctx, type.getParams()[i])) {
      diags.error(param->getLoc(), "parameter '" + param->name.text +
                                       "' of type '" +
                                       type.getParams()[i]->str() +
                                       "' has no run-time representation");
      return false;
    }
    scopes.back()[param->name.text] =
        Local{{}, entry.getArgument(i), std::nullopt, type.getParams()[i]};
  }
  if (!lowerBlock(*decl.body))
    return false;
  mlir::Block *last = builder.getInsertionBlock();
  if (last->empty() || !last->back().hasTrait<mlir::OpTrait::IsTerminator>()) {
    bool reachable = last == &entry || !last->hasNoPredecessors();
    if (reachable && !type.getResult()->is(Type::Kind::Void)) {
      diags.error(decl.body->getRange().End,
                  "'" + decl.name.text + "' returns '" +
                      type.getResult()->str() +
                      "' but its end is reachable without a 'return'");
      return false;
    }
    mlir::Location l = loc(decl.body->getRange().End);
    if (decl.isTask)
      csl::ReturnOp::create(builder, l);
    else if (reachable)
      mlir::func::ReturnOp::create(builder, l);
    else
      mlir::cf::BranchOp::create(builder, l, last); // never runs: a self loop
  }
  mlir::IRRewriter rewriter(&ctx);
  (void)mlir::eraseUnreachableBlocks(rewriter, body);
  return true;
}

void BodyGen::startDeadBlock() {
  builder.setInsertionPointToEnd(builder.createBlock(&body));
}

bool BodyGen::lowerBlock(const ast::BlockStmt &block) {
  if (!block.label.empty())
    return unsupported(block, "a labelled block");
  scopes.emplace_back();
  llvm::scope_exit pop([&] { scopes.pop_back(); });
  for (const ast::Stmt *stmt : block.stmts)
    if (!lowerStmt(*stmt))
      return false;
  return true;
}

bool BodyGen::lowerStmt(const ast::Stmt &stmt) {
  switch (stmt.getKind()) {
  case ast::Node::Kind::BlockStmt:
    return lowerBlock(llvm::cast<ast::BlockStmt>(stmt));
  case ast::Node::Kind::VarDecl:
    return lowerVarDecl(llvm::cast<ast::VarDecl>(stmt));
  case ast::Node::Kind::AssignStmt:
    return lowerAssign(llvm::cast<ast::AssignStmt>(stmt));
  case ast::Node::Kind::IfStmt:
    return lowerIf(llvm::cast<ast::IfStmt>(stmt));
  case ast::Node::Kind::WhileStmt:
    return lowerWhile(llvm::cast<ast::WhileStmt>(stmt));
  case ast::Node::Kind::ReturnStmt:
    return lowerReturn(llvm::cast<ast::ReturnStmt>(stmt));
  case ast::Node::Kind::BreakStmt: {
    const auto &jump = llvm::cast<ast::BreakStmt>(stmt);
    if (jump.value)
      return unsupported(stmt, "'break' with a value");
    return lowerJump(stmt, jump.label.text, /*isBreak=*/true);
  }
  case ast::Node::Kind::ContinueStmt:
    return lowerJump(stmt, llvm::cast<ast::ContinueStmt>(stmt).label.text,
                     /*isBreak=*/false);
  case ast::Node::Kind::ExprStmt: {
    std::optional<RValue> value =
        lowerExpr(*llvm::cast<ast::ExprStmt>(stmt).expr);
    return value.has_value();
  }
  default:
    return unsupported(stmt, describeConstruct(stmt.getKind()));
  }
}

bool BodyGen::lowerVarDecl(const ast::VarDecl &var) {
  if (var.isComptime || !var.init)
    return unsupported(var, var.isComptime ? "a 'comptime var'"
                                           : "a local without an initializer");
  const Type *declared = nullptr;
  if (var.type && !(declared = interp.evaluateType(module, *var.type)))
    return false;
  std::optional<RValue> init = lowerExpr(*var.init);
  if (!init)
    return false;
  Local local;
  if (var.varKind == ast::VarKind::Const && init->constant && !declared) {
    local.constant = init->constant;
    local.type = init->constant->getType();
    scopes.back()[var.name.text] = local;
    return true;
  }
  const Type *localType = declared ? declared : init->type;
  if (!localType || localType->isComptimeOnly() ||
      !getStorageType(ctx, localType) || localType->is(Type::Kind::Array)) {
    if (localType && localType->is(Type::Kind::Array))
      return unsupported(var, "a local array");
    diags.error(var.init->getLoc(),
                "run-time local '" + var.name.text + "' needs a type: '" +
                    (localType ? localType->str() : std::string("?")) +
                    "' exists only at comptime");
    return false;
  }
  mlir::Value value = materialize(*init, localType, var.init->getLoc());
  if (!value)
    return false;
  local.type = localType;
  if (var.varKind == ast::VarKind::Const) {
    local.value = value;
  } else {
    mlir::Location l = loc(var.getLoc());
    local.storage = mlir::memref::AllocaOp::create(
        builder, l, getStorageType(ctx, localType));
    mlir::memref::StoreOp::create(builder, l, value, local.storage);
  }
  scopes.back()[var.name.text] = local;
  return true;
}

std::optional<ast::BinaryOp> getBinaryOp(ast::AssignOp op) {
  using ast::AssignOp;
  using ast::BinaryOp;
  switch (op) {
  case AssignOp::Assign:
    return std::nullopt;
  case AssignOp::Add:
    return BinaryOp::Add;
  case AssignOp::Sub:
    return BinaryOp::Sub;
  case AssignOp::Mul:
    return BinaryOp::Mul;
  case AssignOp::Div:
    return BinaryOp::Div;
  case AssignOp::Rem:
    return BinaryOp::Rem;
  case AssignOp::Shl:
    return BinaryOp::Shl;
  case AssignOp::Shr:
    return BinaryOp::Shr;
  case AssignOp::And:
    return BinaryOp::BitAnd;
  case AssignOp::Or:
    return BinaryOp::BitOr;
  case AssignOp::Xor:
    return BinaryOp::BitXor;
  }
  return std::nullopt;
}

bool BodyGen::lowerAssign(const ast::AssignStmt &assign) {
  mlir::Value memref;
  llvm::SmallVector<mlir::Value> indices;
  const Type *elementType = nullptr;
  if (!lowerAddress(*assign.target, memref, indices, elementType))
    return false;
  std::optional<RValue> value = lowerExpr(*assign.value);
  if (!value)
    return false;
  mlir::Location l = loc(assign.getLoc());
  if (std::optional<ast::BinaryOp> op = getBinaryOp(assign.op)) {
    RValue current;
    current.value = mlir::memref::LoadOp::create(builder, l, memref, indices);
    current.type = elementType;
    value = lowerBinaryOp(*op, current, *value, assign.getLoc());
    if (!value)
      return false;
  }
  mlir::Value stored = materialize(*value, elementType, assign.value->getLoc());
  if (!stored)
    return false;
  mlir::memref::StoreOp::create(builder, l, stored, memref, indices);
  return true;
}

bool BodyGen::lowerAddress(const ast::Expr &expr, mlir::Value &memref,
                           llvm::SmallVectorImpl<mlir::Value> &indices,
                           const Type *&elementType) {
  if (const auto *paren = llvm::dyn_cast<ast::ParenExpr>(&expr))
    return lowerAddress(*paren->inner, memref, indices, elementType);
  if (const auto *ident = llvm::dyn_cast<ast::Identifier>(&expr)) {
    if (const Local *local = findLocal(ident->name.text)) {
      if (!local->storage) {
        diags.error(expr.getLoc(), "cannot assign to constant '" +
                                       ident->name.text + "'");
        return false;
      }
      memref = local->storage;
      elementType = local->type;
      return true;
    }
    sema::GlobalSlot *slot = module.findGlobal(ident->name.text);
    const auto *var =
        slot ? llvm::dyn_cast_or_null<ast::VarDecl>(slot->decl) : nullptr;
    if (!var || var->varKind != ast::VarKind::Var) {
      if (!slot)
        diags.error(expr.getLoc(),
                    "use of undeclared identifier '" + ident->name.text + "'");
      else
        diags.error(expr.getLoc(), "cannot assign to constant '" +
                                       ident->name.text + "'");
      return false;
    }
    std::optional<Value> global =
        interp.getGlobal(module, ident->name.text, expr.getLoc());
    if (!global)
      return false;
    std::optional<std::string> symbol = symbols.global(*var, expr.getLoc());
    if (!symbol)
      return false;
    mlir::MemRefType storage = getStorageType(ctx, global->getType());
    memref = mlir::memref::GetGlobalOp::create(builder, loc(expr.getLoc()),
                                               storage, *symbol);
    elementType = global->getType();
    return true;
  }
  if (const auto *index = llvm::dyn_cast<ast::IndexExpr>(&expr)) {
    const Type *baseType = nullptr;
    if (!lowerAddress(*index->base, memref, indices, baseType))
      return false;
    const auto *array = llvm::dyn_cast<sema::ArrayType>(baseType);
    if (!array || !indices.empty()) {
      diags.error(index->base->getLoc(),
                  "cannot index a value of type '" + baseType->str() + "'");
      return false;
    }
    if (array->getDims().size() != index->indices.size()) {
      diags.error(expr.getLoc(), "'" + baseType->str() + "' needs " +
                                     llvm::Twine(array->getDims().size()) +
                                     " indices, found " +
                                     llvm::Twine(index->indices.size()));
      return false;
    }
    for (const ast::Expr *indexExpr : index->indices) {
      std::optional<RValue> i = lowerExpr(*indexExpr);
      if (!i)
        return false;
      const Type *indexType =
          i->constant ? interp.getTypes().getInt(16, false) : i->type;
      mlir::Value v = materialize(*i, indexType, indexExpr->getLoc());
      if (!v)
        return false;
      const auto *intType = llvm::dyn_cast<sema::IntType>(indexType);
      if (!intType) {
        diags.error(indexExpr->getLoc(), "expected an integer index, found '" +
                                             indexType->str() + "'");
        return false;
      }
      mlir::Location l = loc(indexExpr->getLoc());
      indices.push_back(
          intType->isSigned()
              ? mlir::arith::IndexCastOp::create(builder, l,
                                                 builder.getIndexType(), v)
                    .getResult()
              : mlir::arith::IndexCastUIOp::create(builder, l,
                                                   builder.getIndexType(), v)
                    .getResult());
    }
    elementType = array->getElementType();
    return true;
  }
  return unsupported(expr, "this kind of assignment target");
}

bool BodyGen::lowerIf(const ast::IfStmt &stmt) {
  std::optional<RValue> cond = lowerExpr(*stmt.cond);
  if (!cond)
    return false;
  const Type *boolType = interp.getTypes().getBool();
  if (cond->constant) {
    // Only the taken branch is analysed, as at comptime.
    std::optional<Value> b = interp.coerce(*cond->constant, boolType,
                                           stmt.cond->getLoc());
    if (!b)
      return false;
    if (b->getBool())
      return lowerStmt(*stmt.thenStmt);
    return !stmt.elseStmt || lowerStmt(*stmt.elseStmt);
  }
  mlir::Value c = materialize(*cond, boolType, stmt.cond->getLoc());
  if (!c)
    return false;
  mlir::Block *current = builder.getInsertionBlock();
  mlir::Block *thenBlock = builder.createBlock(&body);
  mlir::Block *elseBlock =
      stmt.elseStmt ? builder.createBlock(&body) : nullptr;
  mlir::Block *merge = builder.createBlock(&body);
  builder.setInsertionPointToEnd(current);
  mlir::Location l = loc(stmt.getLoc());
  mlir::cf::CondBranchOp::create(builder, l, c, thenBlock,
                                 elseBlock ? elseBlock : merge);
  builder.setInsertionPointToEnd(thenBlock);
  if (!lowerStmt(*stmt.thenStmt))
    return false;
  mlir::cf::BranchOp::create(builder, l, merge);
  if (elseBlock) {
    builder.setInsertionPointToEnd(elseBlock);
    if (!lowerStmt(*stmt.elseStmt))
      return false;
    mlir::cf::BranchOp::create(builder, l, merge);
  }
  merge->moveBefore(&body, body.end());
  builder.setInsertionPointToEnd(merge);
  return true;
}

bool BodyGen::lowerWhile(const ast::WhileStmt &stmt) {
  if (stmt.isInline)
    return unsupported(stmt, "an 'inline while'");
  mlir::Location l = loc(stmt.getLoc());
  mlir::Block *before = builder.getInsertionBlock();
  mlir::Block *header = builder.createBlock(&body);
  mlir::Block *bodyBlock = builder.createBlock(&body);
  mlir::Block *latch = builder.createBlock(&body);
  mlir::Block *exit = builder.createBlock(&body);
  builder.setInsertionPointToEnd(before);
  mlir::cf::BranchOp::create(builder, l, header);

  builder.setInsertionPointToEnd(header);
  std::optional<RValue> cond = lowerExpr(*stmt.cond);
  if (!cond)
    return false;
  mlir::Value c =
      materialize(*cond, interp.getTypes().getBool(), stmt.cond->getLoc());
  if (!c)
    return false;
  mlir::cf::CondBranchOp::create(builder, l, c, bodyBlock, exit);

  builder.setInsertionPointToEnd(bodyBlock);
  loops.push_back({stmt.label.text, latch, exit});
  bool ok = lowerStmt(*stmt.body);
  loops.pop_back();
  if (!ok)
    return false;
  mlir::cf::BranchOp::create(builder, l, latch);

  latch->moveBefore(&body, body.end());
  builder.setInsertionPointToEnd(latch);
  if (stmt.continueStmt && !lowerStmt(*stmt.continueStmt))
    return false;
  mlir::cf::BranchOp::create(builder, l, header);
  exit->moveBefore(&body, body.end());
  builder.setInsertionPointToEnd(exit);
  return true;
}

bool BodyGen::lowerJump(const ast::Node &stmt, llvm::StringRef label,
                        bool isBreak) {
  const char *keyword = isBreak ? "break" : "continue";
  const Loop *target = nullptr;
  for (auto it = loops.rbegin(); it != loops.rend() && !target; ++it)
    if (label.empty() || it->label == label)
      target = &*it;
  if (!target) {
    if (label.empty())
      diags.error(stmt.getLoc(),
                  llvm::Twine("'") + keyword + "' outside a loop");
    else
      diags.error(stmt.getLoc(), "unknown label '" + label + "'");
    return false;
  }
  mlir::cf::BranchOp::create(
      builder, loc(stmt.getLoc()),
      isBreak ? target->breakBlock : target->continueBlock);
  startDeadBlock();
  return true;
}

bool BodyGen::lowerReturn(const ast::ReturnStmt &stmt) {
  mlir::Location l = loc(stmt.getLoc());
  const Type *result = type.getResult();
  if (stmt.value) {
    if (result->is(Type::Kind::Void)) {
      diags.error(stmt.value->getLoc(),
                  "'" + decl.name.text + "' returns no value");
      return false;
    }
    std::optional<RValue> value = lowerExpr(*stmt.value);
    if (!value)
      return false;
    mlir::Value v = materialize(*value, result, stmt.value->getLoc());
    if (!v)
      return false;
    mlir::func::ReturnOp::create(builder, l, v);
  } else if (!result->is(Type::Kind::Void)) {
    diags.error(stmt.getLoc(), "'" + decl.name.text + "' must return a '" +
                                   result->str() + "'");
    return false;
  } else if (decl.isTask) {
    csl::ReturnOp::create(builder, l);
  } else {
    mlir::func::ReturnOp::create(builder, l);
  }
  startDeadBlock();
  return true;
}

bool BodyGen::canFold(const ast::Expr &expr) {
  bool ok = true;
  std::function<void(const ast::Node *)> visit = [&](const ast::Node *n) {
    if (!ok)
      return;
    switch (n->getKind()) {
    case ast::Node::Kind::CallExpr:
    case ast::Node::Kind::BuiltinCall:
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
      if (findLocal(name)) {
        ok = false;
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
  if (canFold(expr)) {
    std::optional<Value> value = interp.evaluate(module, expr);
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
    if (const Local *local =
            findLocal(llvm::cast<ast::Identifier>(expr).name.text)) {
      if (local->constant)
        return RValue{local->constant, {}, local->type};
      if (local->value)
        return RValue{std::nullopt, local->value, local->type};
      return RValue{std::nullopt,
                    mlir::memref::LoadOp::create(builder, l, local->storage),
                    local->type};
    }
    [[fallthrough]];
  }
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
  case ast::Node::Kind::UnaryExpr: {
    const auto &unary = llvm::cast<ast::UnaryExpr>(expr);
    if (unary.op == ast::UnaryOp::AddressOf)
      break;
    std::optional<RValue> operand = lowerExpr(*unary.operand);
    if (!operand)
      return std::nullopt;
    if (unary.op == ast::UnaryOp::Neg) {
      RValue zero{Value::getComptimeInt(interp.getTypes(), 0), {},
                  interp.getTypes().getComptimeInt()};
      if (operand->type && operand->type->is(Type::Kind::Float))
        zero = RValue{Value::getFloat(operand->type, 0.0), {}, operand->type};
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
  if (isShift)
    t = lhs.constant && !rhs.constant ? nullptr : lhs.type;
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

std::optional<RValue> BodyGen::lowerCall(const ast::CallExpr &call) {
  const auto *ident = llvm::dyn_cast<ast::Identifier>(call.callee);
  std::optional<Value> callee =
      ident && !findLocal(ident->name.text)
          ? interp.getGlobal(module, ident->name.text, call.callee->getLoc())
          : std::nullopt;
  if (!ident || findLocal(ident->name.text)) {
    unsupported(call, "calling this kind of callee");
    return std::nullopt;
  }
  if (!callee)
    return std::nullopt;
  const auto *fnType = callee->is(Value::Kind::Function)
                           ? llvm::dyn_cast<sema::FunctionType>(callee->getType())
                           : nullptr;
  if (!fnType || fnType->isTask() || callee->getModule() != &module) {
    diags.error(call.callee->getLoc(),
                fnType && fnType->isTask()
                    ? llvm::Twine("a task cannot be called")
                    : "'" + ident->name.text +
                          "' is not a function of this program");
    return std::nullopt;
  }
  const ast::FnDecl &fn = *callee->getFunctionDecl();
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
    std::optional<RValue> v = lowerExpr(*arg);
    if (!v)
      return std::nullopt;
    mlir::Value m = materialize(*v, paramType, arg->getLoc());
    if (!m)
      return std::nullopt;
    args.push_back(m);
  }
  std::optional<std::string> symbol = symbols.function(fn, call.getLoc());
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
  bool isActivate = name == "@activate" || name == "activate";
  bool isBlock = name == "@block" || name == "block";
  bool isUnblock = name == "@unblock" || name == "unblock";
  if (!isActivate && !isBlock && !isUnblock) {
    // Builtins that produce comptime values were folded before.
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
               t->is(Type::Kind::Float))) {
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
    default:
      return csl::GetTaskIDOp::create(builder, l, type, id);
    }
  }
  diags.error(at, "a value of type '" + t->str() +
                      "' cannot be used at run time");
  return {};
}

} // namespace

bool mlirgen::lowerBody(sema::Interpreter &interp, sema::ModuleInstance &module,
                        const SymbolRequests &symbols, const ast::FnDecl &decl,
                        const sema::FunctionType &type, mlir::Region &body) {
  return BodyGen(interp, module, symbols, decl, type, body).run();
}
