//===- CastGen.cpp - Run-time '@as' ---------------------------------------===//
//
// `@as(T, x)` on a run-time number or bool, with the rules of reference
// 2.9: integers wrap (truncate or extend by the source's signedness),
// float-to-int truncates toward zero, and number-to-bool is `!= 0`, with
// NaN unordered and so true.
//
//===----------------------------------------------------------------------===//

#include "BodyGen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace tessera;
using namespace tessera::frontend;
using namespace tessera::frontend::mlirgen;

static bool isNumberOrBool(const Type *t) {
  return t->is(Type::Kind::Int) || t->is(Type::Kind::Float) ||
         t->is(Type::Kind::Bool);
}

std::optional<RValue> BodyGen::lowerAs(const ast::BuiltinCall &call) {
  if (call.args.size() != 2) {
    diags.error(call.getLoc(), "'@as' expects 2 arguments, found " +
                                   llvm::Twine(call.args.size()));
    return std::nullopt;
  }
  const Type *to = evalType(*call.args[0]);
  if (!to)
    return std::nullopt;
  std::optional<RValue> from = lowerExpr(*call.args[1]);
  if (!from)
    return std::nullopt;
  if (from->constant) {
    // A comptime number takes the target type directly, range-checked.
    if (from->constant->getType()->isComptimeOnly()) {
      mlir::Value v = materialize(*from, to, call.args[1]->getLoc());
      return v ? std::optional<RValue>(RValue{std::nullopt, v, to})
               : std::nullopt;
    }
    from->value = materialize(*from, nullptr, call.args[1]->getLoc());
    if (!from->value)
      return std::nullopt;
    from->constant.reset();
  }
  // An enum converts like its tag type.
  const Type *src = from->type;
  if (const auto *e = llvm::dyn_cast<sema::EnumType>(src))
    src = e->getTagType();
  const Type *result = to;
  if (const auto *e = llvm::dyn_cast<sema::EnumType>(to))
    to = e->getTagType();
  mlir::Type target = lowerType(ctx, to);
  if (!target || !isNumberOrBool(to) || !isNumberOrBool(src)) {
    diags.error(call.getLoc(), "cannot convert '" + from->type->str() +
                                   "' to '" + result->str() + "' at run time");
    return std::nullopt;
  }
  mlir::Location l = loc(call.getLoc());
  mlir::Value v = from->value;
  auto done = [&](mlir::Value v) {
    return std::optional<RValue>(RValue{std::nullopt, v, result});
  };
  if (src == to)
    return done(v);
  unsigned fromBits = v.getType().getIntOrFloatBitWidth();
  unsigned toBits = target.getIntOrFloatBitWidth();
  const auto *srcInt = llvm::dyn_cast<sema::IntType>(src);
  bool srcSigned = srcInt && srcInt->isSigned();
  const auto *toInt = llvm::dyn_cast<sema::IntType>(to);
  if (to->is(Type::Kind::Bool)) {
    if (src->is(Type::Kind::Float)) {
      mlir::Value zero = mlir::arith::ConstantOp::create(
          builder, l, builder.getFloatAttr(v.getType(), 0.0));
      return done(mlir::arith::CmpFOp::create(
          builder, l, mlir::arith::CmpFPredicate::UNE, v, zero));
    }
    mlir::Value zero =
        mlir::arith::ConstantIntOp::create(builder, l, v.getType(), 0);
    return done(mlir::arith::CmpIOp::create(
        builder, l, mlir::arith::CmpIPredicate::ne, v, zero));
  }
  if (src->is(Type::Kind::Float)) {
    if (to->is(Type::Kind::Float)) {
      if (toBits > fromBits)
        return done(mlir::arith::ExtFOp::create(builder, l, target, v));
      // f16 and bf16 differ in format at the same width.
      if (toBits == fromBits)
        v = mlir::arith::ExtFOp::create(builder, l, builder.getF32Type(), v);
      return done(mlir::arith::TruncFOp::create(builder, l, target, v));
    }
    if (toInt->isSigned())
      return done(mlir::arith::FPToSIOp::create(builder, l, target, v));
    return done(mlir::arith::FPToUIOp::create(builder, l, target, v));
  }
  // From an integer or a bool (an unsigned i1).
  if (to->is(Type::Kind::Float)) {
    if (srcSigned)
      return done(mlir::arith::SIToFPOp::create(builder, l, target, v));
    return done(mlir::arith::UIToFPOp::create(builder, l, target, v));
  }
  if (toBits < fromBits)
    return done(mlir::arith::TruncIOp::create(builder, l, target, v));
  if (toBits > fromBits) {
    if (srcSigned)
      return done(mlir::arith::ExtSIOp::create(builder, l, target, v));
    return done(mlir::arith::ExtUIOp::create(builder, l, target, v));
  }
  // Same width, other signedness: the same bits.
  return done(v);
}
