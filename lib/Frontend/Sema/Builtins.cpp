//===- Builtins.cpp - Comptime builtins -----------------------------------===//
//
// The value and comptime builtins of csl-reference.md 3.5, and the handle
// constructors (@get_color, @get_local_task_id, ...) with the target's
// ranges. Layout, DSD and task builtins are registered by later stages
// through Interpreter::registerBuiltin.
//
//===----------------------------------------------------------------------===//

#include "Evaluator.h"

#include "tessera/Support/Float16.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/bit.h"

using namespace tessera::frontend;
using namespace tessera::frontend::sema;
using tessera::target::TargetModel;
using tessera::target::TaskKind;

using K = Type::Kind;

namespace {

/// Evaluates one builtin call; every method reports its own errors.
class BuiltinEvaluator {
public:
  BuiltinEvaluator(Evaluator &ev, Env &env, const ast::BuiltinCall &call)
      : ev(ev), env(env), call(call), types(ev.types), diags(ev.diags) {}

  std::optional<Value> run();

private:
  std::optional<Value> fail() {
    ev.flow = Flow::Error;
    return std::nullopt;
  }
  llvm::StringRef name() const { return call.name.text; }
  llvm::SMLoc loc() const { return call.getLoc(); }
  llvm::SMLoc argLoc(unsigned i) const { return call.args[i]->getLoc(); }

  bool expectArgs(unsigned min, unsigned max) {
    unsigned n = call.args.size();
    if (n >= min && n <= max)
      return true;
    std::string expected =
        min == max   ? std::to_string(min)
        : max == ~0u ? "at least " + std::to_string(min)
                     : std::to_string(min) + " to " + std::to_string(max);
    bool plural = !(min == 1 && (max == 1 || max == ~0u));
    diags.error(loc(), "'@" + name() + "' expects " + expected + " argument" +
                           (plural ? "s" : "") + ", found " + llvm::Twine(n));
    ev.flow = Flow::Error;
    return false;
  }
  std::optional<Value> arg(unsigned i) {
    // A Twine: the text is only built for an error.
    return ev.evalComptime(env, *call.args[i],
                           "argument of '@" + name() + "'");
  }
  const Type *typeArg(unsigned i) { return ev.evalType(env, *call.args[i]); }
  std::optional<std::string> stringArg(unsigned i) {
    std::optional<Value> v = arg(i);
    if (!v)
      return std::nullopt;
    if (!v->is(Value::Kind::String)) {
      diags.error(argLoc(i), "expected 'comptime_string', found '" +
                                 v->getType()->str() + "'");
      ev.flow = Flow::Error;
      return std::nullopt;
    }
    return v->getString().str();
  }
  std::optional<Value> structArg(unsigned i) {
    std::optional<Value> v = arg(i);
    if (!v)
      return std::nullopt;
    if (!v->is(Value::Kind::Struct)) {
      diags.error(argLoc(i),
                  "expected a struct, found '" + v->getType()->str() + "'");
      ev.flow = Flow::Error;
      return std::nullopt;
    }
    return v;
  }
  /// A small non-negative comptime integer such as a hardware ID.
  std::optional<int64_t> idArg(unsigned i) {
    std::optional<Value> v = arg(i);
    if (!v)
      return std::nullopt;
    if (!v->is(Value::Kind::Int)) {
      diags.error(argLoc(i),
                  "expected an integer, found '" + v->getType()->str() + "'");
      ev.flow = Flow::Error;
      return std::nullopt;
    }
    const llvm::APSInt &x = v->getInt();
    if (x.getSignificantBits() > 40)
      return x.isNegative() ? -1 : int64_t(1) << 40;
    return x.getExtValue();
  }
  const TargetModel &target() const {
    return TargetModel::get(ev.options.arch);
  }
  std::optional<Value> handle(K kind, llvm::StringRef what, unsigned first,
                              unsigned last) {
    if (!expectArgs(1, 1))
      return std::nullopt;
    std::optional<int64_t> id = idArg(0);
    if (!id)
      return std::nullopt;
    if (*id < first || *id > last) {
      diags.error(argLoc(0),
                  what + " " + llvm::Twine(*id) + " is out of range for '" +
                      std::string(target().getName()) + "' (" +
                      llvm::Twine(first) + " to " + llvm::Twine(last) + ")");
      return fail();
    }
    return Value::getHandle(types.get(kind), *id);
  }

  std::optional<Value> as();
  std::optional<Value> bitcast();
  std::optional<Value> concatStructs();
  std::optional<Value> fieldOf(bool test);
  std::optional<Value> constants(bool zero);
  std::optional<Value> range();
  std::optional<Value> comptimeAssert();
  std::optional<Value> comptimePrint();
  std::optional<Value> arrayInfo();
  std::optional<Value> dataTaskID();

  Evaluator &ev;
  Env &env;
  const ast::BuiltinCall &call;
  TypeContext &types;
  DiagnosticEngine &diags;
};

} // namespace

std::optional<Value> BuiltinEvaluator::run() {
  llvm::StringRef n = name();
  if (n == "as")
    return as();
  if (n == "bitcast")
    return bitcast();
  if (n == "is_arch") {
    if (!expectArgs(1, 1))
      return std::nullopt;
    std::optional<std::string> s = stringArg(0);
    if (!s)
      return std::nullopt;
    std::optional<tessera::target::Arch> arch = tessera::target::parseArch(*s);
    if (!arch) {
      diags.error(argLoc(0), "unknown architecture '" + *s +
                                 "'; expected 'wse2' or 'wse3'");
      return fail();
    }
    return Value::getBool(types, *arch == ev.options.arch);
  }
  if (n == "concat_structs")
    return concatStructs();
  if (n == "has_field" || n == "field")
    return fieldOf(n == "has_field");
  if (n == "zeros" || n == "constants")
    return constants(n == "zeros");
  if (n == "range")
    return range();
  if (n == "comptime_assert")
    return comptimeAssert();
  if (n == "assert") {
    if (!expectArgs(1, 1))
      return std::nullopt;
    std::optional<Value> c = ev.eval(env, *call.args[0]);
    if (!c)
      return std::nullopt;
    if (!c->getType()->is(K::Bool)) {
      diags.error(argLoc(0),
                  "expected 'bool', found '" + c->getType()->str() + "'");
      return fail();
    }
    // A run-time assert is left to the generated code.
    if (c->isComptimeKnown() && !c->getBool()) {
      diags.error(loc(), "assertion failed at comptime");
      return fail();
    }
    return Value::getVoid(types);
  }
  if (n == "comptime_print")
    return comptimePrint();
  if (n == "type_of") {
    if (!expectArgs(1, 1))
      return std::nullopt;
    std::optional<Value> v = ev.eval(env, *call.args[0]);
    if (!v)
      return std::nullopt;
    return Value::getType(types, v->getType());
  }
  if (n == "is_same_type") {
    if (!expectArgs(2, 2))
      return std::nullopt;
    const Type *a = typeArg(0);
    const Type *b = a ? typeArg(1) : nullptr;
    if (!b)
      return std::nullopt;
    return Value::getBool(types, a == b);
  }
  if (n == "is_comptime") {
    if (!expectArgs(1, 1))
      return std::nullopt;
    std::optional<Value> v = ev.eval(env, *call.args[0]);
    if (!v)
      return std::nullopt;
    return Value::getBool(types, v->isComptimeKnown());
  }
  if (n == "strlen") {
    if (!expectArgs(1, 1))
      return std::nullopt;
    std::optional<std::string> s = stringArg(0);
    if (!s)
      return std::nullopt;
    return Value::getComptimeInt(types, static_cast<int64_t>(s->size()));
  }
  if (n == "strcat") {
    if (!expectArgs(1, ~0u))
      return std::nullopt;
    std::string out;
    for (unsigned i = 0; i < call.args.size(); ++i) {
      std::optional<std::string> s = stringArg(i);
      if (!s)
        return std::nullopt;
      out += *s;
    }
    return Value::getString(types, out);
  }
  if (n == "get_array") {
    if (!expectArgs(1, 1))
      return std::nullopt;
    std::optional<std::string> s = stringArg(0);
    if (!s)
      return std::nullopt;
    const IntType *u8 = types.getInt(8, false);
    std::vector<Value> bytes;
    for (unsigned char c : *s)
      bytes.push_back(Value::getInt(u8, llvm::APSInt::getUnsigned(c)));
    return Value::getArray(types.getArray({s->size()}, u8), std::move(bytes));
  }
  if (n == "fp16") {
    if (!expectArgs(0, 0))
      return std::nullopt;
    return Value::getType(types, types.getFloat(ev.options.fp16Format));
  }
  if (n == "dimensions" || n == "element_count" || n == "element_type" ||
      n == "rank")
    return arrayInfo();
  if (n == "get_int") {
    if (!expectArgs(1, 1))
      return std::nullopt;
    std::optional<Value> v = arg(0);
    if (!v)
      return std::nullopt;
    if (!v->is(Value::Kind::Handle)) {
      diags.error(argLoc(0), "expected a color, queue or task ID, found '" +
                                 v->getType()->str() + "'");
      return fail();
    }
    return Value::getComptimeInt(types, static_cast<int64_t>(v->getHandleID()));
  }
  const TargetModel &t = target();
  if (n == "get_color")
    return handle(K::Color, "color", 0, t.getNumRoutableColors() - 1);
  if (n == "get_input_queue")
    return handle(K::InputQueue, "input queue", 0, t.getNumInputQueues() - 1);
  if (n == "get_output_queue")
    return handle(K::OutputQueue, "output queue", 0,
                  t.getNumOutputQueues() - 1);
  if (n == "get_local_task_id") {
    auto r = t.getTaskIDRange(TaskKind::Local);
    return handle(K::LocalTaskID, "local task ID", r.first, r.last);
  }
  if (n == "get_control_task_id") {
    auto r = t.getTaskIDRange(TaskKind::Control);
    return handle(K::ControlTaskID, "control task ID", r.first, r.last);
  }
  if (n == "get_data_task_id")
    return dataTaskID();
  if (n == "get_dsr") {
    // @get_dsr(dsr_dest | dsr_src0 | dsr_src1, id): register counts per
    // file are not public, so only the sign of the ID is checked.
    if (!expectArgs(2, 2))
      return std::nullopt;
    const Type *file = typeArg(0);
    if (!file)
      return std::nullopt;
    if (!file->is(K::DSR)) {
      diags.error(argLoc(0), "expected dsr_dest, dsr_src0 or dsr_src1, "
                             "found '" +
                                 file->str() + "'");
      return fail();
    }
    std::optional<int64_t> id = idArg(1);
    if (!id)
      return std::nullopt;
    if (*id < 0) {
      diags.error(argLoc(1), "DSR " + llvm::Twine(*id) + " is negative");
      return fail();
    }
    return Value::getHandle(file, *id);
  }
  if (n == "get_ut_id") {
    if (t.getNumMicrothreadIDs() == 0) {
      diags.error(loc(), "'@get_ut_id' is not available on '" +
                             std::string(t.getName()) + "'");
      return fail();
    }
    return handle(K::UtID, "microthread ID", 0, t.getNumMicrothreadIDs() - 1);
  }
  diags.error(call.name.loc(), "unknown builtin '@" + n + "'");
  return fail();
}

std::optional<Value> BuiltinEvaluator::as() {
  if (!expectArgs(2, 2))
    return std::nullopt;
  const Type *to = typeArg(0);
  if (!to)
    return std::nullopt;
  std::optional<Value> v = ev.eval(env, *call.args[1]);
  if (!v)
    return std::nullopt;
  std::optional<Value> r = ev.convert(*v, to, argLoc(1));
  return r ? r : fail();
}

std::optional<Value> BuiltinEvaluator::bitcast() {
  if (!expectArgs(2, 2))
    return std::nullopt;
  const Type *to = typeArg(0);
  if (!to)
    return std::nullopt;
  std::optional<Value> v = ev.eval(env, *call.args[1]);
  if (!v)
    return std::nullopt;
  const Type *from = v->getType();
  auto bits = [](const Type *t) -> unsigned {
    if (auto *i = llvm::dyn_cast<IntType>(t))
      return i->getBitWidth();
    if (auto *f = llvm::dyn_cast<FloatType>(t))
      return f->getBitWidth();
    return 0;
  };
  if (llvm::isa<PointerType>(to) && llvm::isa<IntType>(from))
    return Value::getRunTime(to); // an address: only meaningful at run time
  unsigned fromBits = bits(from), toBits = bits(to);
  if (!fromBits || !toBits) {
    diags.error(loc(),
                "cannot @bitcast '" + from->str() + "' to '" + to->str() + "'");
    return fail();
  }
  if (fromBits != toBits) {
    diags.error(loc(), "@bitcast from '" + from->str() + "' to '" + to->str() +
                           "' changes the size (" + llvm::Twine(fromBits) +
                           " to " + llvm::Twine(toBits) + " bits)");
    return fail();
  }
  if (!v->isComptimeKnown())
    return Value::getRunTime(to, v->getSymbol());
  // Both sides go through the raw bits.
  llvm::APInt raw;
  if (v->is(Value::Kind::Int)) {
    raw = v->getInt();
  } else {
    float f = static_cast<float>(v->getFloat());
    switch (llvm::cast<FloatType>(from)->getFormat()) {
    case FloatFormat::F32:
    case FloatFormat::CB16: // kept at binary32 precision; see Semantics.md
      raw = llvm::APInt(fromBits, fromBits == 32 ? llvm::bit_cast<uint32_t>(f)
                                                 : tessera::floatToHalfBits(f));
      break;
    case FloatFormat::F16:
      raw = llvm::APInt(16, tessera::floatToHalfBits(f));
      break;
    case FloatFormat::BF16:
      raw = llvm::APInt(16, tessera::floatToBFloat16Bits(f));
      break;
    }
  }
  if (auto *ti = llvm::dyn_cast<IntType>(to))
    return Value::getInt(to, llvm::APSInt(raw, !ti->isSigned()));
  uint64_t b = raw.getZExtValue();
  switch (llvm::cast<FloatType>(to)->getFormat()) {
  case FloatFormat::F32:
    return Value::getFloat(to, llvm::bit_cast<float>(static_cast<uint32_t>(b)));
  case FloatFormat::F16:
  case FloatFormat::CB16:
    return Value::getFloat(to,
                           tessera::halfBitsToFloat(static_cast<uint16_t>(b)));
  case FloatFormat::BF16:
    return Value::getFloat(
        to, tessera::bfloat16BitsToFloat(static_cast<uint16_t>(b)));
  }
  return fail();
}

std::optional<Value> BuiltinEvaluator::concatStructs() {
  if (!expectArgs(2, 2))
    return std::nullopt;
  std::optional<Value> a = structArg(0);
  std::optional<Value> b = a ? structArg(1) : std::nullopt;
  if (!b)
    return std::nullopt;
  for (const Value *v : {&*a, &*b})
    if (!v->getType()->is(K::ComptimeStruct)) {
      diags.error(loc(), "'@concat_structs' needs anonymous structs, found '" +
                             v->getType()->str() + "'");
      return fail();
    }
  if (!a->getFields().empty() && !b->getFields().empty() &&
      a->isTuple() != b->isTuple()) {
    diags.error(loc(), "'@concat_structs' cannot mix a struct with named "
                       "fields and a tuple");
    return fail();
  }
  std::vector<FieldValue> fields(a->getFields().begin(), a->getFields().end());
  for (const FieldValue &f : b->getFields()) {
    if (!f.name.empty() && a->findField(f.name)) {
      diags.error(loc(), "'@concat_structs' found field '" + f.name +
                             "' in both structs");
      return fail();
    }
    fields.push_back(f);
  }
  return Value::getStruct(types.getComptimeStruct(), std::move(fields));
}

std::optional<Value> BuiltinEvaluator::fieldOf(bool test) {
  if (!expectArgs(2, 2))
    return std::nullopt;
  std::optional<Value> s = arg(0);
  if (!s)
    return std::nullopt;
  std::optional<std::string> field = stringArg(1);
  if (!field)
    return std::nullopt;
  if (s->is(Value::Kind::Module)) {
    if (test)
      return Value::getBool(types, s->getModule()->findGlobal(*field));
    return ev.getGlobal(*s->getModule(), *field, argLoc(1));
  }
  const Value *found = nullptr;
  if (s->is(Value::Kind::Struct))
    found = s->findField(*field);
  else if (s->is(Value::Kind::Type) && test)
    if (auto *st = llvm::dyn_cast<StructType>(s->getTypeValue()))
      return Value::getBool(types, st->findField(*field).has_value());
  if (!s->is(Value::Kind::Struct)) {
    diags.error(argLoc(0),
                "expected a struct, found '" + s->getType()->str() + "'");
    return fail();
  }
  if (test)
    return Value::getBool(types, found != nullptr);
  if (!found) {
    diags.error(argLoc(1), "no field named '" + *field + "' in '" +
                               s->getType()->str() + "'");
    return fail();
  }
  return *found;
}

std::optional<Value> BuiltinEvaluator::constants(bool zero) {
  if (!expectArgs(zero ? 1 : 2, zero ? 1 : 2))
    return std::nullopt;
  const Type *t = typeArg(0);
  if (!t)
    return std::nullopt;
  auto *at = llvm::dyn_cast<ArrayType>(t);
  if (!at) {
    diags.error(argLoc(0), "expected an array type, found '" + t->str() + "'");
    return fail();
  }
  std::optional<Value> fill;
  if (zero)
    fill = ev.zeroValue(at->getElementType(), argLoc(0));
  else if ((fill = ev.eval(env, *call.args[1])))
    fill = ev.coerce(*fill, at->getElementType(), argLoc(1));
  if (!fill)
    return fail();
  if (!fill->isComptimeKnown())
    return Value::getRunTime(at);
  if (!ev.checkArraySize(at, argLoc(0)))
    return fail();
  return Value::getArray(at, std::vector<Value>(at->getNumElements(), *fill));
}

std::optional<Value> BuiltinEvaluator::range() {
  std::optional<Evaluator::RangeSpec> r = ev.evalRange(env, call);
  if (!r)
    return std::nullopt;
  if (!llvm::isa<IntType>(r->type)) {
    diags.error(loc(), "'@range' outside a for loop needs a sized integer "
                       "type, found '" +
                           r->type->str() + "'");
    return fail();
  }
  if (!ev.checkArraySize(types.getArray({r->count}, r->type), loc()))
    return fail();
  std::vector<Value> elements;
  for (uint64_t i = 0; i < r->count; ++i)
    elements.push_back(ev.rangeElement(*r, i));
  return Value::getArray(types.getArray({r->count}, r->type),
                         std::move(elements));
}

std::optional<Value> BuiltinEvaluator::comptimeAssert() {
  if (!expectArgs(1, 2))
    return std::nullopt;
  std::optional<Value> c = arg(0);
  if (!c)
    return std::nullopt;
  if (!c->getType()->is(K::Bool)) {
    diags.error(argLoc(0),
                "expected 'bool', found '" + c->getType()->str() + "'");
    return fail();
  }
  if (c->getBool())
    return Value::getVoid(types);
  std::optional<std::string> message;
  if (call.args.size() == 2 && !(message = stringArg(1)))
    return std::nullopt;
  diags.error(loc(), "comptime assertion failed" +
                         (message ? ": " + *message : std::string()));
  return fail();
}

std::optional<Value> BuiltinEvaluator::comptimePrint() {
  std::vector<Value> values;
  for (unsigned i = 0; i < call.args.size(); ++i) {
    std::optional<Value> v = ev.eval(env, *call.args[i]);
    if (!v)
      return std::nullopt;
    values.push_back(*v);
  }
  llvm::interleave(
      values, ev.printOS, [&](const Value &v) { v.print(ev.printOS); }, " ");
  ev.printOS << '\n';
  return Value::getVoid(types);
}

std::optional<Value> BuiltinEvaluator::arrayInfo() {
  if (!expectArgs(1, 1))
    return std::nullopt;
  const Type *t = typeArg(0);
  if (!t)
    return std::nullopt;
  auto *at = llvm::dyn_cast<ArrayType>(t);
  if (!at) {
    diags.error(argLoc(0), "expected an array type, found '" + t->str() + "'");
    return fail();
  }
  if (name() == "element_type")
    return Value::getType(types, at->getElementType());
  if (name() == "rank")
    return Value::getComptimeInt(types,
                                 static_cast<int64_t>(at->getDims().size()));
  if (name() == "element_count")
    return Value::getComptimeInt(
        types, llvm::APSInt::getUnsigned(at->getNumElements()));
  std::vector<FieldValue> dims;
  for (uint64_t d : at->getDims())
    dims.push_back(
        {"", Value::getComptimeInt(types, llvm::APSInt::getUnsigned(d))});
  return Value::getStruct(types.getComptimeStruct(), std::move(dims));
}

std::optional<Value> BuiltinEvaluator::dataTaskID() {
  if (!expectArgs(1, 1))
    return std::nullopt;
  std::optional<Value> v = arg(0);
  if (!v)
    return std::nullopt;
  // WSE-2 names a data task by its color, WSE-3 by its input queue.
  K source =
      target().getDataTaskSource() == tessera::target::DataTaskSource::Color
          ? K::Color
          : K::InputQueue;
  if (!v->getType()->is(source)) {
    diags.error(argLoc(0), "expected '" + types.get(source)->str() +
                               "', found '" + v->getType()->str() + "'");
    return fail();
  }
  auto r = target().getTaskIDRange(TaskKind::Data);
  if (!r.contains(v->getHandleID())) {
    diags.error(argLoc(0), "data task ID " + llvm::Twine(v->getHandleID()) +
                               " is out of range for '" +
                               std::string(target().getName()) + "' (" +
                               llvm::Twine(r.first) + " to " +
                               llvm::Twine(r.last) + ")");
    return fail();
  }
  return Value::getHandle(types.get(K::DataTaskID), v->getHandleID());
}

std::optional<Value> Evaluator::evalBuiltin(Env &env,
                                            const ast::BuiltinCall &call) {
  return BuiltinEvaluator(*this, env, call).run();
}

std::optional<Evaluator::RangeSpec>
Evaluator::evalRange(Env &env, const ast::BuiltinCall &call) {
  auto fail = [&]() -> std::optional<RangeSpec> {
    flow = Flow::Error;
    return std::nullopt;
  };
  size_t n = call.args.size();
  if (n < 2 || n > 4) {
    diags.error(call.getLoc(),
                "'@range' expects 2 to 4 arguments, found " + llvm::Twine(n));
    return fail();
  }
  const Type *t = evalType(env, *call.args[0]);
  if (!t)
    return std::nullopt;
  if (!t->isInteger()) {
    diags.error(call.args[0]->getLoc(),
                "'@range' needs an integer type, found '" + t->str() + "'");
    return fail();
  }
  // @range(T, stop), @range(T, start, stop), @range(T, start, stop, step).
  std::vector<llvm::APSInt> bounds;
  for (size_t i = 1; i < n; ++i) {
    std::optional<Value> v = evalComptime(env, *call.args[i], "'@range' bound");
    if (!v)
      return std::nullopt;
    std::optional<Value> c = coerce(*v, t, call.args[i]->getLoc());
    if (!c)
      return fail();
    bounds.push_back(c->getInt());
  }
  RangeSpec r;
  r.type = t;
  r.start = n >= 3 ? bounds[0] : llvm::APSInt::get(0);
  r.stop = n >= 3 ? bounds[1] : bounds[0];
  r.step = n == 4 ? bounds[2] : llvm::APSInt::get(1);
  if (r.step.isZero()) {
    diags.error(call.args[3]->getLoc(), "'@range' step must not be zero");
    return fail();
  }
  // Count = ceil((stop - start) / step) when it is positive.
  unsigned w = std::max({r.start.getBitWidth(), r.stop.getBitWidth(),
                         r.step.getBitWidth()}) +
               2;
  auto wide = [w](const llvm::APSInt &v) {
    return v.isSigned() ? v.sext(w) : v.zext(w);
  };
  llvm::APInt span = wide(r.stop) - wide(r.start);
  llvm::APInt step = wide(r.step);
  if (step.isNegative()) {
    span.negate();
    step.negate();
  }
  r.count = 0;
  if (span.isStrictlyPositive()) {
    llvm::APInt q = (span + step - 1).udiv(step);
    if (q.getActiveBits() > 63) {
      diags.error(call.getLoc(), "'@range' has too many elements");
      return fail();
    }
    r.count = q.getZExtValue();
  }
  return r;
}

Value Evaluator::rangeElement(const RangeSpec &r, uint64_t i) {
  // Loop bounds are small: 64-bit arithmetic without overflow gives the same
  // value as the wide APInt below, without its heap storage.
  if (r.start.getSignificantBits() <= 32 && r.step.getSignificantBits() <= 32 &&
      i < (uint64_t(1) << 30))
    return Value::getInt(
        r.type, llvm::APSInt(llvm::APInt(64, r.start.getExtValue() +
                                                 r.step.getExtValue() *
                                                     static_cast<int64_t>(i),
                                         /*isSigned=*/true),
                             false));
  unsigned w = std::max({r.start.getBitWidth(), r.step.getBitWidth()}) + 66;
  auto wide = [w](const llvm::APSInt &v) {
    return v.isSigned() ? v.sext(w) : v.zext(w);
  };
  llvm::APInt v = wide(r.start) + wide(r.step) * llvm::APInt(w, i);
  return Value::getInt(r.type, llvm::APSInt(v, false));
}
