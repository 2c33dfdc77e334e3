//===- DSDOps.cpp - DSD construction, FIFOs, mutators and DSRs ------------===//

#include "tessera/Dialect/CSL/IR/CSLOps.h"
#include "tessera/Dialect/CSL/IR/CSLTarget.h"

#include "DSDOperands.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::csl;

using target::TargetModel;

namespace {

/// Checks a length known at compile time. Memory DSDs need a finite length;
/// fabric DSDs may also use the infinite one.
LogicalResult verifyConstantLength(Operation *op, Value length, StringRef what,
                                   bool allowInfinite) {
  APInt value;
  if (!matchPattern(length, m_ConstantInt(&value)))
    return success();
  uint64_t max = allowInfinite ? TargetModel::getInfiniteDSDLength()
                               : TargetModel::getMaxDSDLength();
  uint64_t length16 = value.getZExtValue();
  if (length16 > max)
    return op->emitOpError()
           << what << " " << length16 << " is out of range for "
           << (allowInfinite ? "a fabric" : "a memory") << " DSD (0.." << max
           << ")";
  return success();
}

LogicalResult verifyResultKind(Operation *op, DSDType type,
                               ArrayRef<DSDKind> kinds) {
  if (llvm::is_contained(kinds, type.getKind()))
    return success();
  InFlightDiagnostic diag = op->emitOpError() << "result must be a ";
  for (auto [index, kind] : llvm::enumerate(kinds))
    diag << (index == 0 ? "" : " or ") << stringifyDSDKind(kind);
  return diag << " DSD, got " << type;
}

LogicalResult verifyElementType(Operation *op, MemRefType base, DSDType dsd) {
  if (base.getElementType() != dsd.getElementType())
    return op->emitOpError()
           << "base element type " << base.getElementType()
           << " does not match the DSD element type " << dsd.getElementType();
  return success();
}

LogicalResult verifyFabricPriority(Operation *op,
                                   std::optional<Priority> priority) {
  const TargetModel *model = getEnclosingTarget(op);
  if (priority && model && !model->hasFabricDSDPriority())
    return op->emitOpError()
           << "'priority' on a fabric DSD is not available "
              "on "
           << model->getName() << "; set it on the DSD operation";
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Memory DSDs
//===----------------------------------------------------------------------===//

LogicalResult Mem1dDSDOp::verify() {
  auto type = cast<DSDType>(getType());
  if (failed(verifyResultKind(*this, type, {DSDKind::Mem1d})) ||
      failed(verifyElementType(*this, getBase().getType(), type)))
    return failure();
  return verifyConstantLength(*this, getExtent(), "extent",
                              /*allowInfinite=*/false);
}

LogicalResult TensorAccessDSDOp::verify() {
  auto type = cast<DSDType>(getType());
  MemRefType base = getBase().getType();
  if (failed(verifyResultKind(*this, type, {DSDKind::Mem1d, DSDKind::Mem4d})) ||
      failed(verifyElementType(*this, base, type)))
    return failure();

  ArrayRef<int64_t> sizes = getSizes();
  if (type.getKind() == DSDKind::Mem1d && sizes.size() != 1)
    return emitOpError() << "a mem1d DSD takes one induction variable, got "
                         << sizes.size();
  unsigned maxDims = TargetModel::getMaxMem4dDims();
  if (sizes.empty() || sizes.size() > maxDims)
    return emitOpError() << "a mem4d DSD takes 1 to " << maxDims
                         << " induction variables, got " << sizes.size();
  for (auto [index, size] : llvm::enumerate(sizes))
    if (size < 1 || size > TargetModel::getMaxDSDLength())
      return emitOpError() << "size " << size << " of induction variable "
                           << index << " is out of range (1.."
                           << TargetModel::getMaxDSDLength() << ")";

  AffineMap map = getMap();
  if (map.getNumDims() != sizes.size())
    return emitOpError() << "map takes " << map.getNumDims()
                         << " induction variables, but sizes gives "
                         << sizes.size();
  if (map.getNumSymbols() != 0)
    return emitOpError() << "map must not use symbols";
  if (map.getNumResults() != static_cast<unsigned>(base.getRank()))
    return emitOpError() << "map gives " << map.getNumResults()
                         << " indices for a rank-" << base.getRank() << " base";
  for (AffineExpr expr : map.getResults()) {
    bool linear = true;
    expr.walk([&](AffineExpr sub) {
      AffineExprKind kind = sub.getKind();
      if (kind == AffineExprKind::Mod || kind == AffineExprKind::FloorDiv ||
          kind == AffineExprKind::CeilDiv)
        linear = false;
    });
    if (!linear)
      return emitOpError() << "map must be linear in the induction variables";
  }

  return success();
}

std::optional<std::string>
tessera::csl::describeOutOfBounds(TensorAccessDSDOp op) {
  // A linear map reaches its extremes at the corners of the iteration box.
  MemRefType base = op.getBase().getType();
  ArrayRef<int64_t> sizes = op.getSizes();
  if (!base.hasStaticShape())
    return std::nullopt;
  unsigned numCorners = 1u << sizes.size();
  SmallVector<int64_t, 4> corner(sizes.size());
  for (unsigned mask = 0; mask < numCorners; ++mask) {
    for (auto [dim, size] : llvm::enumerate(sizes))
      corner[dim] = (mask >> dim) & 1 ? size - 1 : 0;
    SmallVector<int64_t, 4> indices = op.getMap().compose(corner);
    for (auto [dim, index] : llvm::enumerate(indices)) {
      if (index >= 0 && index < base.getDimSize(dim))
        continue;
      std::string message;
      llvm::raw_string_ostream os(message);
      os << "tensor access reaches index " << index << " of dimension " << dim
         << ", outside '" << base << "'";
      return message;
    }
  }
  return std::nullopt;
}

LogicalResult CircbufDSDOp::verify() {
  auto type = cast<DSDType>(getType());
  MemRefType base = getBase().getType();
  if (failed(verifyResultKind(*this, type, {DSDKind::Circbuf})) ||
      failed(verifyElementType(*this, base, type)))
    return failure();
  if (base.getRank() != 1)
    return emitOpError() << "a circular buffer is one-dimensional, got "
                         << base;
  if (std::optional<uint64_t> wrap = getWraparound()) {
    auto elements = static_cast<int64_t>(*wrap);
    if (elements < 1)
      return emitOpError() << "wraparound must be positive, got " << elements;
    if (!base.isDynamicDim(0) && elements > base.getDimSize(0))
      return emitOpError() << "wraparound " << elements << " exceeds the "
                           << base.getDimSize(0) << "-element buffer";
  }
  return verifyConstantLength(*this, getExtent(), "extent",
                              /*allowInfinite=*/false);
}

//===----------------------------------------------------------------------===//
// Fabric DSDs
//===----------------------------------------------------------------------===//

LogicalResult FabinDSDOp::verify() {
  if (failed(verifyConstantLength(*this, getExtent(), "extent",
                                  /*allowInfinite=*/true)))
    return failure();
  return verifyFabricPriority(*this, getPriority());
}

LogicalResult FaboutDSDOp::verify() {
  if (failed(verifyConstantLength(*this, getExtent(), "extent",
                                  /*allowInfinite=*/true)))
    return failure();
  return verifyFabricPriority(*this, getPriority());
}

//===----------------------------------------------------------------------===//
// FIFOs
//===----------------------------------------------------------------------===//

LogicalResult AllocateFifoOp::verify() {
  auto type = cast<DSDType>(getType());
  if (type.getKind() != DSDKind::Fifo)
    return emitOpError() << "type must be a fifo DSD, got " << type;
  const TargetModel *model = getEnclosingTarget(*this);
  if (getPriority() && model && !model->hasFabricDSDPriority())
    return emitOpError() << "'priority' on a FIFO is not available on "
                         << model->getName() << "; set it on the DSD operation";
  return success();
}

LogicalResult AllocateFifoOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto type = cast<DSDType>(getType());
  auto buffer =
      symbols.lookupNearestSymbolFrom<memref::GlobalOp>(*this, getBufferAttr());
  if (!buffer)
    return emitOpError() << "'" << getBuffer()
                         << "' does not name a memref.global";
  MemRefType bufferType = buffer.getType();
  if (bufferType.getRank() != 1 || !bufferType.hasStaticShape())
    return emitOpError() << "FIFO buffer '" << getBuffer()
                         << "' must be a one-dimensional array of known size, "
                            "got "
                         << bufferType;
  if (bufferType.getElementType() != type.getElementType())
    return emitOpError() << "a FIFO of " << type.getElementType() << " over '"
                         << getBuffer() << "', which holds "
                         << bufferType.getElementType();

  std::pair<FlatSymbolRefAttr, const char *> hooks[] = {
      {getActivatePushAttr(), "activate_push"},
      {getActivatePopAttr(), "activate_pop"}};
  for (auto [ref, name] : hooks) {
    if (!ref)
      continue;
    auto task = symbols.lookupNearestSymbolFrom<TaskOp>(*this, ref);
    if (!task)
      return emitOpError() << "'" << name << "' names '" << ref.getValue()
                           << "', which is not a task";
    if (task.getKind() != TaskKind::Local)
      return emitOpError() << "'" << name << "' must name a local task, '"
                           << ref.getValue() << "' is a "
                           << stringifyTaskKind(task.getKind()) << " task";
  }
  return success();
}

LogicalResult GetFifoOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto fifo =
      symbols.lookupNearestSymbolFrom<AllocateFifoOp>(*this, getFifoAttr());
  if (!fifo)
    return emitOpError() << "'" << getFifo() << "' does not name a FIFO";
  if (fifo.getType() != getType())
    return emitOpError() << "FIFO '" << getFifo() << "' has type "
                         << fifo.getType() << ", not " << getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Mutators
//===----------------------------------------------------------------------===//

LogicalResult IncrementDSDOffsetOp::verify() {
  auto type = cast<DSDType>(getDsd().getType());
  if (!type.isMemory())
    return emitOpError() << "needs a memory DSD, got " << type;
  return success();
}

LogicalResult SetDSDBaseAddrOp::verify() {
  auto type = cast<DSDType>(getDsd().getType());
  if (!type.isMemory())
    return emitOpError() << "needs a memory DSD, got " << type;
  // The DSD keeps its type; operations read the new base with their own
  // width, as for any memory DSD.
  Type element = getBase().getType().getElementType();
  if (!element.isIntOrFloat())
    return emitOpError() << "the new base must hold numbers, found "
                         << element;
  return success();
}

LogicalResult SetDSDLengthOp::verify() {
  auto type = cast<DSDType>(getDsd().getType());
  // mem4d has one extent per induction variable; a FIFO's length is its
  // buffer's.
  if (type.getKind() == DSDKind::Mem4d || type.getKind() == DSDKind::Fifo)
    return emitOpError() << "cannot set the length of a "
                         << stringifyDSDKind(type.getKind()) << " DSD";
  return verifyConstantLength(*this, getLength(), "length",
                              /*allowInfinite=*/type.isFabric());
}

LogicalResult SetDSDStrideOp::verify() {
  auto type = cast<DSDType>(getDsd().getType());
  if (type.getKind() != DSDKind::Mem1d)
    return emitOpError() << "needs a mem1d DSD, got " << type;
  return success();
}

//===----------------------------------------------------------------------===//
// DSRs
//===----------------------------------------------------------------------===//

LogicalResult GetDSROp::verify() {
  if (static_cast<int64_t>(getId()) < 0)
    return emitOpError() << "DSR id must be non-negative, got "
                         << static_cast<int64_t>(getId());
  return success();
}

LogicalResult LoadToDSROp::verify() {
  auto dsd = cast<DSDType>(getDsd().getType());
  DSRKind file = getDsr().getType().getKind();
  // src0 serves either way (reference 1.14).
  if (dsd.getKind() == DSDKind::Fabin && file == DSRKind::Dest)
    return emitOpError() << "a fabin DSD loads only into a source DSR, got "
                         << getDsr().getType();
  if (dsd.getKind() == DSDKind::Fabout && file == DSRKind::Src1)
    return emitOpError()
           << "a fabout DSD loads only into a destination DSR, got "
           << getDsr().getType();
  return dsd::verifyOptions(*this, {getAsync(), getActivate(), getUnblock(),
                                    getUtId(), std::nullopt, Value()});
}
