//===- FunctionGen.cpp - Run-time function and task bodies ----------------===//
//
// Lowers statements to `cf` blocks, so break, continue and return are plain
// branches; expressions are in ExprGen.cpp.
//
//===----------------------------------------------------------------------===//

#include "BodyGen.h"

#include "tessera/Dialect/CSL/IR/CSLOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/ScopeExit.h"

using namespace tessera;
using namespace tessera::frontend;
using namespace tessera::frontend::mlirgen;


/// How users call a construct, for "... is not supported" messages.
std::string mlirgen::describeConstruct(ast::Node::Kind kind) {
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
  unsigned arg = 0;
  for (auto [i, param] : llvm::enumerate(decl->params)) {
    const Type *paramType = type->getParams()[i];
    // A specialization's comptime params are constants, not arguments.
    if (!comptimeArgs.empty() && comptimeArgs[i]) {
      scopes.back()[param->name.text] =
          Local{{}, {}, comptimeArgs[i], paramType};
      continue;
    }
    if (param->isComptime || !lowerType(ctx, paramType)) {
      diags.error(param->getLoc(), "parameter '" + param->name.text +
                                       "' of type '" + paramType->str() +
                                       "' has no run-time representation");
      return false;
    }
    scopes.back()[param->name.text] =
        Local{{}, entry.getArgument(arg++), std::nullopt, paramType};
  }
  if (!lowerBlock(*decl->body))
    return false;
  mlir::Block *last = builder.getInsertionBlock();
  if (last->empty() || !last->back().hasTrait<mlir::OpTrait::IsTerminator>()) {
    bool reachable = last == &entry || !last->hasNoPredecessors();
    if (reachable && !type->getResult()->is(Type::Kind::Void)) {
      diags.error(decl->body->getRange().End,
                  "'" + decl->name.text + "' returns '" +
                      type->getResult()->str() +
                      "' but its end is reachable without a 'return'");
      return false;
    }
    mlir::Location l = loc(decl->body->getRange().End);
    if (decl->isTask)
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

void BodyGen::branchUnlessDead(mlir::Location l, mlir::Block *dest) {
  // Code after a return or break is in a block nothing reaches; a branch
  // from it would make `dest` look reachable.
  mlir::Block *current = builder.getInsertionBlock();
  if (current != &body.front() && current->hasNoPredecessors())
    return;
  mlir::cf::BranchOp::create(builder, l, dest);
}

void BodyGen::startDeadBlock() {
  builder.setInsertionPointToEnd(builder.createBlock(&body));
}

bool BodyGen::lowerBlock(const ast::BlockStmt &block) {
  if (!block.label.empty())
    return unsupported(block, "a labelled block");
  scopes.emplace_back();
  llvm::scope_exit pop([&] { scopes.pop_back(); });
  for (const ast::Stmt *stmt : block.stmts) {
    if (!lowerStmt(*stmt))
      return false;
    // Statements after a return, break or continue never run; they are not
    // analysed (a comptime-true `if` that returns guards the rest).
    mlir::Block *current = builder.getInsertionBlock();
    if (current != &body.front() && current->hasNoPredecessors())
      break;
  }
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
  case ast::Node::Kind::ForStmt:
    return lowerFor(llvm::cast<ast::ForStmt>(stmt));
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
    if (const auto *sw = llvm::dyn_cast<ast::SwitchExpr>(
            llvm::cast<ast::ExprStmt>(stmt).expr))
      return lowerSwitch(*sw);
    std::optional<RValue> value =
        lowerExpr(*llvm::cast<ast::ExprStmt>(stmt).expr);
    return value.has_value();
  }
  default:
    return unsupported(stmt, describeConstruct(stmt.getKind()));
  }
}

bool BodyGen::lowerVarDecl(const ast::VarDecl &var) {
  if (var.isComptime)
    return unsupported(var, "a 'comptime var'");
  const Type *declared = nullptr;
  if (var.type && !(declared = evalType(*var.type)))
    return false;
  if (!var.init)
    return lowerUninitializedVar(var, declared);
  if (declared && declared->is(Type::Kind::Array))
    return lowerLocalArray(var, declared);
  std::optional<RValue> init = lowerExprAs(*var.init, declared);
  if (!init)
    return false;
  Local local;
  // A constant array gets storage so that run-time indices can read it.
  if (var.varKind == ast::VarKind::Const && init->constant && !declared &&
      !init->constant->getType()->is(Type::Kind::Array)) {
    local.constant = init->constant;
    local.type = init->constant->getType();
    scopes.back()[var.name.text] = local;
    return true;
  }
  const Type *localType = declared ? declared : init->type;
  // A DSD `const` is an SSA value; a `var` lives in a DSD slot.
  if (localType && localType->is(Type::Kind::DSD)) {
    if (!init->value || init->type != localType) {
      diags.error(var.init->getLoc(), "expected '" + localType->str() +
                                          "', found '" + init->type->str() +
                                          "'");
      return false;
    }
    local.type = localType;
    if (var.varKind == ast::VarKind::Const) {
      local.value = init->value;
    } else {
      mlir::Location l = loc(var.getLoc());
      std::string name = var.name.text.str();
      if (decl)
        name = decl->name.text.str() + "." + name;
      local.dsdSlot =
          symbols.dsdSlot(module, name, init->value.getType(), l);
      csl::StoreDSDOp::create(builder, l, init->value,
                              mlir::FlatSymbolRefAttr::get(&ctx, local.dsdSlot));
    }
    scopes.back()[var.name.text] = local;
    return true;
  }
  if (localType && localType->is(Type::Kind::Array))
    return lowerLocalArray(var, localType);
  // A pointer is its pointee's memref; a `var` of one would need a memref of
  // memrefs.
  if (localType && localType->is(Type::Kind::Pointer)) {
    mlir::Value pointer = materialize(*init, localType, var.init->getLoc());
    if (!pointer)
      return false;
    local.type = localType;
    if (var.varKind == ast::VarKind::Const) {
      local.value = pointer;
    } else {
      // A pointer `var` lives in a pointer slot (memref cannot hold one).
      mlir::Location l = loc(var.getLoc());
      std::string name = var.name.text.str();
      if (decl)
        name = decl->name.text.str() + "." + name;
      local.pointerSlot =
          symbols.pointerSlot(module, name, pointer.getType(), l);
      csl::StorePointerOp::create(
          builder, l, pointer,
          mlir::FlatSymbolRefAttr::get(&ctx, local.pointerSlot));
    }
    scopes.back()[var.name.text] = local;
    return true;
  }
  if (!localType || localType->isComptimeOnly() ||
      !getStorageType(ctx, localType)) {
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

bool BodyGen::lowerUninitializedVar(const ast::VarDecl &var,
                                    const Type *type) {
  // `var x: T;` holds an unspecified value until assigned.
  mlir::MemRefType storage = type ? getStorageType(ctx, type) : nullptr;
  if (var.varKind != ast::VarKind::Var || !storage) {
    diags.error(var.getLoc(),
                var.varKind != ast::VarKind::Var
                    ? "'" + var.name.text + "' needs an initializer"
                    : "local '" + var.name.text + "' needs a type with a "
                                                  "run-time representation");
    return false;
  }
  Local local;
  local.type = type;
  local.storage =
      mlir::memref::AllocaOp::create(builder, loc(var.getLoc()), storage);
  scopes.back()[var.name.text] = local;
  return true;
}

bool BodyGen::lowerLocalArray(const ast::VarDecl &var,
                              const Type *arrayType) {
  mlir::MemRefType storage = getStorageType(ctx, arrayType);
  if (!storage) {
    diags.error(var.getLoc(), "local '" + var.name.text + "' of type '" +
                                  arrayType->str() +
                                  "' has no run-time representation");
    return false;
  }
  if (!canFold(*var.init)) {
    diags.error(var.init->getLoc(),
                "a local array must be initialised by a comptime-known value");
    return false;
  }
  std::optional<Value> init = evalComptime(*var.init);
  if (!init || !(init = interp.coerce(*init, arrayType, var.init->getLoc())))
    return false;
  auto dense = mlir::dyn_cast_or_null<mlir::DenseElementsAttr>(
      getInitialValue(storage, *init));
  if (!dense) {
    diags.error(var.init->getLoc(), "a value of type '" + arrayType->str() +
                                        "' cannot be used at run time");
    return false;
  }
  mlir::Location l = loc(var.getLoc());
  mlir::Value alloca = mlir::memref::AllocaOp::create(builder, l, storage);
  auto index = [&](int64_t i) -> mlir::Value {
    return mlir::arith::ConstantIndexOp::create(builder, l, i);
  };
  if (dense.isSplat()) {
    // One store in a loop nest instead of one per element.
    mlir::Value element = mlir::arith::ConstantOp::create(
        builder, l, dense.getSplatValue<mlir::TypedAttr>());
    llvm::SmallVector<mlir::Value> lbs, ubs, steps;
    for (int64_t dim : storage.getShape()) {
      lbs.push_back(index(0));
      ubs.push_back(index(dim));
      steps.push_back(index(1));
    }
    mlir::scf::buildLoopNest(
        builder, l, lbs, ubs, steps,
        [&](mlir::OpBuilder &b, mlir::Location bl, mlir::ValueRange ivs) {
          mlir::memref::StoreOp::create(b, bl, element, alloca, ivs);
        });
  } else {
    for (auto [i, attr] :
         llvm::enumerate(dense.getValues<mlir::TypedAttr>())) {
      mlir::Value element = mlir::arith::ConstantOp::create(builder, l, attr);
      llvm::SmallVector<mlir::Value> indices;
      int64_t rest = static_cast<int64_t>(i);
      for (int64_t stride : mlir::computeStrides(storage.getShape())) {
        indices.push_back(index(rest / stride));
        rest %= stride;
      }
      mlir::memref::StoreOp::create(builder, l, element, alloca, indices);
    }
  }
  Local local;
  local.storage = alloca;
  local.type = arrayType;
  local.isConst = var.varKind == ast::VarKind::Const;
  scopes.back()[var.name.text] = local;
  return true;
}

static std::optional<ast::BinaryOp> getBinaryOp(ast::AssignOp op) {
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

bool BodyGen::storeDSD(const ast::AssignStmt &assign, llvm::StringRef slot,
                       const Type *dsdType) {
  if (assign.op != ast::AssignOp::Assign) {
    diags.error(assign.getLoc(), "invalid operand type '" + dsdType->str() +
                                     "' for a compound assignment");
    return false;
  }
  std::optional<RValue> value = lowerExpr(*assign.value);
  if (!value)
    return false;
  if (value->type != dsdType || !value->value) {
    diags.error(assign.value->getLoc(),
                "expected '" + dsdType->str() + "', found '" +
                    (value->type ? value->type->str() : "?") + "'");
    return false;
  }
  auto op = csl::StoreDSDOp::create(builder, loc(assign.getLoc()),
                                    value->value,
                                    mlir::FlatSymbolRefAttr::get(&ctx, slot));
  return verifyCreated(op, assign.getLoc(), "=");
}

bool BodyGen::storePointer(const ast::AssignStmt &assign, llvm::StringRef slot,
                           const sema::PointerType *pointerType) {
  if (assign.op != ast::AssignOp::Assign) {
    diags.error(assign.getLoc(), "invalid operand type '" +
                                     pointerType->str() +
                                     "' for a compound assignment");
    return false;
  }
  std::optional<RValue> value = lowerExprAs(*assign.value, pointerType);
  mlir::Value stored =
      value ? materialize(*value, pointerType, assign.value->getLoc())
            : mlir::Value();
  if (!stored)
    return false;
  csl::StorePointerOp::create(builder, loc(assign.getLoc()), stored,
                              mlir::FlatSymbolRefAttr::get(&ctx, slot));
  return true;
}

bool BodyGen::lowerAssign(const ast::AssignStmt &assign) {
  // Variables memref cannot hold: DSD and pointer slots and globals.
  if (const auto *ident = llvm::dyn_cast<ast::Identifier>(assign.target)) {
    if (const Local *local = findLocal(ident->name.text)) {
      if (!local->dsdSlot.empty())
        return storeDSD(assign, local->dsdSlot, local->type);
      if (!local->pointerSlot.empty())
        return storePointer(assign, local->pointerSlot,
                            llvm::cast<sema::PointerType>(local->type));
    } else if (const ast::VarDecl *var =
                   getGlobalDecl(module, ident->name.text)) {
      if (const Type *dsdType = getDSDVarType(interp, module, *var)) {
        std::optional<std::string> symbol =
            symbols.dsdGlobal(module, *var, ident->getLoc());
        return symbol && storeDSD(assign, *symbol, dsdType);
      }
    }
  }
  const sema::PointerType *pointerType = nullptr;
  if (const ast::VarDecl *pointer =
          getPointerGlobal(*assign.target, pointerType)) {
    std::optional<std::string> symbol =
        symbols.global(module, *pointer, assign.target->getLoc());
    return symbol && storePointer(assign, *symbol, pointerType);
  }
  mlir::Value memref;
  llvm::SmallVector<mlir::Value> indices;
  const Type *elementType = nullptr;
  if (!lowerAddress(*assign.target, memref, indices, elementType,
                    /*forWrite=*/true))
    return false;
  std::optional<RValue> value = lowerExprAs(*assign.value, elementType);
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

bool BodyGen::lowerGlobalAddress(sema::ModuleInstance &owner,
                                 llvm::StringRef name, llvm::SMLoc at,
                                 mlir::Value &memref, const Type *&elementType,
                                 bool forWrite) {
  const ast::VarDecl *var = getGlobalDecl(owner, name);
  // A `const` array read at run time (a DSD's base, an indexed element) is
  // stored as a constant global.
  bool readOnly = var && var->varKind != ast::VarKind::Var && !forWrite;
  if (!var || (var->varKind != ast::VarKind::Var && !readOnly)) {
    diags.error(at, "cannot assign to constant '" + name + "'");
    return false;
  }
  std::optional<Value> global = interp.getGlobal(owner, name, at);
  if (!global)
    return false;
  // A constant pointer to a global (`param X: *[N]f32` given `&A`) names
  // that global's storage.
  const auto *target =
      llvm::dyn_cast_or_null<ast::VarDecl>(global->getSymbol());
  if (readOnly && global->getType()->is(Type::Kind::Pointer) && target &&
      target->varKind != ast::VarKind::Param) {
    std::optional<std::string> symbol = symbols.globalByDecl(*target, at);
    if (!symbol)
      return false;
    auto storage = mlir::SymbolTable::lookupNearestSymbolFrom<
        mlir::memref::GlobalOp>(body.getParentOp(),
                                builder.getStringAttr(*symbol));
    memref = mlir::memref::GetGlobalOp::create(builder, loc(at),
                                               storage.getType(), *symbol);
    const auto *pointer = llvm::cast<sema::PointerType>(global->getType());
    elementType = pointer->getPointee();
    if (pointer->isMany()) {
      // `[*]T` reaches the whole array.
      llvm::SmallVector<uint64_t> dims(storage.getType().getShape().begin(),
                                       storage.getType().getShape().end());
      elementType = interp.getTypes().getArray(dims, pointer->getPointee());
    }
    return true;
  }
  if (readOnly && !global->getType()->is(Type::Kind::Array)) {
    diags.error(at, "cannot take the address of constant '" + name + "'");
    return false;
  }
  std::optional<std::string> symbol = symbols.global(owner, *var, at);
  if (!symbol)
    return false;
  mlir::MemRefType storage = getStorageType(ctx, global->getType());
  memref = mlir::memref::GetGlobalOp::create(builder, loc(at), storage,
                                             *symbol);
  elementType = global->getType();
  return true;
}

bool BodyGen::lowerAddress(const ast::Expr &expr, mlir::Value &memref,
                           llvm::SmallVectorImpl<mlir::Value> &indices,
                           const Type *&elementType, bool forWrite) {
  if (const auto *paren = llvm::dyn_cast<ast::ParenExpr>(&expr))
    return lowerAddress(*paren->inner, memref, indices, elementType, forWrite);
  if (const auto *deref = llvm::dyn_cast<ast::DerefExpr>(&expr)) {
    std::optional<RValue> p = lowerExpr(*deref->base);
    if (!p)
      return false;
    const auto *pointer =
        llvm::dyn_cast_or_null<sema::PointerType>(p->type);
    if (!pointer || pointer->isMany() || !p->value) {
      diags.error(deref->base->getLoc(),
                  "cannot dereference a value of type '" +
                      (p->type ? p->type->str() : std::string("?")) + "'");
      return false;
    }
    if (forWrite && pointer->isConst()) {
      diags.error(expr.getLoc(), "cannot assign through a pointer to const");
      return false;
    }
    memref = p->value;
    elementType = pointer->getPointee();
    return true;
  }
  if (const auto *ident = llvm::dyn_cast<ast::Identifier>(&expr)) {
    if (const Local *local = findLocal(ident->name.text)) {
      if (!local->storage || (forWrite && local->isConst)) {
        diags.error(expr.getLoc(), "cannot assign to constant '" +
                                       ident->name.text + "'");
        return false;
      }
      memref = local->storage;
      elementType = local->type;
      return true;
    }
    if (!module.findGlobal(ident->name.text)) {
      diags.error(expr.getLoc(),
                  "use of undeclared identifier '" + ident->name.text + "'");
      return false;
    }
    return lowerGlobalAddress(module, ident->name.text, expr.getLoc(), memref,
                              elementType, forWrite);
  }
  // `m.name`: a global of an imported module.
  if (const auto *field = llvm::dyn_cast<ast::FieldAccess>(&expr)) {
    std::optional<Value> base = evalComptime(*field->base);
    if (!base)
      return false;
    sema::ModuleInstance *owner =
        base->is(Value::Kind::Module) ? base->getModule() : nullptr;
    if (!owner || !owner->findGlobal(field->field.text)) {
      unsupported(expr, "this kind of assignment target");
      return false;
    }
    return lowerGlobalAddress(*owner, field->field.text, expr.getLoc(), memref,
                              elementType, forWrite);
  }
  if (const auto *index = llvm::dyn_cast<ast::IndexExpr>(&expr)) {
    const Type *baseType = nullptr;
    // A pointer parameter or `const` is indexed through its memref.
    const auto *baseIdent = llvm::dyn_cast<ast::Identifier>(index->base);
    const Local *pointerLocal =
        baseIdent ? findLocal(baseIdent->name.text) : nullptr;
    const sema::PointerType *pointer =
        pointerLocal && pointerLocal->value
            ? llvm::dyn_cast<sema::PointerType>(pointerLocal->type)
            : nullptr;
    mlir::Value pointerValue = pointer ? pointerLocal->value : mlir::Value();
    if (pointerLocal && !pointerLocal->pointerSlot.empty()) {
      std::optional<RValue> p = lowerExpr(*index->base);
      if (!p)
        return false;
      pointer = llvm::cast<sema::PointerType>(pointerLocal->type);
      pointerValue = p->value;
    }
    if (const ast::VarDecl *global =
            pointer ? nullptr : getPointerGlobal(*index->base, pointer)) {
      pointerValue =
          loadPointerGlobal(*global, *pointer, index->base->getLoc());
      if (!pointerValue)
        return false;
    }
    if (pointer) {
      memref = pointerValue;
      baseType = pointer;
      if (forWrite && pointer->isConst()) {
        diags.error(expr.getLoc(), "cannot assign through a pointer to const");
        return false;
      }
    } else if (!lowerAddress(*index->base, memref, indices, baseType,
                             forWrite)) {
      return false;
    }
    size_t rank = 0;
    const Type *element = nullptr;
    if (pointer && pointer->isMany()) {
      rank = 1;
      element = pointer->getPointee();
    } else if (const auto *array = llvm::dyn_cast<sema::ArrayType>(
                   pointer ? pointer->getPointee() : baseType);
               array && indices.empty()) {
      rank = array->getDims().size();
      element = array->getElementType();
    } else {
      diags.error(index->base->getLoc(),
                  "cannot index a value of type '" + baseType->str() + "'");
      return false;
    }
    if (rank != index->indices.size()) {
      diags.error(expr.getLoc(), "'" + baseType->str() + "' needs " +
                                     llvm::Twine(rank) + " indices, found " +
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
    elementType = element;
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
  branchUnlessDead(l, merge);
  if (elseBlock) {
    builder.setInsertionPointToEnd(elseBlock);
    if (!lowerStmt(*stmt.elseStmt))
      return false;
    branchUnlessDead(l, merge);
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

/// The blocks of a counted loop; `run` lowers the body at the start of
/// `body` with the counter's current value, then the counter steps.
struct CountedLoop {
  mlir::Value counter; // rank-0 memref
  mlir::Block *header, *body, *latch, *exit;
};

bool BodyGen::lowerFor(const ast::ForStmt &stmt) {
  if (stmt.isInline)
    return unsupported(stmt, "an 'inline for'");
  for (const ast::Capture *c : stmt.captures)
    if (c->isPointer)
      return unsupported(*c, "a pointer capture");
  const auto *range = llvm::dyn_cast<ast::BuiltinCall>(stmt.iterable);
  if (range && (range->name.text == "@range" || range->name.text == "range"))
    return lowerRangeFor(stmt, *range);
  if (canFold(*stmt.iterable))
    return unsupported(*stmt.iterable, "iterating over a comptime value");
  mlir::Value memref;
  llvm::SmallVector<mlir::Value> indices;
  const Type *iterType = nullptr;
  if (!lowerAddress(*stmt.iterable, memref, indices, iterType))
    return false;
  const auto *array = llvm::dyn_cast<sema::ArrayType>(iterType);
  if (!array || array->getDims().size() != 1 || !indices.empty()) {
    diags.error(stmt.iterable->getLoc(), "cannot iterate over a value of "
                                         "type '" +
                                             iterType->str() + "'");
    return false;
  }
  // The counter and the index capture are u16, the width of an address.
  const Type *u16 = interp.getTypes().getInt(16, false);
  mlir::Location l = loc(stmt.getLoc());
  mlir::Type i16 = lowerType(ctx, u16);
  mlir::Value start = mlir::arith::ConstantIntOp::create(builder, l, i16, 0);
  mlir::Value stop = mlir::arith::ConstantIntOp::create(
      builder, l, i16, static_cast<int64_t>(array->getDims()[0]));
  mlir::Value step = mlir::arith::ConstantIntOp::create(builder, l, i16, 1);
  return lowerCountedLoop(
      stmt, u16, start, stop, step, mlir::arith::CmpIPredicate::ult,
      [&](mlir::Value i) {
        mlir::Value index =
            mlir::arith::IndexCastUIOp::create(builder, l,
                                               builder.getIndexType(), i);
        mlir::Value element =
            mlir::memref::LoadOp::create(builder, l, memref, index);
        bindCapture(stmt, 0, element, array->getElementType());
        bindCapture(stmt, 1, i, u16);
      });
}

void BodyGen::bindCapture(const ast::ForStmt &stmt, unsigned i,
                          mlir::Value value, const Type *t) {
  if (i < stmt.captures.size() && stmt.captures[i]->name.text != "_")
    scopes.back()[stmt.captures[i]->name.text] =
        Local{{}, value, std::nullopt, t};
}

bool BodyGen::lowerRangeFor(const ast::ForStmt &stmt,
                            const ast::BuiltinCall &range) {
  size_t n = range.args.size();
  if (n < 2 || n > 4) {
    diags.error(range.getLoc(), "'@range' expects 2 to 4 arguments, found " +
                                    llvm::Twine(n));
    return false;
  }
  const Type *t = evalType(*range.args[0]);
  if (!t)
    return false;
  if (!t->is(Type::Kind::Int)) {
    diags.error(range.args[0]->getLoc(),
                "'@range' needs an integer type, found '" + t->str() + "'");
    return false;
  }
  bool isSigned = llvm::cast<sema::IntType>(t)->isSigned();
  // @range(T, stop), @range(T, start, stop), @range(T, start, stop, step).
  auto bound = [&](const ast::Expr *e, int64_t dflt) -> mlir::Value {
    std::optional<RValue> v =
        e ? lowerExpr(*e)
          : RValue{Value::getComptimeInt(interp.getTypes(), dflt), {}, t};
    return v ? materialize(*v, t, e ? e->getLoc() : range.getLoc())
             : mlir::Value();
  };
  const ast::Expr *startExpr = n >= 3 ? range.args[1] : nullptr;
  const ast::Expr *stopExpr = range.args[n >= 3 ? 2 : 1];
  const ast::Expr *stepExpr = n == 4 ? range.args[3] : nullptr;
  // The direction of the comparison needs the sign of the step.
  int64_t stepSign = 1;
  if (stepExpr) {
    if (!canFold(*stepExpr)) {
      diags.error(stepExpr->getLoc(),
                  "'@range' step must be comptime-known in run-time code");
      return false;
    }
    std::optional<Value> s = evalComptime(*stepExpr);
    if (!s)
      return false;
    std::optional<Value> c = interp.coerce(*s, t, stepExpr->getLoc());
    if (!c)
      return false;
    if (c->getInt().isZero()) {
      diags.error(stepExpr->getLoc(), "'@range' step must not be zero");
      return false;
    }
    stepSign = c->getInt().isNegative() ? -1 : 1;
  }
  mlir::Value start = bound(startExpr, 0);
  if (!start)
    return false;
  mlir::Value stop = bound(stopExpr, 0);
  if (!stop)
    return false;
  mlir::Value step = bound(stepExpr, 1);
  if (!step)
    return false;
  using P = mlir::arith::CmpIPredicate;
  P pred = stepSign > 0 ? (isSigned ? P::slt : P::ult)
                        : (isSigned ? P::sgt : P::ugt);
  return lowerCountedLoop(stmt, t, start, stop, step, pred, [&](mlir::Value i) {
    bindCapture(stmt, 0, i, t);
    if (stmt.captures.size() > 1)
      bindCapture(stmt, 1,
                  mlir::arith::SubIOp::create(builder, loc(stmt.getLoc()), i,
                                              start),
                  t);
  });
}

bool BodyGen::lowerCountedLoop(
    const ast::ForStmt &stmt, const Type *counterType, mlir::Value start,
    mlir::Value stop, mlir::Value step, mlir::arith::CmpIPredicate pred,
    llvm::function_ref<void(mlir::Value)> bind) {
  mlir::Location l = loc(stmt.getLoc());
  mlir::Value counter = mlir::memref::AllocaOp::create(
      builder, l, getStorageType(ctx, counterType));
  mlir::memref::StoreOp::create(builder, l, start, counter);
  mlir::Block *before = builder.getInsertionBlock();
  mlir::Block *header = builder.createBlock(&body);
  mlir::Block *bodyBlock = builder.createBlock(&body);
  mlir::Block *latch = builder.createBlock(&body);
  mlir::Block *exit = builder.createBlock(&body);
  builder.setInsertionPointToEnd(before);
  mlir::cf::BranchOp::create(builder, l, header);

  builder.setInsertionPointToEnd(header);
  mlir::Value current = mlir::memref::LoadOp::create(builder, l, counter);
  mlir::Value more =
      mlir::arith::CmpIOp::create(builder, l, pred, current, stop);
  mlir::cf::CondBranchOp::create(builder, l, more, bodyBlock, exit);

  builder.setInsertionPointToEnd(bodyBlock);
  scopes.emplace_back();
  bind(current);
  loops.push_back({stmt.label.text, latch, exit});
  bool ok = lowerStmt(*stmt.body);
  loops.pop_back();
  scopes.pop_back();
  if (!ok)
    return false;
  mlir::cf::BranchOp::create(builder, l, latch);

  latch->moveBefore(&body, body.end());
  builder.setInsertionPointToEnd(latch);
  mlir::Value again = mlir::memref::LoadOp::create(builder, l, counter);
  mlir::Value next = mlir::arith::AddIOp::create(builder, l, again, step);
  mlir::memref::StoreOp::create(builder, l, next, counter);
  mlir::cf::BranchOp::create(builder, l, header);
  exit->moveBefore(&body, body.end());
  builder.setInsertionPointToEnd(exit);
  return true;
}

bool BodyGen::lowerSwitch(const ast::SwitchExpr &stmt) {
  std::optional<RValue> subject = lowerExpr(*stmt.subject);
  if (!subject)
    return false;
  const Type *t = subject->type;
  // A comptime-known subject selects its prong now; the others are never
  // analysed, as in Zig.
  if (subject->constant && subject->constant->isComptimeKnown())
    return lowerComptimeSwitch(stmt, *subject->constant);
  if (!t ||
      !(t->is(Type::Kind::Int) || t->is(Type::Kind::Bool) ||
        t->is(Type::Kind::Enum)) ||
      t->isComptimeOnly()) {
    diags.error(stmt.subject->getLoc(),
                "a run-time 'switch' needs an integer, bool or enum subject, "
                "found '" +
                    (t ? t->str() : std::string("?")) + "'");
    return false;
  }
  mlir::Value flag = materialize(*subject, t, stmt.subject->getLoc());
  if (!flag)
    return false;
  mlir::Location l = loc(stmt.getLoc());
  mlir::Block *current = builder.getInsertionBlock();
  mlir::Block *merge = builder.createBlock(&body);
  mlir::Block *elseBlock = merge;
  llvm::SmallVector<llvm::APInt> values;
  llvm::SmallVector<mlir::Block *> dests;
  llvm::SmallVector<std::pair<const ast::SwitchProng *, mlir::Block *>> prongs;
  for (const ast::SwitchProng *prong : stmt.prongs) {
    mlir::Block *block = builder.createBlock(&body);
    prongs.push_back({prong, block});
    if (prong->isElse) {
      elseBlock = block;
      continue;
    }
    // Case values are comptime, as cf.switch needs.
    for (const ast::Expr *e : prong->values) {
      std::optional<Value> v = canFold(*e) ? evalComptime(*e)
                                           : std::nullopt;
      if (v && !v->isComptimeKnown())
        v.reset();
      if (!v && !canFold(*e))
        diags.error(e->getLoc(), "a 'switch' value must be comptime-known");
      if (!v || !(v = interp.coerce(*v, t, e->getLoc())))
        return false;
      // Enums switch on their tags, as they are stored.
      llvm::APInt bits =
          t->is(Type::Kind::Bool)
              ? llvm::APInt(1, v->getBool())
              : llvm::APInt(v->getInt())
                    .zextOrTrunc(flag.getType().getIntOrFloatBitWidth());
      if (llvm::is_contained(values, bits)) {
        diags.error(e->getLoc(), "duplicate 'switch' value");
        return false;
      }
      values.push_back(bits);
      dests.push_back(block);
    }
  }
  builder.setInsertionPointToEnd(current);
  llvm::SmallVector<mlir::ValueRange> operands(values.size(),
                                               mlir::ValueRange());
  mlir::cf::SwitchOp::create(builder, l, flag, elseBlock, mlir::ValueRange(),
                             values, dests, operands);
  for (auto [prong, block] : prongs) {
    builder.setInsertionPointToEnd(block);
    if (!lowerStmt(*prong->body))
      return false;
    branchUnlessDead(l, merge);
  }
  merge->moveBefore(&body, body.end());
  builder.setInsertionPointToEnd(merge);
  return true;
}

bool BodyGen::lowerComptimeSwitch(const ast::SwitchExpr &stmt,
                                  const Value &subject) {
  const ast::SwitchProng *chosen = nullptr, *elseProng = nullptr;
  for (const ast::SwitchProng *prong : stmt.prongs) {
    if (prong->isElse) {
      elseProng = prong;
      continue;
    }
    for (const ast::Expr *e : prong->values) {
      std::optional<Value> v = evalComptime(*e);
      if (!v || !(v = interp.coerce(*v, subject.getType(), e->getLoc())))
        return false;
      if (!chosen && v->equals(subject))
        chosen = prong;
    }
  }
  if (!chosen)
    chosen = elseProng;
  if (!chosen) {
    diags.error(stmt.subject->getLoc(),
                "no 'switch' prong matches the comptime value " +
                    subject.str() + " and there is no 'else'");
    return false;
  }
  return lowerStmt(*chosen->body);
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
  const Type *result = type->getResult();
  if (stmt.value) {
    if (result->is(Type::Kind::Void)) {
      diags.error(stmt.value->getLoc(),
                  "'" + decl->name.text + "' returns no value");
      return false;
    }
    std::optional<RValue> value = lowerExprAs(*stmt.value, result);
    if (!value)
      return false;
    mlir::Value v = materialize(*value, result, stmt.value->getLoc());
    if (!v)
      return false;
    mlir::func::ReturnOp::create(builder, l, v);
  } else if (!result->is(Type::Kind::Void)) {
    diags.error(stmt.getLoc(), "'" + decl->name.text + "' must return a '" +
                                   result->str() + "'");
    return false;
  } else if (decl->isTask) {
    csl::ReturnOp::create(builder, l);
  } else {
    mlir::func::ReturnOp::create(builder, l);
  }
  startDeadBlock();
  return true;
}

bool mlirgen::lowerBody(sema::Interpreter &interp, sema::ModuleInstance &module,
                        const SymbolRequests &symbols, const ast::FnDecl &decl,
                        const sema::FunctionType &type, mlir::Region &body,
                        llvm::ArrayRef<std::optional<sema::Value>> comptimeArgs) {
  return BodyGen(interp, module, symbols, &decl, &type, body, comptimeArgs)
      .run();
}

const ast::VarDecl *mlirgen::getGlobalDecl(sema::ModuleInstance &module,
                                           llvm::StringRef name) {
  sema::GlobalSlot *slot = module.findGlobal(name);
  return slot ? llvm::dyn_cast_or_null<ast::VarDecl>(slot->decl) : nullptr;
}

bool mlirgen::lowerInitializer(sema::Interpreter &interp,
                               sema::ModuleInstance &module,
                               const SymbolRequests &symbols,
                               const ast::Expr &init, const sema::Type *type,
                               mlir::Region &body) {
  return BodyGen(interp, module, symbols, nullptr, nullptr, body)
      .runInitializer(init, type);
}

bool BodyGen::runInitializer(const ast::Expr &init, const Type *t) {
  builder.setInsertionPointToEnd(&body.front());
  scopes.emplace_back();
  std::optional<RValue> value = lowerExpr(init);
  if (!value)
    return false;
  mlir::Value v = materialize(*value, t, init.getLoc());
  if (!v)
    return false;
  csl::YieldOp::create(builder, loc(init.getLoc()), v);
  return true;
}
