//===- DSDGen.cpp - Handles, DSDs and DSD operations in run-time code -----===//
//
// `@get_dsd` builds DSD values straight from the call's syntax, so a tensor
// access never has to be a comptime value; a top-level `const` DSD is
// rebuilt at each use. DSD operations are created by name from their
// arguments and checked by the csl op verifiers, whose findings are user
// errors at the call.
//
//===----------------------------------------------------------------------===//

#include "BodyGen.h"
#include "VerifyNewOp.h"

#include "tessera/Dialect/CSL/IR/CSLOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSwitch.h"

#include <array>

using namespace tessera;
using namespace tessera::frontend;
using namespace tessera::frontend::mlirgen;

static llvm::StringRef bare(llvm::StringRef name) {
  name.consume_front("@");
  return name;
}

bool BodyGen::isHandleGetter(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(bare(name))
      .Cases({"get_color", "get_input_queue", "get_output_queue",
              "get_local_task_id", "get_data_task_id", "get_control_task_id",
              "get_ut_id"},
             true)
      .Default(false);
}

std::optional<RValue> BodyGen::lowerHandleGetter(const ast::BuiltinCall &call) {
  // The handle ops take a constant ID; a run-time ID has no op yet.
  for (const ast::Expr *arg : call.args) {
    if (!canFold(*arg)) {
      diags.error(arg->getLoc(), "a run-time argument to '@" +
                                     bare(call.name.text) +
                                     "' is not supported yet");
      return std::nullopt;
    }
  }
  std::optional<Value> v = evalComptime(call);
  if (!v)
    return std::nullopt;
  return RValue{v, {}, v->getType()};
}

/// The ops of reference 3.4 that the csl dialect defines.
static bool isDSDOperation(mlir::MLIRContext &ctx, llvm::StringRef name) {
  // They are the ops with the DSD options (load_to_dsr among them).
  std::optional<mlir::RegisteredOperationName> op =
      mlir::RegisteredOperationName::lookup(("csl." + name).str(), &ctx);
  return op && llvm::any_of(op->getAttributeNames(), [](mlir::StringAttr a) {
           return a.getValue() == "async";
         });
}

bool BodyGen::isDSDBuiltin(llvm::StringRef name) {
  llvm::StringRef n = bare(name);
  return n == "get_dsd" || n == "increment_dsd_offset" ||
         n == "set_dsd_base_addr" || n == "set_dsd_length" ||
         n == "set_dsd_stride" || isDSDOperation(ctx, n);
}

std::optional<RValue> BodyGen::lowerDSDBuiltin(const ast::BuiltinCall &call) {
  llvm::StringRef n = bare(call.name.text);
  if (n == "get_dsd")
    return lowerGetDSD(call);
  if (n == "increment_dsd_offset" || n == "set_dsd_base_addr" ||
      n == "set_dsd_length" || n == "set_dsd_stride")
    return lowerDSDMutator(call);
  return lowerDSDOperation(call);
}

/// The DSD type of `expr` when it is `@get_dsd(kind, ...)`, a DSD mutator
/// of such a value, or a global holding one; null otherwise.
static const sema::Type *getDSDExprType(sema::Interpreter &interp,
                                        sema::ModuleInstance &module,
                                        const ast::Expr &expr, unsigned depth) {
  if (depth > 16)
    return nullptr;
  if (const auto *ident = llvm::dyn_cast<ast::Identifier>(&expr)) {
    const ast::VarDecl *var = getGlobalDecl(module, ident->name.text);
    if (!var || var->varKind == ast::VarKind::Param)
      return nullptr;
    if (var->type) {
      const Type *type = interp.evaluateType(module, *var->type);
      return type && type->is(Type::Kind::DSD) ? type : nullptr;
    }
    return var->init ? getDSDExprType(interp, module, *var->init, depth + 1)
                     : nullptr;
  }
  const auto *call = llvm::dyn_cast<ast::BuiltinCall>(&expr);
  if (!call || call->args.empty())
    return nullptr;
  llvm::StringRef name = bare(call->name.text);
  if (name == "get_dsd") {
    const Type *type = interp.evaluateType(module, *call->args[0]);
    return type && type->is(Type::Kind::DSD) ? type : nullptr;
  }
  if (name == "increment_dsd_offset" || name == "set_dsd_base_addr" ||
      name == "set_dsd_length" || name == "set_dsd_stride")
    return getDSDExprType(interp, module, *call->args[0], depth + 1);
  return nullptr;
}

const sema::Type *mlirgen::getDSDVarType(sema::Interpreter &interp,
                                         sema::ModuleInstance &module,
                                         const ast::VarDecl &var) {
  if (var.varKind == ast::VarKind::Param)
    return nullptr;
  if (var.type) {
    const Type *type = interp.evaluateType(module, *var.type);
    return type && type->is(Type::Kind::DSD) ? type : nullptr;
  }
  return var.init ? getDSDExprType(interp, module, *var.init, 0) : nullptr;
}

bool BodyGen::lowerGlobalDSD(const ast::Identifier &ident,
                             std::optional<RValue> &out) {
  const ast::VarDecl *var = getGlobalDecl(module, ident.name.text);
  const auto *init =
      var ? llvm::dyn_cast_or_null<ast::BuiltinCall>(var->init) : nullptr;
  bool isFifo = init && bare(init->name.text) == "allocate_fifo";
  bool isDSD = var && !isFifo && getDSDVarType(interp, module, *var);
  if (!isDSD && !isFifo)
    return false;
  out = std::nullopt;
  if (var->varKind == ast::VarKind::Var && isFifo) {
    diags.error(var->getLoc(), "'@allocate_fifo' must initialize a 'const': "
                               "a FIFO cannot be reassigned");
    return true;
  }
  if (var->varKind == ast::VarKind::Var) {
    // Run-time state: read the csl.dsd_global's current descriptor.
    std::optional<std::string> symbol =
        symbols.dsdGlobal(module, *var, ident.getLoc());
    if (!symbol)
      return true;
    auto global =
        mlir::SymbolTable::lookupNearestSymbolFrom<csl::DSDGlobalOp>(
            body.getParentOp(), builder.getStringAttr(*symbol));
    mlir::Value dsd = csl::LoadDSDOp::create(
        builder, loc(ident.getLoc()), global.getType(),
        mlir::FlatSymbolRefAttr::get(&ctx, *symbol));
    out = RValue{std::nullopt, dsd, getDSDVarType(interp, module, *var)};
    return true;
  }
  if (!isFifo) {
    if (!var->init) {
      diags.error(var->getLoc(), "DSD constant '" + var->name.text +
                                     "' needs an initializer");
      return true;
    }
    out = lowerExpr(*var->init);
    return true;
  }
  // A FIFO is declared once by ProgramGen and named here.
  std::optional<std::string> symbol = symbols.fifo(module, *var, ident.getLoc());
  if (!symbol)
    return true;
  auto fifo = mlir::SymbolTable::lookupNearestSymbolFrom<csl::AllocateFifoOp>(
      body.getParentOp(), builder.getStringAttr(*symbol));
  mlir::Value dsd = csl::GetFifoOp::create(
      builder, loc(ident.getLoc()), fifo.getType(),
      mlir::FlatSymbolRefAttr::get(&ctx, *symbol));
  out = RValue{std::nullopt, dsd,
               interp.getTypes().getDSD(sema::DSDKind::Fifo)};
  return true;
}

//===----------------------------------------------------------------------===//
// @get_dsd
//===----------------------------------------------------------------------===//

namespace {
/// The fields of a `@get_dsd` options struct by name.
struct Fields {
  llvm::StringMap<const ast::FieldInit *> byName;
  const ast::FieldInit *get(llvm::StringRef name) const {
    return byName.lookup(name);
  }
};
} // namespace

mlir::Value BodyGen::lowerIntOperand(const ast::Expr &expr, unsigned bits,
                                     bool isSigned) {
  std::optional<RValue> v = lowerExpr(expr);
  if (!v)
    return {};
  return materialize(*v, interp.getTypes().getInt(bits, isSigned),
                     expr.getLoc());
}

mlir::Value BodyGen::lowerHandleOperand(const ast::Expr &expr,
                                        Type::Kind kind,
                                        llvm::StringRef what) {
  std::optional<RValue> v = lowerExpr(expr);
  if (!v)
    return {};
  if (!v->type->is(kind)) {
    diags.error(expr.getLoc(), "expected " + what + ", found '" +
                                   v->type->str() + "'");
    return {};
  }
  return materialize(*v, v->type, expr.getLoc());
}

mlir::Value BodyGen::lowerBaseAddress(const ast::Expr &expr) {
  const ast::Expr *e = &expr;
  if (const auto *unary = llvm::dyn_cast<ast::UnaryExpr>(e);
      unary && unary->op == ast::UnaryOp::AddressOf) {
    e = unary->operand;
  } else {
    // A pointer value (a parameter, a pointer global) is the base itself.
    const auto *ident = llvm::dyn_cast<ast::Identifier>(e);
    const Local *local = ident ? findLocal(ident->name.text) : nullptr;
    const sema::PointerType *pointerType = nullptr;
    bool isLValue = llvm::isa<ast::Identifier, ast::IndexExpr,
                              ast::FieldAccess, ast::DerefExpr,
                              ast::ParenExpr>(e);
    if ((local && local->value &&
         llvm::isa<sema::PointerType>(local->type)) ||
        (local && !local->pointerSlot.empty()) ||
        getPointerGlobal(*e, pointerType) || !isLValue) {
      // A pointer value (`@ptrcast(...)`, a call) is the base itself.
      std::optional<RValue> p = lowerExpr(*e);
      if (!p)
        return {};
      if (!p->value || !llvm::isa<sema::PointerType>(p->type)) {
        diags.error(e->getLoc(), "expected an address or a pointer, found '" +
                                     p->type->str() + "'");
        return {};
      }
      return p->value;
    }
  }
  mlir::Value memref;
  llvm::SmallVector<mlir::Value> indices;
  const Type *elementType = nullptr;
  if (!lowerAddress(*e, memref, indices, elementType))
    return {};
  if (!indices.empty()) {
    unsupported(expr, "a DSD base at an array element");
    return {};
  }
  return memref;
}

/// `e` in terms of the tensor access's indices, or null after an error.
mlir::AffineExpr BodyGen::lowerAffine(const ast::Expr &e,
                                      llvm::ArrayRef<ast::Capture *> dims) {
  if (const auto *paren = llvm::dyn_cast<ast::ParenExpr>(&e))
    return lowerAffine(*paren->inner, dims);
  if (const auto *ident = llvm::dyn_cast<ast::Identifier>(&e))
    for (auto [i, capture] : llvm::enumerate(dims))
      if (capture->name.text == ident->name.text)
        return mlir::getAffineDimExpr(i, &ctx);
  if (const auto *binary = llvm::dyn_cast<ast::BinaryExpr>(&e)) {
    using ast::BinaryOp;
    if (binary->op == BinaryOp::Add || binary->op == BinaryOp::Sub ||
        binary->op == BinaryOp::Mul) {
      mlir::AffineExpr l = lowerAffine(*binary->lhs, dims);
      mlir::AffineExpr r = l ? lowerAffine(*binary->rhs, dims) : nullptr;
      if (!r)
        return nullptr;
      if (binary->op == BinaryOp::Add)
        return l + r;
      if (binary->op == BinaryOp::Sub)
        return l - r;
      if (l.isSymbolicOrConstant() || r.isSymbolicOrConstant())
        return l * r;
    }
  }
  // Anything else must be a comptime integer that names no index.
  bool namesIndex = false;
  std::function<void(const ast::Node *)> visit = [&](const ast::Node *n) {
    if (const auto *id = llvm::dyn_cast<ast::Identifier>(n))
      for (ast::Capture *c : dims)
        namesIndex |= c->name.text == id->name.text;
    ast::forEachChild(n, visit);
  };
  visit(&e);
  std::optional<Value> v;
  if (!namesIndex && canFold(e)) {
    v = evalComptime(e);
    if (!v)
      return nullptr;
  }
  if (!v || !v->is(Value::Kind::Int) || !v->getInt().isSignedIntN(64)) {
    diags.error(e.getLoc(), "a tensor access index must be affine in its "
                            "indices with comptime-known coefficients");
    return nullptr;
  }
  return mlir::getAffineConstantExpr(v->getInt().getSExtValue(), &ctx);
}

std::optional<RValue> BodyGen::lowerTensorAccess(const ast::TensorAccess &ta,
                                                 sema::DSDKind kind,
                                                 bool waveletIndexOffset) {
  llvm::SmallVector<int64_t> sizes;
  for (const ast::Expr *extent : ta.extents) {
    std::optional<Value> v;
    if (canFold(*extent))
      v = evalComptime(*extent);
    else
      diags.error(extent->getLoc(), "a tensor access extent must be "
                                    "comptime-known");
    if (!v)
      return std::nullopt;
    if (!v->is(Value::Kind::Int) || !v->getInt().isSignedIntN(64)) {
      diags.error(extent->getLoc(), "expected an integer extent, found '" +
                                        v->getType()->str() + "'");
      return std::nullopt;
    }
    sizes.push_back(v->getInt().getSExtValue());
  }
  const auto *index = llvm::dyn_cast<ast::IndexExpr>(ta.body);
  if (!index) {
    diags.error(ta.body->getLoc(),
                "a tensor access must index an array: 'A[...]'");
    return std::nullopt;
  }
  llvm::SmallVector<mlir::AffineExpr> results;
  for (const ast::Expr *i : index->indices) {
    mlir::AffineExpr e = lowerAffine(*i, ta.indices);
    if (!e)
      return std::nullopt;
    results.push_back(e);
  }
  mlir::Value base = lowerBaseAddress(*index->base);
  if (!base)
    return std::nullopt;
  auto map = mlir::AffineMap::get(ta.indices.size(), 0, results, &ctx);
  auto memrefType = mlir::cast<mlir::MemRefType>(base.getType());
  auto type = csl::DSDType::get(&ctx,
                                kind == sema::DSDKind::Mem1d
                                    ? csl::DSDKind::Mem1d
                                    : csl::DSDKind::Mem4d,
                                memrefType.getElementType());
  auto op = csl::TensorAccessDSDOp::create(
      builder, loc(ta.getLoc()), type, base,
      builder.getDenseI64ArrayAttr(sizes), mlir::AffineMapAttr::get(map),
      waveletIndexOffset ? builder.getUnitAttr() : mlir::UnitAttr());
  if (!verifyCreated(op, ta.getLoc(), "@get_dsd"))
    return std::nullopt;
  // Programs build placeholder DSDs and set their length before use, so
  // an access past the array is only worth a warning here.
  if (std::optional<std::string> outside = csl::describeOutOfBounds(op))
    diags.warning(ta.getLoc(), *outside + "; its length must be shortened "
                                          "before a DSD operation uses it");
  return RValue{std::nullopt, op, interp.getTypes().getDSD(kind)};
}

std::optional<RValue> BodyGen::lowerGetDSD(const ast::BuiltinCall &call) {
  if (call.args.size() != 2) {
    diags.error(call.getLoc(), "'@get_dsd' expects 2 arguments, found " +
                                   llvm::Twine(call.args.size()));
    return std::nullopt;
  }
  const auto *kindName = llvm::dyn_cast<ast::Identifier>(call.args[0]);
  std::optional<sema::DSDKind> kind;
  if (kindName)
    kind = llvm::StringSwitch<std::optional<sema::DSDKind>>(
               kindName->name.text)
               .Case("mem1d_dsd", sema::DSDKind::Mem1d)
               .Case("mem4d_dsd", sema::DSDKind::Mem4d)
               .Case("fabin_dsd", sema::DSDKind::FabinDSD)
               .Case("fabout_dsd", sema::DSDKind::FaboutDSD)
               .Default(std::nullopt);
  if (!kind) {
    diags.error(call.args[0]->getLoc(),
                "expected a DSD type (mem1d_dsd, mem4d_dsd, fabin_dsd or "
                "fabout_dsd)");
    return std::nullopt;
  }
  const auto *lit = llvm::dyn_cast<ast::StructLiteral>(call.args[1]);
  if (!lit) {
    diags.error(call.args[1]->getLoc(),
                "'@get_dsd' expects its fields as a struct literal '.{ ... }'");
    return std::nullopt;
  }
  Fields fields;
  llvm::StringRef allowed;
  switch (*kind) {
  case sema::DSDKind::Mem1d:
    allowed = "tensor_access base_address extent stride offset "
              "wavelet_index_offset";
    break;
  case sema::DSDKind::Mem4d:
    allowed = "tensor_access";
    break;
  case sema::DSDKind::FabinDSD:
    allowed = "extent fabric_color input_queue control_transform";
    break;
  case sema::DSDKind::FaboutDSD:
    allowed = "extent fabric_color output_queue control advance_switch "
              "wavelet_index_offset control_transform";
    break;
  case sema::DSDKind::Fifo:
    break; // not a @get_dsd kind name
  }
  llvm::SmallVector<llvm::StringRef> names;
  allowed.split(names, ' ');
  for (const ast::FieldInit *f : lit->fields) {
    if (!llvm::is_contained(names, f->name.text)) {
      diags.error(f->name.loc(), "'" + kindName->name.text +
                                     "' has no field '" + f->name.text + "'");
      return std::nullopt;
    }
    fields.byName[f->name.text] = f;
  }
  auto require = [&](llvm::StringRef name) -> const ast::Expr * {
    if (const ast::FieldInit *f = fields.get(name))
      return f->value;
    diags.error(call.getLoc(), "'" + kindName->name.text + "' needs '." +
                                   name + "'");
    return nullptr;
  };
  // A unit flag: a comptime-known bool.
  auto flag = [&](llvm::StringRef name, bool &out) {
    const ast::FieldInit *f = fields.get(name);
    out = false;
    if (!f)
      return true;
    std::optional<Value> v;
    unsigned errors = diags.getNumErrors();
    if (canFold(*f->value))
      v = evalComptime(*f->value);
    if (!v || !v->is(Value::Kind::Bool)) {
      if (diags.getNumErrors() == errors)
        diags.error(f->value->getLoc(),
                    "'." + name + "' must be a comptime-known bool");
      return false;
    }
    out = v->getBool();
    return true;
  };
  mlir::Location l = loc(call.getLoc());
  const Type *resultType = interp.getTypes().getDSD(*kind);

  if (const ast::FieldInit *ta = fields.get("tensor_access")) {
    bool waveletIndexOffset = false;
    if (!flag("wavelet_index_offset", waveletIndexOffset))
      return std::nullopt;
    if (fields.byName.size() != 1 + (fields.get("wavelet_index_offset") ? 1 : 0)) {
      diags.error(call.getLoc(), "'.tensor_access' excludes the other fields");
      return std::nullopt;
    }
    const auto *access = llvm::dyn_cast<ast::TensorAccess>(ta->value);
    if (!access) {
      diags.error(ta->value->getLoc(),
                  "'.tensor_access' expects '|i|{N} -> A[...]'");
      return std::nullopt;
    }
    return lowerTensorAccess(*access, *kind, waveletIndexOffset);
  }
  mlir::Operation *op = nullptr;
  // The extent, color and queue every fabric DSD needs, lowered in that
  // order: the first error stops the rest.
  auto fabricOperands = [&](llvm::StringRef queueField, Type::Kind queueKind,
                            llvm::StringRef queueWhat)
      -> std::optional<std::array<mlir::Value, 3>> {
    const ast::Expr *e = require("extent");
    const ast::Expr *c = e ? require("fabric_color") : nullptr;
    const ast::Expr *q = c ? require(queueField) : nullptr;
    if (!q)
      return std::nullopt;
    mlir::Value extent = lowerIntOperand(*e, 16, false);
    mlir::Value color =
        extent ? lowerHandleOperand(*c, Type::Kind::Color, "a color")
               : mlir::Value();
    mlir::Value queue =
        color ? lowerHandleOperand(*q, queueKind, queueWhat) : mlir::Value();
    if (!queue)
      return std::nullopt;
    return std::array<mlir::Value, 3>{extent, color, queue};
  };
  switch (*kind) {
  case sema::DSDKind::Fifo:
    return std::nullopt; // not a @get_dsd kind name
  case sema::DSDKind::Mem4d:
    require("tensor_access");
    return std::nullopt;
  case sema::DSDKind::Mem1d: {
    const ast::Expr *baseExpr = require("base_address");
    const ast::Expr *extentExpr = baseExpr ? require("extent") : nullptr;
    if (!extentExpr)
      return std::nullopt;
    mlir::Value base = lowerBaseAddress(*baseExpr);
    mlir::Value extent = base ? lowerIntOperand(*extentExpr, 16, false)
                              : mlir::Value();
    if (!extent)
      return std::nullopt;
    mlir::Value offset, stride;
    if (const ast::FieldInit *f = fields.get("offset"))
      if (!(offset = lowerIntOperand(*f->value, 16, true)))
        return std::nullopt;
    if (const ast::FieldInit *f = fields.get("stride"))
      if (!(stride = lowerIntOperand(*f->value, 8, true)))
        return std::nullopt;
    auto type = csl::DSDType::get(
        &ctx, csl::DSDKind::Mem1d,
        mlir::cast<mlir::MemRefType>(base.getType()).getElementType());
    op = csl::Mem1dDSDOp::create(builder, l, type, base, extent, offset,
                                 stride, /*wavelet_index_offset=*/nullptr);
    break;
  }
  case sema::DSDKind::FabinDSD: {
    bool transform;
    auto operands =
        fabricOperands("input_queue", Type::Kind::InputQueue, "an input queue");
    if (!operands || !flag("control_transform", transform))
      return std::nullopt;
    auto [extent, color, queue] = *operands;
    op = csl::FabinDSDOp::create(builder, l,
                                 csl::DSDType::get(&ctx, csl::DSDKind::Fabin,
                                                   mlir::Type()),
                                 extent, color, queue,
                                 transform ? builder.getUnitAttr() : mlir::UnitAttr(),
                                 csl::PriorityAttr());
    break;
  }
  case sema::DSDKind::FaboutDSD: {
    bool control, advance, offsetIndex, transform;
    auto operands = fabricOperands("output_queue", Type::Kind::OutputQueue,
                                   "an output queue");
    if (!operands || !flag("control", control) ||
        !flag("advance_switch", advance) ||
        !flag("wavelet_index_offset", offsetIndex) ||
        !flag("control_transform", transform))
      return std::nullopt;
    auto [extent, color, queue] = *operands;
    auto unit = [&](bool b) {
      return b ? builder.getUnitAttr() : mlir::UnitAttr();
    };
    op = csl::FaboutDSDOp::create(builder, l,
                                  csl::DSDType::get(&ctx, csl::DSDKind::Fabout,
                                                    mlir::Type()),
                                  extent, color, queue,
                                  unit(control), unit(offsetIndex),
                                  unit(advance), unit(transform),
                                  csl::PriorityAttr());
    break;
  }
  }
  if (!verifyCreated(op, call.getLoc(), "@get_dsd"))
    return std::nullopt;
  return RValue{std::nullopt, op->getResult(0), resultType};
}

bool BodyGen::verifyCreated(mlir::Operation *op, llvm::SMLoc at,
                            llvm::StringRef builtin) {
  std::optional<std::string> message = verifyNewOp(op);
  if (!message)
    return true;
  diags.error(at, "invalid '" + builtin + "': " + *message);
  op->erase();
  return false;
}

//===----------------------------------------------------------------------===//
// Mutators
//===----------------------------------------------------------------------===//

std::optional<RValue> BodyGen::lowerDSDOperand(const ast::Expr &expr) {
  std::optional<RValue> v = lowerExpr(expr);
  if (!v)
    return std::nullopt;
  if (!v->type->is(Type::Kind::DSD) || !v->value) {
    diags.error(expr.getLoc(),
                "expected a DSD, found '" + v->type->str() + "'");
    return std::nullopt;
  }
  return v;
}

std::optional<RValue> BodyGen::lowerDSDMutator(const ast::BuiltinCall &call) {
  llvm::StringRef n = bare(call.name.text);
  unsigned expected = n == "increment_dsd_offset" ? 3 : 2;
  if (call.args.size() != expected) {
    diags.error(call.getLoc(), "'@" + n + "' expects " +
                                   llvm::Twine(expected) +
                                   " arguments, found " +
                                   llvm::Twine(call.args.size()));
    return std::nullopt;
  }
  std::optional<RValue> operand = lowerDSDOperand(*call.args[0]);
  if (!operand)
    return std::nullopt;
  mlir::Value dsd = operand->value;
  const Type *dsdType = operand->type;
  mlir::Location l = loc(call.getLoc());
  mlir::Operation *op = nullptr;
  if (n == "increment_dsd_offset") {
    mlir::Value offset = lowerIntOperand(*call.args[1], 16, true);
    const Type *elem = offset ? evalType(*call.args[2])
                              : nullptr;
    mlir::Type elemType = elem ? lowerType(ctx, elem) : mlir::Type();
    if (!elemType) {
      if (elem)
        diags.error(call.args[2]->getLoc(), "expected a DSD element type, "
                                            "found '" + elem->str() + "'");
      return std::nullopt;
    }
    op = csl::IncrementDSDOffsetOp::create(builder, l, dsd.getType(), dsd,
                                           offset,
                                           mlir::TypeAttr::get(elemType));
  } else if (n == "set_dsd_base_addr") {
    mlir::Value base = lowerBaseAddress(*call.args[1]);
    if (!base)
      return std::nullopt;
    op = csl::SetDSDBaseAddrOp::create(builder, l, dsd.getType(), dsd, base);
  } else if (n == "set_dsd_length") {
    mlir::Value length = lowerIntOperand(*call.args[1], 16, false);
    if (!length)
      return std::nullopt;
    op = csl::SetDSDLengthOp::create(builder, l, dsd.getType(), dsd, length);
  } else {
    mlir::Value stride = lowerIntOperand(*call.args[1], 8, true);
    if (!stride)
      return std::nullopt;
    op = csl::SetDSDStrideOp::create(builder, l, dsd.getType(), dsd, stride);
  }
  if (!verifyCreated(op, call.getLoc(), "@" + n.str()))
    return std::nullopt;
  return RValue{std::nullopt, op->getResult(0), dsdType};
}

//===----------------------------------------------------------------------===//
// DSD operations
//===----------------------------------------------------------------------===//

std::optional<Value> BodyGen::getStructConstant(const ast::Expr &expr) {
  // Only names of comptime structs: evaluating other operands (a DSD
  // global, say) at comptime would be wrong.
  const auto *ident = llvm::dyn_cast<ast::Identifier>(&expr);
  if (!ident)
    return std::nullopt;
  if (const Local *local = findLocal(ident->name.text))
    return local->constant && local->constant->is(Value::Kind::Struct)
               ? local->constant
               : std::nullopt;
  const ast::VarDecl *var = getGlobalDecl(module, ident->name.text);
  if (!var || var->varKind != ast::VarKind::Const ||
      !llvm::isa_and_nonnull<ast::StructLiteral>(var->init))
    return std::nullopt;
  std::optional<Value> v =
      interp.getGlobal(module, ident->name.text, ident->getLoc());
  return v && v->is(Value::Kind::Struct) ? v : std::nullopt;
}

std::optional<RValue> BodyGen::lowerDSDOperation(const ast::BuiltinCall &call) {
  llvm::StringRef n = bare(call.name.text);
  llvm::ArrayRef<ast::Expr *> args = call.args;
  // The options: a struct literal, or a comptime struct value
  // (`const props = .{ .async = true }; @mov32(d, s, props);`).
  struct Option {
    llvm::StringRef name;
    llvm::SMLoc nameLoc, valueLoc;
    const ast::Expr *expr = nullptr; // lowered on use, else `constant`
    std::optional<Value> constant;
  };
  llvm::SmallVector<Option> options;
  bool hasOptions = false;
  if (!args.empty()) {
    if (const auto *lit = llvm::dyn_cast<ast::StructLiteral>(args.back())) {
      hasOptions = true;
      for (const ast::FieldInit *f : lit->fields)
        options.push_back({f->name.text, f->name.loc(), f->value->getLoc(),
                           f->value, std::nullopt});
    } else if (std::optional<Value> v = getStructConstant(*args.back())) {
      {
        hasOptions = true;
        llvm::SMLoc at = args.back()->getLoc();
        for (const sema::FieldValue &f : v->getFields())
          options.push_back({f.name, at, at, nullptr, f.value});
      }
    }
    if (hasOptions)
      args = args.drop_back();
  }
  mlir::OperationState state(loc(call.getLoc()), ("csl." + n).str());
  // A comptime scalar takes the operation's element width.
  bool half = n.ends_with("h") || n.ends_with("16");
  for (const ast::Expr *arg : args) {
    if (const auto *unary = llvm::dyn_cast<ast::UnaryExpr>(arg);
        unary && unary->op == ast::UnaryOp::AddressOf) {
      mlir::Value p = lowerBaseAddress(*arg);
      if (!p)
        return std::nullopt;
      state.operands.push_back(p);
      continue;
    }
    std::optional<RValue> v = lowerExpr(*arg);
    if (!v)
      return std::nullopt;
    const Type *to = v->type;
    if (v->constant && to->is(Type::Kind::ComptimeFloat))
      to = interp.getTypes().getFloat(half ? sema::FloatFormat::F16
                                           : sema::FloatFormat::F32);
    else if (v->constant && to->is(Type::Kind::ComptimeInt))
      to = interp.getTypes().getInt(half ? 16 : 32, true);
    mlir::Value m = v->value && v->type->is(Type::Kind::DSD)
                        ? v->value
                        : materialize(*v, to, arg->getLoc());
    if (!m)
      return std::nullopt;
    state.operands.push_back(m);
  }
  llvm::SmallVector<int32_t> segments(state.operands.size(), 1);
  mlir::Value activate, unblock, utId, index;
  for (const Option &f : options) {
    llvm::StringRef name = f.name;
    if (name == "async" || (name == "save_address" && n == "load_to_dsr")) {
      std::optional<Value> v = f.constant;
      if (f.expr && canFold(*f.expr))
        v = evalComptime(*f.expr);
      if (!v || !v->is(Value::Kind::Bool)) {
        diags.error(f.valueLoc,
                    "'." + name + "' must be a comptime-known bool");
        return std::nullopt;
      }
      if (v->getBool())
        state.addAttribute(name, builder.getUnitAttr());
      continue;
    }
    if (name == "priority" && n != "load_to_dsr") {
      // `.{ .high = true }`: exactly one level set.
      std::optional<Value> v = f.constant;
      if (f.expr && canFold(*f.expr))
        v = evalComptime(*f.expr);
      std::optional<csl::Priority> level;
      if (v && v->is(Value::Kind::Struct) && v->getFields().size() == 1 &&
          v->getFields()[0].value.is(Value::Kind::Bool) &&
          v->getFields()[0].value.getBool())
        level = csl::symbolizePriority(v->getFields()[0].name);
      if (!level) {
        diags.error(f.valueLoc, "'.priority' expects one of "
                                "'.{ .low = true }', '.{ .medium = true }' "
                                "or '.{ .high = true }'");
        return std::nullopt;
      }
      state.addAttribute("priority", csl::PriorityAttr::get(&ctx, *level));
      continue;
    }
    mlir::Value *slot = name == "activate" ? &activate
                        : name == "unblock" ? &unblock
                        : name == "ut_id"   ? &utId
                        : name == "index"   ? &index
                                            : nullptr;
    if (!slot) {
      diags.error(f.nameLoc, "'@" + n + "' has no option '" + name + "'");
      return std::nullopt;
    }
    std::optional<RValue> v =
        f.expr ? lowerExpr(*f.expr)
               : std::optional<RValue>(
                     RValue{f.constant, {}, f.constant->getType()});
    if (!v)
      return std::nullopt;
    // A task stands for the ID it is bound to.
    if ((slot == &activate || slot == &unblock) && v->constant &&
        v->constant->is(Value::Kind::Function) &&
        v->constant->getModule()) {
      std::optional<Value> id = symbols.boundTaskID(
          *v->constant->getModule(), *v->constant->getFunctionDecl(),
          f.valueLoc);
      if (!id)
        return std::nullopt;
      v = RValue{id, {}, id->getType()};
    }
    *slot = materialize(*v, slot == &index
                                ? interp.getTypes().getInt(16, false)
                                : v->type,
                        f.valueLoc);
    if (!*slot)
      return std::nullopt;
  }
  for (mlir::Value v : {activate, unblock, utId}) {
    segments.push_back(v ? 1 : 0);
    if (v)
      state.operands.push_back(v);
  }
  // load_to_dsr has no `.index`.
  if (n != "load_to_dsr") {
    segments.push_back(index ? 1 : 0);
    if (index)
      state.operands.push_back(index);
  } else if (index) {
    diags.error(call.getLoc(), "'@load_to_dsr' has no option 'index'");
    return std::nullopt;
  }
  state.addAttribute("operandSegmentSizes",
                     builder.getDenseI32ArrayAttr(segments));
  mlir::Operation *op = builder.create(state);
  if (!verifyCreated(op, call.getLoc(), "@" + n.str()))
    return std::nullopt;
  return RValue{Value::getVoid(interp.getTypes()), {},
                interp.getTypes().getVoid()};
}
