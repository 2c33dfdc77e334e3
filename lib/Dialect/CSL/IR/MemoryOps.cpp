//===- MemoryOps.cpp - pointer globals and configuration words ------------===//

#include "tessera/Dialect/CSL/IR/CSLOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace tessera::csl;

namespace {

/// The pointer global `global` names from `op`, or an error.
FailureOr<PointerGlobalOp> lookupPointer(Operation *op,
                                         SymbolTableCollection &symbols,
                                         FlatSymbolRefAttr global, Type type) {
  auto pointer = symbols.lookupNearestSymbolFrom<PointerGlobalOp>(op, global);
  if (!pointer)
    return op->emitOpError()
           << "'" << global.getValue() << "' does not name a pointer global";
  if (pointer.getType() != type)
    return op->emitOpError() << "pointer global '" << global.getValue()
                             << "' has type " << pointer.getType() << ", not "
                             << type;
  return pointer;
}

/// The DSD global `global` names from `op`, or an error.
LogicalResult lookupDSDGlobal(Operation *op, SymbolTableCollection &symbols,
                              FlatSymbolRefAttr global, Type type) {
  auto dsd = symbols.lookupNearestSymbolFrom<DSDGlobalOp>(op, global);
  if (!dsd)
    return op->emitOpError()
           << "'" << global.getValue() << "' does not name a DSD global";
  if (dsd.getType() != type)
    return op->emitOpError() << "DSD global '" << global.getValue()
                             << "' has type " << dsd.getType() << ", not "
                             << type;
  return success();
}

} // namespace

LogicalResult PointerGlobalOp::verify() {
  auto type = cast<MemRefType>(getType());
  bool many = type.getRank() == 1 && type.isDynamicDim(0);
  if (!many && !type.hasStaticShape())
    return emitOpError() << "expects memref<?xT> (a many-item pointer) or a "
                            "statically shaped memref (a single-item "
                            "pointer), found "
                         << type;
  return success();
}

LogicalResult
PointerGlobalOp::verifySymbolUses(SymbolTableCollection &symbols) {
  if (!getTarget())
    return success();
  auto target =
      symbols.lookupNearestSymbolFrom<memref::GlobalOp>(*this, getTargetAttr());
  if (!target)
    return emitOpError() << "'" << *getTarget()
                         << "' does not name a memref.global";
  auto type = cast<MemRefType>(getType());
  MemRefType targetType = target.getType();
  if (targetType.getElementType() != type.getElementType())
    return emitOpError() << "points to elements of type "
                         << type.getElementType() << " but '" << *getTarget()
                         << "' holds " << targetType.getElementType();
  if (type.hasStaticShape() && targetType != type)
    return emitOpError() << "a single-item pointer of type " << type
                         << " cannot point to '" << *getTarget()
                         << "' of type " << targetType;
  return success();
}

LogicalResult LoadPointerOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return lookupPointer(*this, symbols, getGlobalAttr(), getType());
}

LogicalResult
StorePointerOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return lookupPointer(*this, symbols, getGlobalAttr(), getValue().getType());
}

void DSDGlobalOp::build(OpBuilder &builder, OperationState &state,
                        StringRef name, Type type, bool withInitializer) {
  state.addAttribute(getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  state.addAttribute(getTypeAttrName(state.name), TypeAttr::get(type));
  Region *region = state.addRegion();
  if (withInitializer)
    region->push_back(new Block);
}

LogicalResult DSDGlobalOp::verifyRegions() {
  Region &init = getInitializer();
  if (init.empty())
    return success();
  if (!init.hasOneBlock())
    return emitOpError() << "initializer must be one block";
  auto yield = dyn_cast<YieldOp>(init.front().getTerminator());
  if (!yield || yield.getValues().size() != 1 ||
      yield.getValues().front().getType() != getType())
    return emitOpError() << "initializer must yield one " << getType();
  return success();
}

LogicalResult LoadDSDOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return lookupDSDGlobal(*this, symbols, getGlobalAttr(), getType());
}

LogicalResult StoreDSDOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return lookupDSDGlobal(*this, symbols, getGlobalAttr(),
                         getValue().getType());
}

namespace {

/// A pointer memref: `memref<?xE>` (many-item) or statically shaped.
bool isPointerType(MemRefType type) {
  return type.hasStaticShape() ||
         (type.getRank() == 1 && type.isDynamicDim(0));
}

} // namespace

LogicalResult ElementAddressOp::verify() {
  MemRefType base = getBase().getType();
  auto result = cast<MemRefType>(getResult().getType());
  if (getIndices().size() != static_cast<size_t>(base.getRank()))
    return emitOpError() << "needs " << base.getRank() << " indices for "
                         << base << ", found " << getIndices().size();
  if (result.getRank() != 0 ||
      result.getElementType() != base.getElementType())
    return emitOpError() << "result must be "
                         << MemRefType::get({}, base.getElementType())
                         << ", found " << result;
  return success();
}

LogicalResult PtrCastOp::verify() {
  auto source = cast<MemRefType>(getSource().getType());
  auto result = cast<MemRefType>(getResult().getType());
  for (MemRefType type : {source, result})
    if (!isPointerType(type) || !type.getElementType().isIntOrFloat())
      return emitOpError() << "expects pointers to numbers (memref<?xE> or "
                              "statically shaped), found "
                           << type;
  return success();
}

namespace {

/// The element type `operand` contributes to (or receives from) a call of
/// @map's function: a DSD's element, a pointer's pointee, a scalar itself.
Type getMapElementType(Type operand) {
  if (auto dsd = dyn_cast<DSDType>(operand))
    return dsd.getElementType();
  if (auto pointer = dyn_cast<MemRefType>(operand))
    return pointer.getRank() == 0 ? pointer.getElementType() : Type();
  return operand.isIntOrFloat() ? operand : Type();
}

} // namespace

LogicalResult MapOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(*this,
                                                              getCalleeAttr());
  if (!callee)
    return emitOpError() << "'" << getCallee() << "' does not name a function";
  FunctionType type = callee.getFunctionType();
  // A function returning nothing takes every operand; otherwise the last
  // operand is the destination of its results.
  bool hasDest = type.getNumResults() == 1;
  if (type.getNumResults() > 1 ||
      type.getNumInputs() + (hasDest ? 1 : 0) != getOperands().size())
    return emitOpError() << "'" << getCallee() << "' of type " << type
                         << " does not fit " << getOperands().size()
                         << " operands: one per argument, plus the "
                            "destination when it returns a value";
  bool anyDSD = false;
  for (auto [index, operand] : llvm::enumerate(getOperands())) {
    Type operandType = operand.getType();
    bool isDest = hasDest && index + 1 == getOperands().size();
    Type expected = isDest ? type.getResult(0) : type.getInput(index);
    // A memory DSD is read with the element type the function expects.
    if (isa<DSDType>(operandType)) {
      anyDSD = true;
      if (!expected.isIntOrFloat())
        return emitOpError() << "operand #" << index << " is a DSD, but '"
                             << getCallee() << "' uses " << expected;
      continue;
    }
    if (isDest && !isa<MemRefType>(operandType))
      return emitOpError() << "the destination must be a DSD or a pointer, "
                              "found "
                           << operandType;
    // A pointer passes as a pointer or stands for its pointee.
    if (operandType == expected)
      continue;
    Type element = getMapElementType(operandType);
    if (element != expected)
      return emitOpError() << "operand #" << index << " is " << operandType
                           << " where '" << getCallee()
                           << (isDest ? "' returns " : "' takes ") << expected;
  }
  if (!anyDSD)
    return emitOpError() << "needs at least one DSD operand to give the "
                            "element count";
  return success();
}
