//===- MemoryOps.cpp - pointer globals and configuration words ------------===//

#include "tessera/Dialect/CSL/IR/CSLOps.h"

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
