//===- DSDOperands.cpp - operand rules of the DSD operations --------------===//

#include "DSDOperands.h"

#include "tessera/Dialect/CSL/IR/CSLTarget.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tessera::csl;
using namespace tessera::csl::dsd;

namespace {

bool matchesScalar(Type type, const OperandRule &rule) {
  if (!type.isIntOrFloat() || type.getIntOrFloatBitWidth() != rule.width)
    return false;
  switch (rule.scalar) {
  case ScalarClass::Float:
    return isa<FloatType>(type);
  case ScalarClass::Integer:
    return type.isSignlessInteger();
  case ScalarClass::Any:
    return isa<FloatType>(type) || type.isSignlessInteger();
  }
  return false;
}

/// The kinds `type` belongs to; scalars and pointers only count when their
/// width and class fit the rule, so a wrong scalar reads as a wrong kind.
unsigned classify(Type type, const OperandRule &rule) {
  if (auto dsd = dyn_cast<DSDType>(type)) {
    switch (dsd.getKind()) {
    case DSDKind::Mem1d:
    case DSDKind::Mem4d:
    case DSDKind::Circbuf:
      return Memory;
    case DSDKind::Fabin:
      return Fabin;
    case DSDKind::Fabout:
      return Fabout;
    case DSDKind::Fifo:
      return Fifo;
    }
  }
  if (auto dsr = dyn_cast<DSRType>(type)) {
    // The src0 file serves as source or destination (reference 1.14).
    switch (dsr.getKind()) {
    case DSRKind::Dest:
      return DestDSR;
    case DSRKind::Src0:
      return DestDSR | SourceDSR;
    case DSRKind::Src1:
      return SourceDSR;
    }
  }
  if (auto memref = dyn_cast<MemRefType>(type))
    return memref.getRank() == 0 && matchesScalar(memref.getElementType(), rule)
               ? Pointer
               : 0;
  return matchesScalar(type, rule) ? Scalar : 0;
}

std::string describeValue(const OperandRule &rule) {
  std::string width = std::to_string(rule.width) + "-bit";
  switch (rule.scalar) {
  case ScalarClass::Float:
    return width + " float";
  case ScalarClass::Integer:
    return width + " integer";
  case ScalarClass::Any:
    return width + " value";
  }
  return width;
}

/// "a memory DSD, a fabin DSD or a 32-bit float scalar".
std::string describeKinds(const OperandRule &rule) {
  SmallVector<std::string> phrases;
  unsigned kinds = rule.kinds;
  if (kinds & Memory)
    phrases.push_back("a memory DSD");
  if (kinds & Fabin)
    phrases.push_back("a fabin DSD");
  if (kinds & Fabout)
    phrases.push_back("a fabout DSD");
  if (kinds & Fifo)
    phrases.push_back("a FIFO");
  if (kinds & DestDSR)
    phrases.push_back("a destination DSR");
  if (kinds & SourceDSR)
    phrases.push_back("a source DSR");
  if (kinds & Scalar) {
    if (rule.scalar == ScalarClass::Any)
      phrases.push_back("a " + std::to_string(rule.width) + "-bit scalar");
    else
      phrases.push_back("a " + describeValue(rule) + " scalar");
  }
  if (kinds & Pointer)
    phrases.push_back("a pointer to a " + describeValue(rule));
  std::string text;
  for (size_t i = 0; i < phrases.size(); ++i) {
    if (i > 0)
      text += i + 1 == phrases.size() ? " or " : ", ";
    text += phrases[i];
  }
  return text;
}

bool isDSDLike(unsigned kind) { return kind && !(kind & (Scalar | Pointer)); }

} // namespace

LogicalResult tessera::csl::dsd::verifyDSDOperation(Operation *op,
                                                    ArrayRef<OperandRule> rules,
                                                    unsigned forms,
                                                    const Options &options) {
  SmallVector<unsigned, 4> kinds;
  for (auto [rule, value] : llvm::zip(rules, op->getOperands())) {
    Type type = value.getType();
    unsigned kind = classify(type, rule) & rule.kinds;
    if (!kind)
      return op->emitOpError() << "operand '" << rule.name << "' must be "
                               << describeKinds(rule) << ", got " << type;
    // A FIFO holds elements of its type. Memory is reinterpreted: the
    // operation's width decides how it reads a memory DSD, as CSL programs
    // rely on (a u32 buffer sent 16 bits at a time); the operation also
    // decides the width of fabric operands.
    if (auto dsd = dyn_cast<DSDType>(type);
        dsd && dsd.getKind() == DSDKind::Fifo && dsd.getElementType() &&
        dsd.getElementType().getIntOrFloatBitWidth() != rule.width)
      return op->emitOpError() << "operand '" << rule.name << "' has "
                               << dsd.getElementType().getIntOrFloatBitWidth()
                               << "-bit elements (" << type << "), expected "
                               << rule.width << "-bit";
    kinds.push_back(kind);
  }

  if ((forms & Reduction) && kinds[0] == Pointer &&
      (kinds[1] != Scalar || !isDSDLike(kinds[2])))
    return op->emitOpError() << "with a pointer destination, '" << rules[1].name
                             << "' must be a scalar accumulator and '"
                             << rules[2].name << "' a DSD";

  if (forms & OneScalar) {
    unsigned scalars = llvm::count(ArrayRef(kinds).drop_front(), Scalar);
    if (scalars > 1 && kinds[0] != Pointer)
      return op->emitOpError()
             << "at most one of '" << rules[1].name << "' and '"
             << rules[2].name << "' may be a scalar";
  }

  if ((forms & NeedsDSD) && llvm::none_of(kinds, isDSDLike))
    return op->emitOpError() << "needs at least one DSD operand";

  return verifyOptions(op, options);
}

LogicalResult tessera::csl::dsd::verifyOptions(Operation *op,
                                               const Options &options) {
  if (!options.async) {
    std::pair<Value, const char *> hooks[] = {{options.activate, "activate"},
                                              {options.unblock, "unblock"},
                                              {options.utId, "ut_id"}};
    for (auto [value, name] : hooks)
      if (value)
        return op->emitOpError()
               << "'" << name << "' applies only to 'async' operations";
  }
  const target::TargetModel *model = getEnclosingTarget(op);
  if (!model)
    return success();
  if (options.utId && model->getNumMicrothreadIDs() == 0)
    return op->emitOpError()
           << "'ut_id' is not available on " << model->getName();
  if (options.priority && !model->hasDSDOpPriority())
    return op->emitOpError()
           << "'priority' on a DSD operation is not available on "
           << model->getName() << "; set it on the fabric DSD or FIFO";
  return success();
}
