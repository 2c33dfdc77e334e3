//===- IntrinsicGen.cpp - Run-time builtins that touch the PE itself ------===//
//
// @get_config, @set_config, @random16, @bitcast and run-time @assert:
// builtins lowered straight to one operation each.
//
//===----------------------------------------------------------------------===//

#include "BodyGen.h"

#include "tessera/Dialect/CSL/IR/CSLOps.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tessera;
using namespace tessera::frontend;
using namespace tessera::frontend::mlirgen;

bool BodyGen::isIntrinsic(llvm::StringRef name) {
  name.consume_front("@");
  return llvm::StringSwitch<bool>(name)
      .Cases({"get_config", "set_config", "random16", "bitcast", "assert",
              "ptrcast", "get_int", "map"},
             true)
      .Default(false);
}

std::optional<RValue> BodyGen::lowerIntrinsic(const ast::BuiltinCall &call) {
  llvm::StringRef name = call.name.text;
  name.consume_front("@");
  if (name == "map")
    return lowerMap(call);
  unsigned expected = llvm::StringSwitch<unsigned>(name)
                          .Case("get_config", 1)
                          .Case("set_config", 2)
                          .Case("random16", 0)
                          .Case("assert", 1)
                          .Case("get_int", 1)
                          .Default(2);
  if (call.args.size() != expected) {
    diags.error(call.getLoc(), "'@" + name + "' expects " +
                                   llvm::Twine(expected) +
                                   " arguments, found " +
                                   llvm::Twine(call.args.size()));
    return std::nullopt;
  }
  sema::TypeContext &types = interp.getTypes();
  const Type *u16 = types.getInt(16, /*isSigned=*/false);
  mlir::Location l = loc(call.getLoc());
  // Config addresses and words are u16.
  auto operand = [&](unsigned i) -> mlir::Value {
    std::optional<RValue> v = lowerExpr(*call.args[i]);
    return v ? materialize(*v, u16, call.args[i]->getLoc()) : mlir::Value();
  };
  if (name == "get_config") {
    mlir::Value addr = operand(0);
    if (!addr)
      return std::nullopt;
    return RValue{std::nullopt,
                  csl::GetConfigOp::create(builder, l, builder.getI16Type(),
                                           addr),
                  u16};
  }
  if (name == "set_config") {
    mlir::Value addr = operand(0);
    mlir::Value value = addr ? operand(1) : mlir::Value();
    if (!value)
      return std::nullopt;
    csl::SetConfigOp::create(builder, l, addr, value);
    return RValue{Value::getVoid(types), {}, types.getVoid()};
  }
  if (name == "assert") {
    std::optional<RValue> cond = lowerExpr(*call.args[0]);
    mlir::Value c =
        cond ? materialize(*cond, types.getBool(), call.args[0]->getLoc())
             : mlir::Value();
    if (!c)
      return std::nullopt;
    csl::AssertOp::create(builder, l, c);
    return RValue{Value::getVoid(types), {}, types.getVoid()};
  }
  if (name == "random16")
    return RValue{std::nullopt,
                  csl::Random16Op::create(builder, l, builder.getI16Type()),
                  u16};

  if (name == "get_int") {
    // A comptime handle folded before; a run-time one is read here.
    std::optional<RValue> h = lowerExpr(*call.args[0]);
    if (!h)
      return std::nullopt;
    if (!h->type->isHandle()) {
      diags.error(call.args[0]->getLoc(),
                  "expected a color, queue or task ID, found '" +
                      h->type->str() + "'");
      return std::nullopt;
    }
    mlir::Value v = materialize(*h, h->type, call.args[0]->getLoc());
    if (!v)
      return std::nullopt;
    return RValue{std::nullopt,
                  csl::GetIntOp::create(builder, l, builder.getI16Type(), v),
                  u16};
  }
  if (name == "ptrcast") {
    // @ptrcast(T, p): the address p holds, as a pointer of type T.
    const Type *to = evalType(*call.args[0]);
    if (!to)
      return std::nullopt;
    std::optional<RValue> from = lowerExpr(*call.args[1]);
    if (!from)
      return std::nullopt;
    mlir::Value p = from->value;
    if (!to->is(Type::Kind::Pointer) || !p ||
        !llvm::isa<sema::PointerType>(from->type)) {
      diags.error(call.getLoc(), "'@ptrcast' converts a pointer to another "
                                 "pointer type, found '" +
                                     from->type->str() + "' and '" +
                                     to->str() + "'");
      return std::nullopt;
    }
    auto op = csl::PtrCastOp::create(builder, l, lowerType(ctx, to), p);
    if (!verifyCreated(op, call.getLoc(), "@ptrcast"))
      return std::nullopt;
    return RValue{std::nullopt, op, to};
  }
  // @bitcast(T, x): the same bits seen as another type of the same width.
  const Type *to = evalType(*call.args[0]);
  if (!to)
    return std::nullopt;
  std::optional<RValue> from = lowerExpr(*call.args[1]);
  if (!from)
    return std::nullopt;
  mlir::Value v = materialize(*from, from->constant ? nullptr : from->type,
                              call.args[1]->getLoc());
  if (!v)
    return std::nullopt;
  const Type *fromType = from->constant ? from->constant->getType() : from->type;
  mlir::Type target = lowerType(ctx, to);
  // A 16-bit integer as a pointer: a fixed address.
  if (to->is(Type::Kind::Pointer) && target &&
      v.getType().isInteger(16))
    return RValue{std::nullopt,
                  csl::AddressToPointerOp::create(builder, l, target, v), to};
  bool scalar = target && target.isIntOrFloat() && v.getType().isIntOrFloat();
  if (!scalar || target.getIntOrFloatBitWidth() !=
                     v.getType().getIntOrFloatBitWidth()) {
    diags.error(call.getLoc(), "'@bitcast' needs numbers of the same size, "
                               "found '" +
                                   fromType->str() + "' and '" + to->str() +
                                   "'");
    return std::nullopt;
  }
  if (target == v.getType())
    return RValue{std::nullopt, v, to};
  return RValue{std::nullopt,
                mlir::arith::BitcastOp::create(builder, l, target, v), to};
}

std::optional<RValue> BodyGen::lowerMap(const ast::BuiltinCall &call) {
  // @map(f, args..., dest): csl.map over f's specialization-free symbol.
  sema::TypeContext &types = interp.getTypes();
  if (call.args.size() < 2) {
    diags.error(call.getLoc(), "'@map' expects a function, its arguments and "
                               "a destination");
    return std::nullopt;
  }
  std::optional<Value> callee = evalComptime(*call.args[0]);
  if (!callee)
    return std::nullopt;
  const auto *fnType = callee->is(Value::Kind::Function)
                           ? llvm::dyn_cast<sema::FunctionType>(callee->getType())
                           : nullptr;
  if (!fnType || fnType->isTask() || !callee->getModule()) {
    diags.error(call.args[0]->getLoc(), "'@map' expects a function, found '" +
                                            callee->getType()->str() + "'");
    return std::nullopt;
  }
  const ast::FnDecl &fn = *callee->getFunctionDecl();
  // A function returning a value needs a destination after its arguments.
  bool hasDest = !fnType->getResult()->is(Type::Kind::Void);
  if (fnType->getParams().size() + (hasDest ? 2 : 1) != call.args.size()) {
    diags.error(call.getLoc(),
                "'@map' gives '" + fn.name.text + "' " +
                    llvm::Twine(call.args.size() - (hasDest ? 2 : 1)) +
                    " arguments, it takes " +
                    llvm::Twine(fnType->getParams().size()) +
                    (hasDest ? " (the last argument is the destination)"
                             : ""));
    return std::nullopt;
  }
  std::optional<std::string> symbol =
      symbols.function(*callee->getModule(), fn, call.getLoc());
  if (!symbol)
    return std::nullopt;
  llvm::SmallVector<mlir::Value> operands;
  for (unsigned i = 1; i < call.args.size(); ++i) {
    const ast::Expr &arg = *call.args[i];
    bool isDest = hasDest && i + 1 == call.args.size();
    const Type *elementType =
        isDest ? fnType->getResult() : fnType->getParams()[i - 1];
    std::optional<RValue> v = lowerExprAs(arg, elementType);
    if (!v)
      return std::nullopt;
    // DSDs and pointers pass as they are; scalars take the param's type.
    bool passThrough = v->value && (v->type->is(Type::Kind::DSD) ||
                                    v->type->is(Type::Kind::Pointer));
    mlir::Value m = passThrough ? v->value
                                : materialize(*v, elementType, arg.getLoc());
    if (!m)
      return std::nullopt;
    operands.push_back(m);
  }
  auto op = csl::MapOp::create(builder, loc(call.getLoc()),
                               mlir::FlatSymbolRefAttr::get(&ctx, *symbol),
                               operands);
  // The callee may not be emitted yet; verify the op's own operands now and
  // its symbol uses with the program.
  if (!verifyCreated(op, call.getLoc(), "@map"))
    return std::nullopt;
  return RValue{Value::getVoid(types), {}, types.getVoid()};
}
